"""Hostile input for ``cardworks serve``: pack files that are symlinks out (to a secret, to ``/dev/zero``),
a FIFO in the pack, a face that never finishes rendering saved while it serves, and other ``Host:`` headers
on another loopback address. The real server runs in its own process; pages are fetched over HTTP."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from corpus import REPO, Outside, Result, finish, judge, start

FAMILY = "serve"
SECRET = "serve-secret-marker-5d1c"
CARDS = REPO / "cards"


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "fallera-pack", tmp_path / "pack")
    return tmp_path / "pack"


class Server:
    """``cardworks serve`` in its own process group, answering on ``host:port`` once :meth:`wait` returned."""

    def __init__(self, *args: str, host: str = "127.0.0.1", env: dict[str, str] | None = None) -> None:
        self.host, self.port = host, _port()
        self.process = start("--cards", str(CARDS), "serve", *args, "--host", host, "--port", str(self.port), env=env)

    def wait(self, timeout: float = 90) -> bool:
        """True once the server accepts connections and its deck page shows every face drawn (the page is
        answered at once, before the data is checked and the faces drawn); False if it died or never got there
        within ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection((self.host, self.port), timeout=1).close()
            except OSError:
                time.sleep(0.2)
                continue
            status, page, _ = self.get("/deck", timeout=max(1.0, deadline - time.monotonic()))
            if status == 200 and 'data-waiting="0"' in page:
                return True
            time.sleep(0.2)
        return False

    def get(self, path: str, timeout: float = 30, host: str | None = None) -> tuple[int | None, str, float]:
        """Status, body and seconds of one request (status None when it did not answer in ``timeout``)."""
        request = urllib.request.Request(f"http://{self.host}:{self.port}{path}",
                                         headers={"Host": host} if host else {})
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                body = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            body, status = error.read(), error.code
        except (TimeoutError, OSError):
            return None, "", time.monotonic() - started
        return status, body.decode("utf-8", "replace") if not path.endswith(".png") else body.hex()[:64], \
            time.monotonic() - started

    def stop(self, hung: bool = False) -> Result:
        """Ctrl-C the server (or, when it never listened, let :func:`finish` kill its group: a hang) and
        collect its output; a server that exited by itself is judged by its exit and output."""
        if self.process.poll() is None and not hung:
            os.killpg(self.process.pid, signal.SIGINT)
        result = finish(self.process, timeout=0.1 if hung else 20)
        return result


def _refusals(page: str, *expected: tuple[str, str]) -> str | None:
    missing = [f"{name} [{code}]" for name, code in expected if not any(
        name in line and f"[{code}]" in line for line in page.splitlines())]
    return f"the page does not list: {', '.join(missing)}" if missing else None


def test_line_numbers_are_never_read_from_a_file_outside_or_special(tmp_path: Path) -> None:
    """The page's line numbers for problems (the read that opened /etc/passwd and /dev/zero): a symlink out of
    the pack, a device and a FIFO give no line and are never read; a regular file inside still maps."""
    from cardworks.serve.project import LineFinder

    pack = tmp_path / "pack"
    pack.mkdir()
    secret = Outside(tmp_path / "outside" / "secret.json", json.dumps({"cards": [SECRET]}))
    os.symlink(secret.path, pack / "leak.json")
    os.symlink("/dev/zero", pack / "zero.json")
    os.mkfifo(pack / "fifo.json")
    (pack / "good.json").write_text('{\n  "cards": [1]\n}\n')
    lines = LineFinder([tmp_path], readable=[pack])
    found = {name: lines.line(str(pack / name), "/cards/0") for name in ("leak.json", "zero.json", "fifo.json",
                                                                           "good.json")}
    shown = lines.short(str(pack / "leak.json"))
    judge("serve: line numbers of files outside or special", FAMILY, Result(0, shown, "", 0.0, False), refuse=False,
          outside=[secret], check=lambda: None if found == {"leak.json": None, "zero.json": None, "fifo.json": None,
                                                            "good.json": 2} and shown == "pack/leak.json" else
          f"lines {found}, shown as {shown}")


