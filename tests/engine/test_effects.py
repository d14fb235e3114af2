"""Card behaviour as data: the vocabulary is fully handled, anything unhandled fails closed, validate checks effects."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardworks.games.fallera import interpreter
from cardworks.games.fallera.registry import REGISTRY
from cardworks.games.fallera.cards import catalogue, parsed_effects
from cardworks.games.fallera.game import Configuration, rules_for
from cardworks.loading import load_database
from conftest import FALLERA, FIXTURE_CARDS, REPO, run_cli

PACK = REPO / "examples" / "fallera-pack"


def test_every_vocabulary_member_has_a_handler_and_every_handler_a_member() -> None:
    vocabulary, handled = interpreter.vocabulary(), interpreter.handled()
    assert set(vocabulary) == {"when", "while", "do"}
    for part in vocabulary:
        assert vocabulary[part] == handled[part], part
    assert {"turn-start", "card-used"} <= vocabulary["when"] and {"coin", "draw", "win"} <= vocabulary["do"]


def test_a_card_using_an_unhandled_verb_is_left_out_with_the_reason_never_played_blank(monkeypatch) -> None:
    db = load_database(FALLERA)
    monkeypatch.delitem(REGISTRY.bindings, REGISTRY.by_tag("do")["draw"].model)
    cards = catalogue(db, ["base"])
    assert "taronger-putrefacte" not in cards.cards
    assert "do draw" in cards.left_out["taronger-putrefacte"] and "no handler" in cards.left_out["taronger-putrefacte"]


def test_effects_outside_the_vocabulary_fail_closed() -> None:
    effects, reason = parsed_effects([{"do": [{"verb": "teleport"}]}])
    assert effects == () and "not in Fallera's vocabulary" in reason
    effects, reason = parsed_effects([{"when": {"event": "turn-start"}, "do": [{"verb": "draw", "count": 1}]}])
    assert len(effects) == 1 and reason is None


def test_shipped_cards_with_effects_are_played_from_data() -> None:
    rules, cards = rules_for(load_database(REPO / "cards" / "fallera"), Configuration("base-2", 4))
    for design in ("taronger-putrefacte", "tartana-del-tio-pep", "gamba-de-denia", "fideua-de-l-apocalipsi"):
        assert design in rules.defs and rules.defs[design].effects, design
    assert all("no handler" not in reason for reason in cards.left_out.values())


def _pack_copy(tmp_path: Path, edit) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    path = pack / "sets" / "example.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data["cards"])
    path.write_text(json.dumps(data), encoding="utf-8")
    for schema_user in pack.rglob("*.json"):  # the copy lives elsewhere: point $schema back at the repository
        text = schema_user.read_text(encoding="utf-8")
        schema_user.write_text(text.replace('"../../../schema/', f'"{REPO}/schema/').replace(
            '"../../schema/', f'"{REPO}/schema/'), encoding="utf-8")
    return pack


@pytest.mark.parametrize("edit, code, pointer", [
    (lambda cards: cards[3]["effects"][0]["while"][1].update(card="no-such-card"), "dangling-ref",
     "/cards/3/effects/0/while/1/card"),
    (lambda cards: cards[4]["effects"][0]["do"][0].update(cards=["el-capita-moro", "ghost"]), "dangling-ref",
     "/cards/4/effects/0/do/0/cards/1"),
    (lambda cards: cards[2]["effects"][0]["do"][0].update(verb="teleport"), "schema", "/cards/2/effects/0/do/0"),
    (lambda cards: cards[0].update(effects=[{"do": [{"verb": "restates-terreta-bonus", "terreta": "sud"}]}]),
     "bonus-mismatch", "/cards/0/effects/0/do/0/terreta"),
    (lambda cards: cards[1].update(needs=[{"feature": "teleporting", "behaviour": "sends a card away"}]),
     "dangling-ref", "/cards/1/needs/0/feature"),
    (lambda cards: cards[1].update(missing=[{"fact": "its ability", "doc": "no-such-book", "lines": "3"}]),
     "dangling-ref", "/cards/1/missing/0/doc"),
    (lambda cards: cards[1].update(missing=[{"fact": "", "doc": "fallera-3"}]), "bad-value", "/cards/1/missing/0/fact"),
])
def test_validate_checks_inside_effects(tmp_path: Path, edit, code: str, pointer: str) -> None:
    pack = _pack_copy(tmp_path, edit)
    run = run_cli("--cards", str(FIXTURE_CARDS), "validate", str(pack), "--format", "json")
    assert run.exit_code == 1, run.output
    found = [(p["code"], p["pointer"]) for p in run.problems if p["file"].endswith("sets/example.json")]
    assert any(c.startswith(code) and p.startswith(pointer) for c, p in found), found


def test_the_example_pack_cards_pass_their_scenarios_with_check() -> None:
    run = run_cli("--cards", str(FIXTURE_CARDS), "check", "--pack", str(PACK), "--playouts", "2", "--format", "json")
    assert run.exit_code == 0, run.output
    report = json.loads(run.output)
    pack = [s for s in report["scenarios"] if "fallera-pack" in s["file"]]
    exercised = {"example-bunyol", "example-tomaca", "example-estendard"}
    assert len(pack) >= 5 and all(s["passed"] for s in pack)
    assert not exercised & set(report["left_out"])


def test_effects_doc_is_generated_from_the_models() -> None:
    from cardworks.games.fallera.effects_doc import render

    assert (REPO / "docs" / "effects.md").read_text(encoding="utf-8") == render(), \
        "run 'python -m cardworks.games.fallera.effects_doc > docs/effects.md'"


def test_validate_warns_on_a_card_left_out_without_saying_why(tmp_path: Path) -> None:
    def edit(cards):
        cards[1].update(rules="Teamwork: it is always played with another battle card.")  # text, no effects

    pack = _pack_copy(tmp_path, edit)
    run = run_cli("--cards", str(FIXTURE_CARDS), "validate", str(pack), "--strict", "--format", "json")
    assert run.exit_code == 1, run.output
    assert ("unexplained-gap", "/cards/1") in [(p["code"], p["pointer"]) for p in run.problems
                                                if p["file"].endswith("sets/example.json")]
    explained = _pack_copy(tmp_path / "explained", lambda cards: (edit(cards), cards[1].update(missing=[
        {"fact": "what it is played with", "doc": "fallera-base", "lines": "36"}])))
    run = run_cli("--cards", str(FIXTURE_CARDS), "validate", str(explained), "--format", "json")
    assert "unexplained-gap" not in {p["code"] for p in run.problems if p["file"].endswith("sets/example.json")}
