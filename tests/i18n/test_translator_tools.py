"""What translators' tools see: format flags checked by real msgfmt and pofilter, Weblate flags,
XLIFF placeholders and widths, the Valencian header variants, and the README's i18n examples run as written.

End to end on the shipped database: the README's examples (written against it). The Weblate and XLIFF flags run
on the Fallera fixture game given Catalan text of its own; the rest on the fixture game ``mini``."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from cardworks.i18n import source_hash
from conftest import FALLERA, REPO, GameDir, run_cli


def _export(cards: Path, out: Path, *args: str) -> Path:
    run = run_cli("--cards", str(cards), "i18n", "export", *args, "--out", str(out))
    assert run.exit_code == 0, run.output
    return out


def _msgfmt(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(path)], capture_output=True, text=True)


def _pofilter(path: Path, out: Path, *tests: str) -> str:
    args = [arg for test in tests for arg in ("-t", test)]
    subprocess.run([sys.executable, "-m", "translate.filters.pofilter", *args, str(path), str(out)],
                   capture_output=True, text=True, check=True)
    return out.read_text(encoding="utf-8") if out.exists() else ""


def test_renamed_token_fails_msgfmt_and_pofilter(game: GameDir, tmp_path: Path) -> None:
    game.write()
    path = _export(game.cards_root, tmp_path / "es.po", "--locale", "es")
    assert _msgfmt(path).returncode == 0
    po = polib.pofile(str(path))
    entry = po.find("mini/base/capita/rules", by="msgctxt")
    assert "python-brace-format" in entry.flags
    entry.msgstr = "Roba un {tesoro} a un rival."
    po.save()
    done = _msgfmt(path)
    assert done.returncode == 1 and "'tesoro' doesn't exist in 'msgid'" in done.stderr
    flagged = _pofilter(path, tmp_path / "flagged.po", "variables", "pythonbraceformat")
    assert "pythonbraceformat" in flagged and "{tesoro}" in flagged and "mini/base/capita/rules" in flagged
    dropped = polib.pofile(str(path))
    dropped.find("mini/base/capita/rules", by="msgctxt").msgstr = "Roba un tesoro a un rival."
    dropped.save()
    done = _msgfmt(path)
    assert done.returncode == 1 and "'treasure' doesn't exist in 'msgstr'" in done.stderr


BUTONI = ("Text de prova del joc de proves, no el de la carta: nomena un {treasure} i res més, i servix només per "
          "a comprovar les marques que veuen les eines dels traductors en una carta amb un text llarg.")
"""A Catalan text of el butoni's rules in the fixture's own words (not the card's)."""


def _fallera_ca(tmp_path: Path) -> Path:
    """A cards folder holding the Fallera fixture game (``conftest.FALLERA``) given Catalan, el butoni's rules in
    it, an English rulebook chapter and one ruling of its own (test text, not the game's)."""
    root = tmp_path / "cards" / "fallera"
    shutil.copytree(FALLERA, root)
    game = json.loads((root / "game.json").read_text(encoding="utf-8"))
    game["locales"].append("ca")
    cards = {c["id"]: c for c in json.loads((root / "sets/base.json").read_text(encoding="utf-8"))["cards"]}
    source = cards["el-butoni"]["rules"]
    files = {
        "game.json": game,
        "i18n/ca.json": {"$schema": "../../../schema/translations.schema.json", "game": "fallera", "locale": "ca",
                         "entries": {"el-butoni": {"rules": {"text": BUTONI, "source_hash": source_hash(source),
                                                             "source": source}}}},
        "rules/en/01-objective.md": "# Objective\n\nA chapter of the test fixture, not the game's text.\n",
        "rulings/base.json": {"$schema": "../../../schema/rulings.schema.json", "rulings": [
            {"id": "ruling-fixture", "cards": ["el-butoni"], "topic": "special-cards",
             "question": "A question of the test fixture?", "answer": "An answer of the fixture, not the game's.",
             "source": {"doc": "fallera-base", "section": "Special Cards"}}]},
    }
    for relative, content in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        (root / relative).write_text(text, encoding="utf-8")
    return root.parent


def test_po_flags_for_weblate(tmp_path: Path) -> None:
    po = polib.pofile(str(_export(_fallera_ca(tmp_path), tmp_path / "ca.po", "--game", "fallera", "--locale", "ca")))
    butoni = po.find("fallera/base/el-butoni/rules", by="msgctxt")
    assert 'placeholders:"{treasure}"' in butoni.flags and butoni.msgstr == BUTONI
    length = next(int(f.split(":")[1]) for f in butoni.flags if f.startswith("max-length:"))
    assert len(butoni.msgstr) <= length and 400 < length < 800
    name = po.find("fallera/base/conill/name", by="msgctxt")
    assert [f for f in name.flags if f.startswith("max-length:")] and "python-brace-format" not in name.flags
    block = po.find("fallera/rules/01-objective/0", by="msgctxt")
    assert "md-text" in block.flags and not [f for f in block.flags if f.startswith("max-length")]
    ruling = next(e for e in po if "/ruling/" in e.msgctxt)
    assert not [f for f in ruling.flags if f.startswith("max-length")]
    assert all("python-brace-format" in e.flags for e in po if re.search(r"\{[a-z]+\}", e.msgid))


def test_xliff_units_carry_width_and_locked_placeholders(tmp_path: Path) -> None:
    from lxml import etree

    path = _export(_fallera_ca(tmp_path), tmp_path / "ca.xlf", "--game", "fallera", "--locale", "ca", "--format", "xliff")
    tree = etree.parse(str(path))
    ns = {"x": tree.getroot().nsmap[None]}
    unit = tree.find(".//x:trans-unit[@id='fallera/base/el-butoni/rules']", ns)
    assert unit.get("size-unit") == "char" and int(unit.get("maxwidth")) > 400
    for part in ("source", "target"):
        ph = unit.find(f"x:{part}/x:ph", ns)
        assert ph is not None and ph.text == "{treasure}"
    ruling = next(u for u in tree.iterfind(".//x:trans-unit", ns) if "/ruling/" in u.get("id"))
    assert ruling.get("maxwidth") is None


def _valencian_mini(game: GameDir) -> Path:
    """The fixture game with a Catalan locale whose Valencian spellings are aliases of ``ca``, as the shipped
    games declare them (``locale_aliases`` in game.json)."""
    game.files["game.json"]["locales"].append("ca")
    game.files["game.json"]["locale_aliases"] = {variant: "ca" for variant in
                                                 ("ca@valencia", "ca_ES@valencia", "ca-valencia", "ca-ES-valencia")}
    game.write()
    return game.cards_root


@pytest.mark.parametrize("header", ["ca@valencia", "ca-valencia", "ca_ES@valencia", "ca-ES-valencia"])
def test_valencian_header_variants_import_as_ca(game: GameDir, tmp_path: Path, header: str) -> None:
    cards = _valencian_mini(game)
    path = _export(cards, tmp_path / "ca.po", "--game", "mini", "--locale", "ca")
    po = polib.pofile(str(path))
    po.metadata["Language"] = header
    po.find("mini/base/capita/rules", by="msgctxt").msgstr = "Roba un {treasure} a un rival, que no es balla."
    po.save()
    run = run_cli("--cards", str(cards), "i18n", "import", str(path))
    assert run.exit_code == 0 and "1 changed" in run.output, run.output
    assert "no es balla" in (cards / "mini/i18n/ca.json").read_text(encoding="utf-8")
    run = run_cli("--cards", str(cards), "i18n", "import", str(path), "--locale", "es")
    assert run.exit_code == 1 and "wrong-locale" in run.output


def test_unknown_variant_is_still_refused(game: GameDir, tmp_path: Path) -> None:
    cards = _valencian_mini(game)
    po = polib.pofile(str(_export(cards, tmp_path / "ca.po", "--game", "mini", "--locale", "ca")))
    po.metadata["Language"] = "ca@balears"
    po.save()
    run = run_cli("--cards", str(cards), "i18n", "import", str(tmp_path / "ca.po"))
    assert run.exit_code == 2 and "no locale 'ca@balears'" in run.output


def _readme_commands(prefix: str) -> list[str]:
    """The shell examples of the README and of the documentation site's pages that start with ``prefix``."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()
            if line.startswith(prefix)]


def test_readme_i18n_examples_run_as_written(tmp_path: Path) -> None:
    """Every ``cardworks i18n`` / ``msgfmt`` line of the README's and the docs' shell examples, in order, in a
    copy of the shipped database (import writes into it)."""
    shutil.copytree(REPO / "cards", tmp_path / "cards")
    home = tmp_path / "home"  # the README's pack examples work on a copy of the example pack in ~/my-pack
    shutil.copytree(REPO / "examples" / "fallera-pack", home / "my-pack")
    commands = [c for c in _readme_commands("cardworks i18n") + _readme_commands("msgfmt")]
    assert len(commands) >= 5
    ordered = sorted(commands, key=lambda c: (0 if "export" in c else 1 if c.startswith("msgfmt") else 2))
    for command in ordered:
        argv = [str(home) + arg[1:] if arg.startswith("~/") else arg for arg in shlex.split(command)]
        if argv[0] == "cardworks":
            argv = [str(Path(sys.executable).with_name("cardworks")), *argv[1:]]
        done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, f"{command}: {done.stderr}"