@pytest.mark.slow
def test_pack_files_leading_out_or_special_are_refused_not_read(pack: Path, tmp_path: Path) -> None:
    """A ruling file that is a symlink to a secret, one to /dev/zero, a FIFO, and card art that is a symlink
    out of the pack: the server starts, lists each as refused, and never reads the secrets (their access
    times are unchanged) nor /dev/zero."""
    secret = Outside(tmp_path / "outside" / "secret.json", json.dumps({"question": SECRET}))
    art = Outside(tmp_path / "outside" / "art.png", SECRET)
    os.symlink(secret.path, pack / "rulings" / "leak.json")
    os.symlink("/dev/zero", pack / "rulings" / "zero.json")
    os.mkfifo(pack / "rulings" / "fifo.json")
    os.symlink(art.path, pack / "leak.png")
    data = json.loads((pack / "sets" / "example.json").read_text())
    data["cards"][0]["art"] = "leak.png"
    (pack / "sets" / "example.json").write_text(json.dumps(data))
    server = Server(str(pack))
    listening = server.wait()
    status, page, _ = server.get("/deck?problems=1") if listening else (None, "", 0.0)
    result = server.stop(hung=not listening)

    def listed() -> str | None:
        if status != 200:
            return f"the deck page answered {status}"
        return _refusals(page, ("leak.json", "path-escape"), ("zero.json", "path-escape"),
                         ("fifo.json", "not-a-regular-file"), ("leak.png", "path-escape"))

    judge("serve: pack files that are symlinks out or a FIFO", FAMILY, result, refuse=False, check=listed,
          secret=SECRET, seen=page, outside=[secret, art])


@pytest.mark.slow
def test_other_host_headers_are_refused_on_any_loopback_address(pack: Path) -> None:
    """Listening on 127.0.0.2, a request naming another host (DNS rebinding) is refused like on 127.0.0.1."""
    server = Server(str(pack), host="127.0.0.2")
    listening = server.wait()
    answers = {name: server.get("/deck", host=name)[0] if listening else None
               for name in ("evil.example", f"127.0.0.2:{server.port}", "localhost")}
    result = server.stop(hung=not listening)
    wanted = {"evil.example": 400, f"127.0.0.2:{server.port}": 200, "localhost": 200}
    judge("serve --host 127.0.0.2: Host header checked", FAMILY, result, refuse=False,
          check=lambda: None if answers == wanted else f"answers {answers}, wanted {wanted}")


@pytest.mark.slow
def test_a_face_that_never_finishes_does_not_stop_other_pages(pack: Path) -> None:
    """A card saved while the server runs whose face never finishes rendering (the fault hook holds it, as
    a layout that never ends would): cached faces keep answering at once, pages within the time limit, and
    the card is shown as failed after ``--render-timeout``."""
    server = Server(str(pack), "--render-timeout", "5", env={"CARDWORKS_PAUSE_AT": "serve-render:example-pausa"})
    listening = server.wait()
    timings: dict[str, tuple[int | None, float]] = {}
    page = ""
    if listening:
        status, page, seconds = server.get("/deck", timeout=60)
        timings["first deck page"] = (status, seconds)
        faces = sorted({part.split(".png")[0] for part in page.split("/faces/")[1:]})
        sets = pack / "sets" / "example.json"
        data = json.loads(sets.read_text())
        data["cards"].append({**data["cards"][0], "id": "example-pausa", "name": "Pausa"})
        (sets.parent / "example.json.tmp~").write_text(json.dumps(data))
        (sets.parent / "example.json.tmp~").replace(sets)  # saved as an editor saves
        time.sleep(2)  # the watcher's debounce: the reload is now rendering the new face
        if faces:
            timings["a cached face, during the render"] = server.get(f"/faces/{faces[0]}.png", timeout=5)[::2]
        status, page, seconds = server.get("/deck", timeout=30)
        timings["deck page after the save"] = (status, seconds)
        deadline = time.monotonic() + 30  # the page answers at once; the stuck face is marked once stopped
        while status == 200 and "took longer than 5 s" not in page and time.monotonic() < deadline:
            time.sleep(0.5)
            status, page, _ = server.get("/deck", timeout=30)
    result = server.stop(hung=not listening)

    def answered() -> str | None:
        slow = {what: t for what, t in timings.items() if t[0] != 200}
        if len(timings) < 3 or slow:
            return f"pages that did not answer: {slow or timings}"
        if "Pausa" not in page or "took longer than 5 s" not in page:
            return "the new card's face is not shown as failed"
        return None

    judge("serve: a face saved while serving never finishes rendering", FAMILY, result, refuse=False,
          check=answered)
