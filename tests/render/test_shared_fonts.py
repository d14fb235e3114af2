"""One WeasyPrint font configuration per process (render/fonts.py ``shared_font_config``): the bundled fonts are
loaded once for every document the process lays out, a forked worker makes its own, and a document laid out
with the shared configuration prints the bytes it printed with one of its own."""

from __future__ import annotations

import io

import pytest

from cardworks.render import fonts
from cardworks.render.fonts import font_face_css, shared_font_config

pytestmark = pytest.mark.slow

HTML = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><style>{fonts}\n@page {{ size: 60mm 40mm; }}"
        "body {{ font-family: CardSans; hyphens: auto; }} b {{ font-family: CardCondensed; }}</style></head>"
        "<body><p>Each <b>treasure</b> card counts once towards the goal, whatever its value.</p></body></html>")


def test_one_configuration_per_process_and_a_new_one_in_a_forked_worker(monkeypatch) -> None:
    first = shared_font_config()
    assert shared_font_config() is first
    monkeypatch.setattr(fonts.os, "getpid", lambda: -12345)
    monkeypatch.setattr(fonts, "_CONFIGS", dict(fonts._CONFIGS))
    assert shared_font_config() is not first


def test_documents_laid_out_with_the_shared_configuration_print_the_same_bytes() -> None:
    from weasyprint import HTML as Page
    from weasyprint.text.fonts import FontConfiguration

    def pdf(text: str, config: object) -> bytes:
        out = io.BytesIO()
        Page(string=text).write_pdf(out, font_config=config)
        return out.getvalue()

    first, second = HTML.format(fonts=font_face_css()), HTML.format(fonts=font_face_css()).replace("treasure", "battle")
    own = [pdf(first, FontConfiguration()), pdf(second, FontConfiguration())]
    shared = [pdf(first, shared_font_config()), pdf(second, shared_font_config())]
    assert shared == own


WORKERS = """
import json
import os
from concurrent.futures import ProcessPoolExecutor
from weasyprint import HTML
from cardworks.render.fonts import font_face_css, shared_font_config

def lay_out(number):
    HTML(string=f"<style>{font_face_css()}</style><p style='font-family: CardSans'>card {number}</p>").write_pdf(
        font_config=shared_font_config())
    return os.getpid()

if __name__ == "__main__":
    lay_out(0)
    with ProcessPoolExecutor(2) as pool:
        assert len(set(pool.map(lay_out, range(6)))) == 2
    print(json.dumps(sorted(os.listdir(os.environ["TMPDIR"]))))
"""


def test_no_font_folder_is_left_behind_by_a_process_or_its_pool_workers(tmp_path) -> None:
    """WeasyPrint copies the fonts into a temporary folder per configuration; a pool worker exits through
    ``os._exit``, so before the finalizer every worker of every build left its folder (about 4 MB) behind.
    While the main process runs, its own folder is there (and only it); after it exits, nothing is."""
    import json
    import os
    import subprocess
    import sys

    script = tmp_path / "workers.py"
    script.write_text(WORKERS)
    temp = tmp_path / "temp"
    temp.mkdir()
    done = subprocess.run([sys.executable, str(script)], env={**os.environ, "TMPDIR": str(temp)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    during = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(during) == 1 and during[0].startswith(fonts.FONT_FOLDER), during
    assert sorted(os.listdir(temp)) == []


SWEEP = """
import json
import os
from pathlib import Path
from weasyprint import HTML
from cardworks.render.fonts import font_face_css, shared_font_config

config = shared_font_config()
HTML(string=f"<style>{font_face_css()}</style><p style='font-family: CardSans'>card</p>").write_pdf(font_config=config)
print(json.dumps([sorted(os.listdir(os.environ["TMPDIR"])), config._folder.name, len(os.listdir(config._folder))]))
"""


def test_a_process_removes_the_font_folders_of_this_machines_processes_that_are_gone(tmp_path) -> None:
    """A process killed outright (kill -9) runs no finalizer, so its font folder stays; the next process that
    lays out removes the folders whose process is gone, and only those: not a live process's, not another
    machine's (a temporary folder shared with containers), not WeasyPrint's of another program."""
    import json
    import os
    import subprocess
    import sys

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    temp = tmp_path / "temp"
    temp.mkdir()
    names = {"gone": fonts.font_folder_prefix(gone.pid) + "abc", "alive": fonts.font_folder_prefix(os.getpid()) + "def",
             "elsewhere": f"{fonts.FONT_FOLDER}00000000-{gone.pid}-ghi", "other program": "weasyprint-jkl"}
    for name in names.values():
        (temp / name).mkdir()
        (temp / name / "font").write_bytes(b"x" * 1000)
    script = tmp_path / "sweep.py"
    script.write_text(SWEEP)
    done = subprocess.run([sys.executable, str(script)], env={**os.environ, "TMPDIR": str(temp)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    during, own, fonts_in_own = json.loads(done.stdout.strip().splitlines()[-1])
    assert during == sorted([names["alive"], names["elsewhere"], names["other program"], own]), during
    assert own.startswith(fonts.FONT_FOLDER) and fonts_in_own >= 1, "WeasyPrint did not copy the fonts into ours"
    assert sorted(os.listdir(temp)) == sorted([names["alive"], names["elsewhere"], names["other program"]])
