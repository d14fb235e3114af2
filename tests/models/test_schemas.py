"""The committed JSON Schemas are exactly what the models generate, and the data obeys them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cardworks.models.files import FILE_KINDS, classify
from cardworks.engine.schemas import render_schemas, stale_schemas
from conftest import REPO

SCHEMA_DIR = REPO / "schema"
DATA_FILES = sorted(p for p in (REPO / "cards").rglob("*.json"))


def test_committed_schemas_match_the_models() -> None:
    assert stale_schemas(SCHEMA_DIR) == [], "run 'cardworks schema' and commit schema/"


def test_schema_check_notices_drift(tmp_path: Path) -> None:
    for name, text in render_schemas().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "set.schema.json").write_text("{}\n")
    assert stale_schemas(tmp_path) == ["set.schema.json"]


@pytest.mark.parametrize("name", sorted(render_schemas()))
def test_every_schema_is_valid_draft_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(json.loads((SCHEMA_DIR / name).read_text()))


def test_field_docstrings_become_descriptions() -> None:
    schema = json.loads((SCHEMA_DIR / "set.schema.json").read_text())
    quantity = schema["$defs"]["CardDesign"]["properties"]["quantity"]
    assert "Copies of this design" in quantity["description"]
    assert schema["$defs"]["CardDesign"]["properties"]["rules"]["x-markup"] is True


def test_shipped_data_files_exist() -> None:
    assert len(DATA_FILES) >= 5


@pytest.mark.parametrize("path", DATA_FILES, ids=[str(p.relative_to(REPO)) for p in DATA_FILES])
def test_every_data_file_names_its_schema_and_obeys_it(path: Path) -> None:
    relative = "/".join(path.relative_to(REPO / "cards").parts[1:])
    kind = classify(relative)
    assert kind is not None, f"{relative} has no place in the layout"
    data = json.loads(path.read_text(encoding="utf-8"))
    named = (path.parent / data["$schema"]).resolve()
    game = path.relative_to(REPO / "cards").parts[0]
    own = SCHEMA_DIR / game / kind.schema_file  # a game's own schema, for the kinds that carry its vocabulary
    wanted = own if own.exists() else SCHEMA_DIR / kind.schema_file
    assert named == wanted.resolve(), "the $schema path must reach the committed schema"
    errors = sorted(Draft202012Validator(json.loads(named.read_text())).iter_errors(data), key=lambda e: e.json_path)
    assert not errors, [f"{e.json_path}: {e.message}" for e in errors[:5]]


def test_every_kind_has_a_schema_file() -> None:
    overlay = {"owner-facts.schema.json"}  # an owner's facts overlay: outside the database, so no file kind
    assert {k.schema_file for k in FILE_KINDS} | overlay == {name for name in render_schemas() if "/" not in name}


def test_each_game_schema_accepts_only_its_own_vocabulary() -> None:
    fallera = json.loads((SCHEMA_DIR / "fallera" / "set.schema.json").read_text())
    diables = json.loads((SCHEMA_DIR / "diables" / "components.schema.json").read_text())
    card = {"$schema": "x", "id": "s", "name": "S", "cards": [{"id": "c", "types": ["treasure"], "name": "C",
            "sources": [{"doc": "d"}], "effects": [{"do": [{"verb": "as-its-type"}]}]}]}
    assert not list(Draft202012Validator(fallera).iter_errors(card))
    card["cards"][0]["effects"] = [{"op": "plaza-majority"}]  # another game's operation
    assert list(Draft202012Validator(fallera).iter_errors(card))
    tile = {"$schema": "x", "components": [{"id": "t", "kind": "tile", "name": "T", "sources": [{"doc": "d"}],
            "scoring": {"do": [{"verb": "as-its-type"}]}}]}  # a Fallera effect on a Diables tile
    assert list(Draft202012Validator(diables).iter_errors(tile))
