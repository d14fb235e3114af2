"""The documents' label files follow their locale's typography, checked by validate like translations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardworks.problems import ProblemList
from cardworks.validate.check_labels import check_labels, labels_folder
from conftest import REPO, run_cli


def test_shipped_labels_pass_and_french_uses_narrow_no_break_spaces() -> None:
    out = ProblemList()
    check_labels(out)
    assert not out.items, [p.message for p in out.items]
    french = json.loads((labels_folder() / "fr.json").read_text(encoding="utf-8"))
    assert french["colon"] == "\u202f: " and "\u202f:" in french["proof_note"]
    run = run_cli("--cards", str(REPO / "cards"), "validate", "--format", "json")
    assert not [p for p in run.problems if "labels" in p["file"]]


@pytest.mark.parametrize("text, flagged", [("Épreuve : texte", True), ("Épreuve: texte", True),
                                           ("Épreuve\u202f: texte", False), ("Vraiment\u202f?", False),
                                           ("Vraiment ?", True), ("10:30", False)])
def test_french_label_typography(tmp_path: Path, text: str, flagged: bool) -> None:
    (tmp_path / "en.json").write_text(json.dumps({"proof_note": "Proof: text"}), encoding="utf-8")
    (tmp_path / "fr.json").write_text(json.dumps({"proof_note": text}, ensure_ascii=False), encoding="utf-8")
    out = ProblemList()
    check_labels(out, tmp_path)
    assert bool([p for p in out.items if p.code == "typography"]) == flagged


def test_a_label_missing_from_a_locale_is_reported(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text(json.dumps({"a": "A", "b": "B"}), encoding="utf-8")
    (tmp_path / "nl.json").write_text(json.dumps({"a": "A"}), encoding="utf-8")
    (tmp_path / "es.json").write_text("{broken", encoding="utf-8")
    out = ProblemList()
    check_labels(out, tmp_path)
    assert [(p.code, p.location) for p in out.warnings] == [("missing-translation", "/b")]
    assert [p.code for p in out.errors] == ["json-syntax"]
