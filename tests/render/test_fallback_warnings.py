"""``--allow-fallback`` is never silent for documents either: each string or section taken from another locale is
warned about once and listed in the output's manifest record. (Card sheets, with their contents page, are
checked in ``test_pack_build``.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardworks.loading.database import Database, load_game
from cardworks.render.docs.documents import rulebook_html
from cardworks.render.docs.texts import fallen_back
from cardworks.render.manifest import read_manifest
from conftest import REPO, run_cli


@pytest.fixture
def calavera(tmp_path: Path) -> Path:
    """A copy of the shipped cards with Calavera's Valencian 'Conseils' section taken out."""
    cards = tmp_path / "cards"
    shutil.copytree(REPO / "cards/calavera", cards / "calavera")
    (cards / "calavera/rules/ca/07-conseils.md").unlink()
    return cards


def test_a_rulebook_reports_the_section_it_took_from_another_locale(calavera: Path) -> None:
    db = Database(game=load_game(calavera / "calavera"))
    fell_back: list[str] = []
    rulebook_html(db, "ca", "all", allow_fallback=True, fell_back=fell_back)
    assert fallen_back(fell_back) == [{"string": "rules/07-conseils", "used": "fr"}]
    fell_back.clear()
    rulebook_html(db, "es", "all", allow_fallback=True, fell_back=fell_back)
    assert fell_back == []


def test_fallen_back_strings_are_listed_once_each() -> None:
    assert fallen_back(["a/name (es)", "label colon (en)", "a/name (es)"]) == [
        {"string": "a/name", "used": "es"}, {"string": "label colon", "used": "en"}]


@pytest.mark.parametrize("fallbacks, kept", [
    ([{"string": "conill/rules", "used": "es"}], True),
    ([{"string": "conill/rules"}], False),
    (["conill/rules (es)"], False),
    ([{"string": "conill/rules", "used": 3}], False),
])
def test_a_manifest_record_with_malformed_fallbacks_is_not_trusted(tmp_path: Path, fallbacks, kept: bool) -> None:
    record = {"game": "fallera", "locale": "ca", "kind": "cards", "path": "fallera/ca/cards-base-a4.pdf", "pages": 3,
              "sha256": "0" * 64, "input_hash": "1" * 64, "fallbacks": fallbacks}
    (tmp_path / "manifest.json").write_text(json.dumps({"outputs": [record]}), encoding="utf-8")
    assert len(read_manifest(tmp_path)) == (1 if kept else 0)


@pytest.mark.slow
def test_a_build_warns_and_records_each_fallen_back_section(calavera: Path, tmp_path: Path) -> None:
    args = ("--cards", str(calavera), "build", "--game", "calavera", "--locale", "ca", "--no-cards",
            "--out", str(tmp_path / "build"), "--jobs", "1")
    refused = run_cli(*args)
    assert refused.exit_code == 1 and "rules/ca/07-conseils.md" in refused.output, refused.output
    run = run_cli(*args, "--allow-fallback")
    assert run.exit_code == 0, run.output
    warnings = [line for line in run.output.splitlines() if line.startswith("warning: [fallback]")]
    assert warnings == ["warning: [fallback] calavera/ca/rulebook-all.pdf: rules/07-conseils has no ca text; the fr "
                        "text is printed (--allow-fallback)"], run.output
    records = {r.path: r for r in read_manifest(tmp_path / "build")}
    assert records["calavera/ca/rulebook-all.pdf"].fallbacks == [{"string": "rules/07-conseils", "used": "fr"}]
