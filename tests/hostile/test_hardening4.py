"""Issue 49 (hardening 4), the findings on inputs: a garbage cache table, a forged image verdict, contents pages
naming files that are not there, ``check --save-failures`` overwriting a kept scenario or writing into an unusable
folder, typed expectations taking other types, imports taking invisible characters or dropping plurals unnamed,
and Tabletop Simulator base URLs that are no URLs."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import cardworks, judge, mini  # noqa: F401  (fixtures)


@pytest.mark.parametrize("url", ["http://", "https://", "http:///decks", "http://example.org/my decks/",
                                 "https://example.org/decks/\nhttp://evil.example/", "http://exa\tmple.org/"])
def test_a_tts_base_url_that_is_no_url_is_refused_naming_the_option(mini, tmp_path: Path, url: str) -> None:
    out = tmp_path / "tts"
    result = cardworks("--cards", str(mini.cards_root), "export", "tts", "--out", str(out), "--base-url", url,
                       timeout=60)
    judge(f"export tts --base-url {url!r}", "exports", result, refuse=True)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "--base-url" in lines[0], result.stderr
    assert not out.exists()


def _png(size: tuple[int, int] = (660, 380)) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.effect_noise(size, 64).convert("RGB").save(out, "PNG")
    return out.getvalue()


def _with_art(mini, data: bytes, name: str = "art.png") -> None:
    import json

    (mini.root / "art").mkdir(exist_ok=True)
    (mini.root / "art" / name).write_bytes(data)
    sets = mini.root / "sets" / "base.json"
    doc = json.loads(sets.read_text())
    doc["cards"][0]["art"] = f"art/{name}"
    sets.write_text(json.dumps(doc))


@pytest.mark.parametrize("table", ["language.json", "images.json"])
def test_a_cache_table_of_deeply_nested_json_is_started_afresh(mini, tmp_path: Path, table: str) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / table).write_text("[" * 200_000 + "]" * 200_000)
    _with_art(mini, _png())  # so the image table is read
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=60, env={"CARDWORKS_CACHE": str(cache)})

    def afresh() -> str | None:
        import json

        if table == "images.json" and not isinstance(json.loads((cache / table).read_text()), dict):
            return "the image table was not started afresh"
        return None

    judge(f"{table} in the cache folder nested 200,000 deep", "options-and-state", result, refuse=False,
          check=afresh)


@pytest.mark.parametrize("sees, where", [({"deck_size": 1.0}, "deck_size"), ({"hand_sizes.1": False}, "hand_sizes.1"),
                                         ({"hand_sizes": [1.0, 0, 0, 0, 0]}, "hand_sizes"),
                                         ({"turn": True}, "turn")])
def test_a_typed_observation_of_another_type_is_refused_at_its_pointer(tmp_path: Path, sees: dict,
                                                                        where: str) -> None:
    """The starting position shows ``deck_size`` 1, ``hand_sizes`` [1, 0, 0, 0, 0], ``turn`` 1: each expectation
    here is right but for its type (``1.0 == 1`` and ``False == 0`` in Python), and used to pass both commands."""
    import json

    from conftest import FIXTURE_CARDS

    source = json.loads((FIXTURE_CARDS / "fallera/scenarios/base.json").read_text(encoding="utf-8"))
    source["scenarios"] = [s for s in source["scenarios"] if s["id"] == "scenario-base-five-player-cabeca-d-alls"]
    source["scenarios"][0]["expect"].append({"after": 0, "observe": "p1", "sees": sees})
    n = len(source["scenarios"][0]["expect"]) - 1
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(source), encoding="utf-8")
    pointer = f"{path.name}:/scenarios/0/expect/{n}/sees/{where}:"
    result = cardworks("--cards", str(FIXTURE_CARDS), "check", "--game", "fallera", "--scenarios", str(path),
                       "--playouts", "0", timeout=60)
    judge(f"check: sees {json.dumps(sees)} where the game shows integers", "options-and-state", result,
          refuse=True, names=pointer, code="expectation-type")


PLANTED = '''
import sys
from minitrick.rules import MinitrickRules

original = MinitrickRules.apply


def broken(self, state, action, **kwargs):  # a bug in the game: every playout fails after its first trick
    if sum(state.tricks) >= 1:
        raise ZeroDivisionError("planted bug in a play")
    return original(self, state, action, **kwargs)


MinitrickRules.apply = broken
from cardworks.cli.main import main

sys.argv[0] = "cardworks"
main()
'''


def _check_with_a_bug(tmp_path: Path, *args: str):
    """``cardworks check`` of the fixture game Minitrick whose plays raise after the first trick (two playouts,
    both failing), run as its own process like every corpus case."""
    import os
    import subprocess
    import sys

    from conftest import FIXTURE_GAMES

    from corpus import _as_in_a_terminal, finish

    script = tmp_path / "planted.py"
    script.write_text(PLANTED)
    path = os.pathsep.join([str(FIXTURE_GAMES), os.environ.get("PYTHONPATH", "")])
    process = subprocess.Popen([sys.executable, str(script), "--cards", str(FIXTURE_GAMES / "minitrick" / "cards"),
                                "check", "--game", "minitrick", "--playouts", "2", "--seed", "1", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env={**os.environ, "PYTHONPATH": path}, preexec_fn=_as_in_a_terminal, cwd=tmp_path)
    return finish(process, timeout=60)


def test_save_failures_never_overwrites_a_kept_scenario(tmp_path: Path) -> None:
    import json

    from corpus import judge_output

    folder = tmp_path / "failed"
    first = _check_with_a_bug(tmp_path, "--save-failures", str(folder))
    assert first.exit_code == 1 and "Traceback" not in first.stderr, first.stderr
    kept = folder / "playout-base-2p-seed-100003.json"
    document = json.loads(kept.read_text(encoding="utf-8"))
    document["scenarios"][0]["title"] = "The designer's title"
    document["scenarios"][0]["expect"] = [{"after": 0, "observe": "p1", "sees": {"deck_size": 0}}]
    kept.write_text(json.dumps(document, indent=2), encoding="utf-8")
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    second = _check_with_a_bug(tmp_path, "--save-failures", str(folder))
    after = {path.name: path.read_bytes() for path in folder.iterdir()}
    wrong = None
    if "Traceback" in second.stderr or second.exit_code != 1:
        wrong = f"exit {second.exit_code}: {second.stderr[-500:]}"
    elif any(after.get(name) != data for name, data in before.items()):
        wrong = "a saved scenario was overwritten by the second run"
    elif sorted(after) != sorted([*before, "playout-base-2p-seed-100003-2.json", "playout-base-2p-seed-100004-2.json"]):
        wrong = f"the second run's failures were not saved beside the kept ones: {sorted(after)}"
    elif "playout-base-2p-seed-100003.json is there already and is kept" not in second.stderr \
            or "saved as playout-base-2p-seed-100003-2.json" not in second.stderr:
        wrong = f"the second run did not say it kept the file and chose another name: {second.stderr[-500:]}"
    else:
        again = json.loads(after["playout-base-2p-seed-100003-2.json"])["scenarios"][0]["id"]
        wrong = None if again == "playout-base-2p-seed-100003-2" else f"the new file's scenario id is {again!r}"
    judge_output("check --save-failures twice into one folder: the kept scenarios stay", "simulate", wrong)


@pytest.mark.parametrize("kind", ["a file", "a dangling link", "a path under a file", "a link to a file"])
def test_save_failures_into_an_unusable_folder_is_refused_before_the_playouts(tmp_path: Path, kind: str) -> None:
    import os

    a_file = tmp_path / "notes.txt"
    a_file.write_text("kept\n")
    folder = {"a file": a_file, "a dangling link": tmp_path / "gone", "a path under a file": a_file / "failed",
              "a link to a file": tmp_path / "to-notes"}[kind]
    if kind == "a dangling link":
        os.symlink(tmp_path / "nowhere", folder)
    if kind == "a link to a file":
        os.symlink(a_file, folder)
    result = _check_with_a_bug(tmp_path, "--save-failures", str(folder))
    judge(f"check --save-failures into {kind}", "simulate", result, refuse=True)
    assert result.exit_code == 2 and "--save-failures" in result.stderr.splitlines()[-1], result.stderr
    assert "planted bug" not in result.stdout + result.stderr  # refused before any playout
    assert a_file.read_text() == "kept\n" and not (tmp_path / "nowhere").exists()


HIDDEN = {"U+200B zero-width space": "\u200b", "U+202E right-to-left override": "\u202e",
          "U+2066 left-to-right isolate": "\u2066", "BEL": "\x07", "a lone CR": "\r"}
"""What validate refuses in a translation ([invisible-character]) and an import used to write."""


@pytest.mark.parametrize("what", HIDDEN)
def test_a_po_import_holding_invisible_characters_is_refused_at_its_entry(mini, tmp_path: Path, what: str) -> None:
    import polib

    from corpus import fingerprint, lost

    path = tmp_path / "es.po"
    assert cardworks("--cards", str(mini.cards_root), "i18n", "export", "--locale", "es", "--out", str(path)).exit_code == 0
    po = polib.pofile(str(path), wrapwidth=0)
    next(e for e in po if e.msgctxt == "mini/base/capita/rules").msgstr = f"Roba un {{treasure}} {HIDDEN[what]}a un rival."
    po.save(str(path))
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(path), timeout=30)
    judge(f"PO import of a msgstr holding {what}", "translations", result, refuse=True, names="es.po:line ",
          code="invisible-character", changed=lost(before, fingerprint(mini.root)))


@pytest.mark.parametrize("what", [w for w in HIDDEN if w != "BEL"])  # XML 1.0 holds no BEL, not even as &#7;
def test_an_xliff_import_holding_invisible_characters_is_refused_at_its_unit(mini, tmp_path: Path, what: str) -> None:
    from corpus import fingerprint, lost
    from test_xliff import _edit, _export

    path = _export(mini, tmp_path)
    _edit(path, "mini/base/olla/name", f"ol{HIDDEN[what]}la", None)
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(path), timeout=30)
    judge(f"XLIFF import of a target holding {what}", "xliff", result, refuse=True,
          names="es.xlf:unit mini/base/olla/name", code="invisible-character",
          changed=lost(before, fingerprint(mini.root)))


def test_a_po_plural_entry_is_named_not_dropped(mini, tmp_path: Path) -> None:
    import polib

    from corpus import fingerprint, lost

    path = tmp_path / "es.po"
    assert cardworks("--cards", str(mini.cards_root), "i18n", "export", "--locale", "es", "--out", str(path)).exit_code == 0
    po = polib.pofile(str(path), wrapwidth=0)
    entry = next(e for e in po if e.msgctxt == "mini/base/olla/name")
    entry.msgid_plural, entry.msgstr_plural = "pots", {0: "olla", 1: "ollas"}
    po.save(str(path))
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(path), timeout=30)
    judge("PO import of a plural entry (msgstr[0])", "translations", result, refuse=True, names="es.po:line ",
          code="i18n-plural", changed=lost(before, fingerprint(mini.root)))
    assert "mini/base/olla/name" in result.stderr


@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_a_forged_image_verdict_in_the_cache_does_not_pass_truncated_art(mini, tmp_path: Path, fmt: str) -> None:
    """The user's cache folder remembers the digests of images that decoded whole; one written there by hand for a
    truncated file must not spare it: the file's structure is checked every time, and it fails."""
    import hashlib
    import io
    import json

    from PIL import Image

    from cardworks.loading.assets import _WholeImages

    out = io.BytesIO()
    Image.effect_noise((660, 380), 64).convert("RGB").save(out, fmt)
    cut = out.getvalue()[: len(out.getvalue()) // 2]
    _with_art(mini, cut, f"cut.{fmt.lower()}")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / _WholeImages.NAME).write_text(json.dumps({"checker": _WholeImages.checker(),
                                                       "whole": [hashlib.sha256(cut).hexdigest()]}))
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=60, env={"CARDWORKS_CACHE": str(cache)})
    judge(f"truncated {fmt} art with a forged 'whole' verdict in the cache folder", "art", result, refuse=True,
          names="base.json:/cards/0/art:", code="image-unreadable")


