"""XLIFF edited the way translators' tools edit it: only the ``<target>`` text, with whatever ``state`` the tool
writes. A target the translator typed is imported whatever its state says it is (none, translated, needs review,
final, approved). A stale unit's target changed under the export's ``needs-translation`` is imported as a
translation of the previous source, so it stays stale; any other target changed while its state says "not
translated yet", or in a state XLIFF 1.2 does not define, is refused with the reason. None is dropped in silence."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from lxml import etree

from conftest import GameDir, mini_files, partly_translated, run_cli
from corpus import cardworks, fingerprint, judge, judge_output, lost

FAMILY = "xliff"


@pytest.fixture
def mini(tmp_path: Path) -> GameDir:
    """The mini game with some Spanish strings still to translate (olla's name among them), as a translator gets it."""
    game = GameDir(tmp_path / "cards", partly_translated(copy.deepcopy(mini_files())))
    game.write()
    return game


def _export(game, where: Path) -> Path:
    path = where / "es.xlf"
    run = run_cli("--cards", str(game.cards_root), "i18n", "export", "--locale", "es", "--format", "xliff",
                  "--out", str(path))
    assert run.exit_code == 0, run.output
    return path


def _edit(path: Path, unit_id: str, text: str, state: str | None = "keep", approved: str | None = None) -> None:
    """Set one unit's target text as a tool does: add ``<target>`` if missing; ``state``: keep, remove or set it."""
    tree = etree.parse(str(path))
    ns = tree.getroot().nsmap[None]
    unit = tree.find(f".//{{{ns}}}trans-unit[@id='{unit_id}']")
    assert unit is not None, unit_id
    target = unit.find(f"{{{ns}}}target")
    if target is None:
        target = etree.Element(f"{{{ns}}}target")
        unit.find(f"{{{ns}}}source").addnext(target)
    for child in list(target):  # the exported <ph> codes go with the old text
        target.remove(child)
    target.text = text
    if state is None:
        target.attrib.pop("state", None)
    elif state != "keep":
        target.set("state", state)
    if approved is not None:
        unit.set("approved", approved)
    tree.write(str(path), xml_declaration=True, encoding="UTF-8")


def _entries(game) -> dict:
    return json.loads((game.root / "i18n/es.json").read_text(encoding="utf-8"))["entries"]


# What tools write for a finished translation: (unit, new text, state, approved).
EDITS = {
    "no state": ("mini/base/olla/name", "olla", None, None),
    "state kept as exported (translated)": ("mini/base/capita/name", "capitán", "keep", None),
    "translated": ("mini/set/base/name", "Básico", "translated", None),
    "needs-review-translation": ("mini/base/conill/name", "conejito", "needs-review-translation", None),
    "final, approved": ("mini/base/conill/alt_names/0", "conejo de monte", "final", "yes"),
    "signed-off": ("mini/base/capita/rules", "Roba un {treasure} a una rival.", "signed-off", None),
}


def _stored(entries: dict, unit: str) -> str | None:
    _, _, record, field = unit.split("/", 3)  # mini/base/olla/name, mini/set/base/name
    return entries.get(record, {}).get(field, {}).get("text")


def test_targets_a_translator_typed_are_imported_whatever_state_their_tool_wrote(mini, tmp_path: Path) -> None:
    path = _export(mini, tmp_path)
    for unit, text, state, approved in EDITS.values():
        _edit(path, unit, text, state, approved)
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(path), timeout=30)
    judge("xliff import of edited targets", FAMILY, result, refuse=False,
          check=lambda: None if f"{len(EDITS)} changed" in result.stdout else f"not every edit counted: {result.stdout}")
    entries = _entries(mini)
    for case, (unit, text, _, _) in EDITS.items():
        found = _stored(entries, unit)
        judge_output(f"xliff target with {case}", FAMILY, None if found == text else f"{unit}: {found!r}, not {text!r}")


def _stale(mini) -> None:
    data = mini.data("sets/base.json")
    next(c for c in data["cards"] if c["id"] == "capita")["rules"] = "Steal two {treasure} from a rival."
    mini.write()


def test_a_stale_unit_left_as_exported_is_skipped(mini, tmp_path: Path) -> None:
    _stale(mini)
    path = _export(mini, tmp_path)
    assert 'state="needs-translation"' in path.read_text(encoding="utf-8")
    before = _entries(mini)
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(path), timeout=30)
    judge("xliff stale unit unchanged", FAMILY, result, refuse=False,  # still stale: its source hash is kept
          check=lambda: None if _entries(mini) == before else "an unchanged file changed the translations")


def test_a_stale_target_changed_under_its_draft_state_is_imported_and_stays_stale(mini, tmp_path: Path) -> None:
    _stale(mini)
    path = _export(mini, tmp_path)
    _edit(path, "mini/base/capita/rules", "Roba dos {treasure} a un rival.")  # state stays needs-translation
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(path), timeout=30)

    def check() -> str | None:
        entry = _entries(mini)["capita"]["rules"]
        if entry["text"] != "Roba dos {treasure} a un rival.":
            return f"the edit was not imported: {entry}"
        if entry["source"] != "Steal one {treasure} from a rival.":
            return f"imported as a translation of the new source, though its state says it is not done: {entry}"
        return None
    judge("xliff stale target changed under needs-translation", FAMILY, result, refuse=False, check=check)


def test_a_target_typed_under_a_draft_state_is_refused_with_the_reason(mini, tmp_path: Path) -> None:
    path = _export(mini, tmp_path)
    _edit(path, "mini/base/olla/name", "olla", "needs-translation")  # a unit with no earlier translation
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(path), timeout=30)
    judge("xliff new target under needs-translation", FAMILY, result, refuse=True,
          names="unit mini/base/olla/name", code="xliff-state", changed=lost(before, fingerprint(mini.root)))


def test_a_state_xliff_does_not_define_is_refused(mini, tmp_path: Path) -> None:
    path = _export(mini, tmp_path)
    _edit(path, "mini/base/olla/name", "olla", "x-checked-by-bob")
    before = fingerprint(mini.root)
    result = cardworks("--cards", str(mini.cards_root), "i18n", "import", str(path), timeout=30)
    judge("xliff custom state", FAMILY, result, refuse=True, names="unit mini/base/olla/name", code="xliff-state",
          changed=lost(before, fingerprint(mini.root)))
