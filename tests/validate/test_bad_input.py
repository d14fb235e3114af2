"""The bad-input corpus: each case breaks the valid mini game once.

Every case asserts the exact error code, file and location, exit 1, no
traceback, and that validation wrote nothing.
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from cardworks.loading.jsonfile import MAX_DEPTH, MAX_FILE_BYTES
from conftest import GameDir, run_cli, snapshot

SET = "sets/base.json"


@dataclass
class Case:
    name: str
    mutate: Callable[[GameDir], None]
    code: str
    file: str
    location: str
    after: Callable[[GameDir], None] | None = None
    """Filesystem changes made after the files are written (symlinks, huge files)."""


def raw(relative: str, text: str | bytes) -> Callable[[GameDir], None]:
    """Replace a file's content with raw text or bytes."""
    def apply(g: GameDir) -> None:
        g.files[relative] = text
    return apply


def card(index: int, **changes) -> Callable[[GameDir], None]:
    def apply(g: GameDir) -> None:
        g.data(SET)["cards"][index].update(changes)
    return apply


def drop(relative: str, *path) -> Callable[[GameDir], None]:
    def apply(g: GameDir) -> None:
        node = g.data(relative)
        for step in path[:-1]:
            node = node[step]
        del node[path[-1]]
    return apply


def edit(fn: Callable[[GameDir], None]) -> Callable[[GameDir], None]:
    return fn


VALID_SET = json.dumps({"$schema": "x/set.schema.json", "id": "base", "name": "Base", "cards": []}, indent=2)


def _deep(depth: int) -> str:
    return '{"$schema": "set.schema.json", "id": "base", "name": "B", "notes": ' + "[" * depth + "]" * depth + "}"


def _symlink_file(g: GameDir) -> None:
    outside = g.cards_root.parent / "secret.svg"
    outside.write_text("<svg/>")
    (g.root / "icons" / "treasure.svg").unlink()
    os.symlink(outside, g.root / "icons" / "treasure.svg")


def _symlink_data(g: GameDir) -> None:
    outside = g.cards_root.parent / "outside.json"
    outside.write_text(VALID_SET)
    os.symlink(outside, g.root / "sets" / "extra.json")


def _huge(g: GameDir) -> None:
    with open(g.root / SET, "ab") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)