@pytest.mark.parametrize("layout", ["grid", "silhouette"])
def test_the_contents_page_names_exactly_the_files_that_print_the_kit(mini, tmp_path: Path, layout: str) -> None:
    """A pack with two card sizes (a 70 × 70 mm set beside one at the game's size): every file the contents page
    of each card sheet names is in the manifest, and each sheet file the build wrote is named there."""
    import json
    import re

    import pypdf

    source = [{"doc": "notes", "certainty": "stated"}]
    card = {"quantity": 1, "types": ["battle"], "stats": {"attack": 2, "defence": 2}, "sources": source}
    sets = "../../../schema/set.schema.json"
    files = {"pack.json": {"$schema": "../../schema/pack.schema.json", "id": "two-sizes", "extends": "mini", "name": "Two sizes",
                           "documents": [{"id": "notes", "title": "Notes"}]},
             "sets/small.json": {"$schema": sets, "id": "small-set", "name": "Small set", "card_size": {"width_mm": 70, "height_mm": 70},
                                 "cards": [{**card, "id": "small-one", "name": "small one"},
                                           {**card, "id": "small-two", "name": "small two"}]},
             "sets/full.json": {"$schema": sets, "id": "full-set", "name": "Full set", "cards": [{**card, "id": "big-one", "name": "big one"}]}}
    pack = tmp_path / "pack"
    for relative, content in files.items():
        (pack / relative).parent.mkdir(parents=True, exist_ok=True)
        (pack / relative).write_text(json.dumps(content), encoding="utf-8")
    out = tmp_path / "out"
    result = cardworks("--cards", str(mini.cards_root), "build", str(pack), "--out", str(out), "--locale", "en",
                       "--jobs", "1", "--layout", layout, timeout=180)

    def named_right() -> str | None:
        records = json.loads((out / "manifest.json").read_text())["outputs"]
        written = {Path(r["path"]).name for r in records}
        sheets = [r for r in records if r["kind"] == "cards"]
        if len(sheets) != 2:
            return f"expected the sheets of two card sizes, got {[r['path'] for r in sheets]}"
        for record in sheets:
            reader = pypdf.PdfReader(out / record["path"])
            text = " ".join(page.extract_text() for page in reader.pages[:record["contents_pages"]])
            named = set(re.findall(r"[A-Za-z0-9._-]+\.pdf", text))
            if named - written:
                return f"{record['path']}: its contents page names {sorted(named - written)}, which the build did not write"
            if {Path(r["path"]).name for r in sheets} - named:
                return f"{record['path']}: its contents page does not name {sorted({Path(r['path']).name for r in sheets} - named)}"
        return None

    judge(f"contents page of a pack with two card sizes (--layout {layout})", "layout", result, refuse=False,
          check=named_right)


@pytest.mark.parametrize("which", ["manifest.json", "every JSON file the build keeps"])
def test_a_build_folder_whose_json_is_nested_too_deep_is_rebuilt(mini, tmp_path: Path, which: str) -> None:
    """The build folder's own tables (the manifest, validation verdicts, the face cache's records) are read
    like the cache folder's: one nested too deep to parse is damaged, and rebuilt, never a traceback."""
    import json

    out = tmp_path / "out"
    args = ("--cards", str(mini.cards_root), "build", "--out", str(out), "--jobs", "1", "--locale", "en")
    assert cardworks(*args, timeout=120).exit_code == 0
    kept = [out / "manifest.json"] if which == "manifest.json" else \
        [p for p in out.rglob("*.json") if p.is_file() and not p.is_symlink()]
    assert len(kept) > (0 if which == "manifest.json" else 2), kept
    for path in kept:
        path.write_text("[" * 200_000 + "]" * 200_000)
    result = cardworks(*args, timeout=120)

    def rebuilt() -> str | None:
        records = json.loads((out / "manifest.json").read_text())["outputs"]
        missing = [r["path"] for r in records if not (out / r["path"]).is_file()]
        return f"manifest names missing files: {missing}" if missing or not records else None

    judge(f"build over {which} nested 200,000 deep", "options-and-state", result, refuse=False, check=rebuilt)