CASES = [
    # --- syntax and encoding -------------------------------------------------------------
    Case("truncated", raw(SET, '{\n  "id": "base",\n  "cards": [\n    {"id": "conill", "name": "con'), "json-syntax", SET, "4:30"),
    Case("missing-comma", raw(SET, '{\n  "id": "base"\n  "name": "B"\n}'), "json-syntax", SET, "3:3"),
    Case("trailing-comma", raw(SET, '{\n  "id": "base",\n}'), "json-syntax", SET, "3:1"),
    Case("single-quotes", raw(SET, "{'id': 'base'}"), "json-syntax", SET, "1:2"),
    Case("empty-file", raw(SET, ""), "json-syntax", SET, "1:1"),
    Case("invalid-utf8", raw(SET, b'{\n  "id": "caf\xe9"\n}'), "json-encoding", SET, "2:13"),
    Case("byte-order-mark", raw(SET, b"\xef\xbb\xbf" + VALID_SET.encode()), "json-bom", SET, "1:1"),
    Case("nan", raw(SET, '{\n  "id": NaN\n}'), "json-non-finite", SET, "2:9"),
    Case("infinity", raw(SET, '{"id": -Infinity}'), "json-non-finite", SET, "1:8"),
    Case("top-level-array", raw(SET, "[]"), "wrong-type", SET, ""),
    Case("duplicate-key", raw(SET, '{"$schema": "set.schema.json", "id": "base", "name": "a", "name": "b"}'),
         "json-duplicate-key", SET, "/name"),
    Case("nested-too-deep", raw(SET, _deep(MAX_DEPTH + 5)), "json-too-deep", SET, "/notes" + "/0" * MAX_DEPTH),
    Case("nested-absurdly", raw(SET, _deep(200_000)), "json-too-deep", SET, ""),
    Case("file-too-large", lambda g: None, after=_huge, code="file-too-large", file=SET, location=""),
    # --- schema ---------------------------------------------------------------------------
    Case("quantity-as-string", card(0, quantity="1"), "wrong-type", SET, "/cards/0/quantity"),
    Case("attack-as-string", card(1, stats={"attack": "4", "defence": 1}), "wrong-type", SET, "/cards/1/stats/attack"),
    Case("bool-as-number", card(0, quantity=True), "wrong-type", SET, "/cards/0/quantity"),
    Case("float-quantity", card(0, quantity=1.5), "wrong-type", SET, "/cards/0/quantity"),
    Case("types-not-a-list", card(0, types="treasure"), "wrong-type", SET, "/cards/0/types"),
    Case("unknown-field", card(0, colour="red"), "unknown-field", SET, "/cards/0/colour"),
    Case("missing-name", drop(SET, "cards", 0, "name"), "missing-field", SET, "/cards/0/name"),
    Case("missing-schema-ref", drop(SET, "$schema"), "schema-ref", SET, "/$schema"),
    Case("wrong-schema-ref", lambda g: g.data(SET).update({"$schema": "../../../schema/board.schema.json"}),
         "schema-ref", SET, "/$schema"),
    Case("quantity-zero", card(0, quantity=0), "out-of-range", SET, "/cards/0/quantity"),
    Case("id-with-space", card(0, id="con ill"), "bad-value", SET, "/cards/0/id"),
    # --- ids ----------------------------------------------------------------------------
    Case("duplicate-id", card(2, id="conill"), "duplicate-id", SET, "/cards/2/id"),
    Case("duplicate-id-by-case", card(2, id="Conill"), "duplicate-id", SET, "/cards/2/id"),
    Case("duplicate-id-nfc-nfd", lambda g: (card(0, id=unicodedata.normalize("NFC", "café"))(g),
                                            card(2, id=unicodedata.normalize("NFD", "café"))(g)),
         "duplicate-id", SET, "/cards/2/id"),
    Case("duplicate-id-across-files", lambda g: g.data("rulings/base.json")["rulings"][0].update(id="capita"),
         "duplicate-id", "rulings/base.json", "/rulings/0/id"),
    Case("id-not-slug", card(2, id="Olla_2"), "id-not-slug", SET, "/cards/2/id"),
    # --- references -----------------------------------------------------------------------
    Case("ruling-to-missing-card", lambda g: g.data("rulings/base.json")["rulings"][0]["cards"].append("ghost"),
         "dangling-ref", "rulings/base.json", "/rulings/0/cards/2"),
    Case("ruling-to-missing-scenario", lambda g: g.data("rulings/base.json")["rulings"][0].update(scenarios=["nope"]),
         "dangling-ref", "rulings/base.json", "/rulings/0/scenarios/0"),
    Case("ruling-to-missing-topic", lambda g: g.data("rulings/base.json")["rulings"][0].update(topic="ghost"),
         "dangling-ref", "rulings/base.json", "/rulings/0/topic"),
    Case("ruling-without-topic", lambda g: g.data("game.json").update(faq_topics=[{"id": "battles", "name": "Battles"}]),
         "missing-topic", "rulings/base.json", "/rulings/0"),
    Case("unnamed-marker-not-declared", lambda g: g.data(SET).update(unnamed_markers=["iii"]),
         "dangling-ref", SET, "/unnamed_markers/0"),
    Case("scenario-to-missing-card", lambda g: g.data("scenarios/base.json")["scenarios"][0].update(cards=["ghost"]),
         "dangling-ref", "scenarios/base.json", "/scenarios/0/cards/0"),
    Case("translation-to-missing-id",
         lambda g: g.data("i18n/es.json")["entries"].update(ghost={"name": {"text": "x", "source_hash": "0" * 16}}),
         "dangling-ref", "i18n/es.json", "/entries/ghost"),
    Case("translation-to-missing-field",
         lambda g: g.data("i18n/es.json")["entries"]["capita"].update(flavour={"text": "x", "source_hash": "0" * 16}),
         "dangling-ref", "i18n/es.json", "/entries/capita/flavour"),
    Case("board-edge-to-missing-space", lambda g: g.data("boards/map.json")["sides"][0]["edges"].append(
        {"between": ["south", "west"]}), "dangling-ref", "boards/map.json", "/sides/0/edges/1/between/1"),
    Case("component-to-missing-space", lambda g: g.data("components.json")["components"][0].update(space="east"),
         "dangling-ref", "components.json", "/components/0/space"),
    Case("per-colour-not-dividing", lambda g: g.data("components.json")["components"][0].update(quantity=5, per_colour=2),
         "per-colour-mismatch", "components.json", "/components/0/per_colour"),
    Case("per-colour-without-quantity", lambda g: g.data("components.json")["components"][0].update(
        quantity=None, per_colour=2), "per-colour-mismatch", "components.json", "/components/0/per_colour"),
    # references inside effects are the game's own check: tests/engine/test_effects.py
    Case("unknown-card-type", card(0, types=["relic"]), "dangling-ref", SET, "/cards/0/types/0"),
    Case("unknown-source-document", card(0, sources=[{"doc": "blog"}]), "dangling-ref", SET, "/cards/0/sources/0/doc"),
    Case("attribute-value-not-allowed", card(0, attributes={"treasure-kind": "spice"}), "bad-value", SET,
         "/cards/0/attributes/treasure-kind"),
    Case("stat-not-applicable", card(0, stats={"attack": 2}), "not-applicable", SET, "/cards/0/stats/attack"),
    Case("stat-out-of-range", card(1, stats={"attack": 11, "defence": 1}), "out-of-range", SET, "/cards/1/stats/attack"),
    Case("too-many-accesses", lambda g: g.data("boards/map.json")["sides"][0]["spaces"][0].update(accesses=0),
         "access-count", "boards/map.json", "/sides/0/spaces/0/accesses"),
    Case("assumption-over-fact", lambda g: g.data("assumptions/cards.json")["assumptions"].append(
        {"id": "assume-capita-attack", "target": "capita", "field": "stats/attack", "value": 2, "reason": "r"}),
        "assumption-over-fact", "assumptions/cards.json", "/assumptions/1/value"),
    # --- markup and translations -----------------------------------------------------------
    Case("unknown-token", card(1, rules="Steal one {jewel}."), "unknown-token", SET, "/cards/1/rules"),
    Case("unclosed-token", card(1, rules="Steal one {treasure."), "markup-syntax", SET, "/cards/1/rules"),
    Case("token-mismatch", lambda g: g.data("i18n/es.json")["entries"]["capita"]["rules"].update(text="Roba algo."),
         "token-mismatch", "i18n/es.json", "/entries/capita/rules/text"),
    Case("empty-translation", lambda g: g.data("i18n/es.json")["entries"]["capita"]["name"].update(text=" "),
         "empty-translation", "i18n/es.json", "/entries/capita/name/text"),
    Case("translation-wrong-game", lambda g: g.data("i18n/es.json").update(game="other"),
         "wrong-game", "i18n/es.json", "/game"),
    # --- paths ----------------------------------------------------------------------------
    Case("path-climbs-out", lambda g: g.data("icons.json")["icons"][0].update(svg="../../secret.svg"),
         "path-escape", "icons.json", "/icons/0/svg"),
    Case("path-absolute", lambda g: g.data("icons.json")["icons"][0].update(svg="/etc/passwd"),
         "path-escape", "icons.json", "/icons/0/svg"),
    Case("path-symlink-out", lambda g: None, after=_symlink_file, code= "path-escape", file="icons.json", location="/icons/0/svg"),
    Case("data-symlink-out", lambda g: None, after=_symlink_data, code="path-escape", file="sets/extra.json", location=""),
    Case("missing-asset", lambda g: g.data("icons.json")["icons"][0].update(svg="icons/nope.svg"),
         "missing-file", "icons.json", "/icons/0/svg"),
    # --- totals and frozen ids ----------------------------------------------------------------
    Case("set-total-exceeded", lambda g: g.data(SET)["totals"].update(cards=4), "set-total-exceeded", SET, "/totals/cards"),
    Case("frozen-id-missing", lambda g: g.files.update({"ids.lock.json": {
        "$schema": "../../schema/ids.schema.json", "game": "mini", "ids": {"conill": "card", "gone": "card"}}}),
        "frozen-id-missing", "ids.lock.json", "/ids/gone"),
    Case("frozen-id-reused-as-other-kind", lambda g: g.files.update({"ids.lock.json": {
        "$schema": "../../schema/ids.schema.json", "game": "mini", "ids": {"olla": "component"}}}),
        "frozen-id-reused", SET, "/cards/2/id"),
    Case("retired-id-reused", lambda g: g.files.update({"ids.lock.json": {
        "$schema": "../../schema/ids.schema.json", "game": "mini", "retired": ["olla"]}}),
        "frozen-id-reused", SET, "/cards/2/id"),
]


def _location_of(problem: dict[str, str]) -> str:
    return problem["pointer"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_reported_precisely(game: GameDir, case: Case) -> None:
    case.mutate(game)
    game.write()
    if case.after:
        case.after(game)
    before = snapshot(game.cards_root)
    run = run_cli("--cards", str(game.cards_root), "validate", "--format", "json")
    assert run.exit_code == 1, run.output
    expected_file = str(game.root / case.file)
    found = [(p["code"], p["file"], _location_of(p)) for p in run.problems]
    assert (case.code, expected_file, case.location) in found, found
    assert snapshot(game.cards_root) == before


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40
