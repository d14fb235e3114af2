"""The game's own checks run on the data without prose, and their verdict is kept across an edit of a card's
text; everything the edit can break is still found, and anything those checks read changes the key."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardworks.loading.database import Database, load_game
from cardworks.validate import runner, validate
from cardworks.validate.cache import cached_validate, view_key
from cardworks.validate.rules_view import PLACEHOLDER, rules_view
from conftest import FIXTURE_CARDS

ENGLISH = "Steal one {treasure} from a rival and keep it in your hand until the end of the game, then draw two cards."


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the game's own checks really ran (the real ones run; they are only counted)."""
    counted: list[int] = []
    real = runner._run_game_rules

    def counting(index, out) -> None:  # noqa: ANN001
        counted.append(1)
        real(index, out)

    monkeypatch.setattr(runner, "_run_game_rules", counting)
    return counted


def _fallera(tmp_path: Path) -> Path:
    """A copy of the fixture Fallera (45 designs, its scenarios), whose own checks are the plugin's."""
    shutil.copytree(FIXTURE_CARDS / "fallera", tmp_path / "cards" / "fallera")
    return tmp_path / "cards"


def _edit(path: Path, change) -> None:  # noqa: ANN001
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


def _with_text(card: dict, text: str) -> None:
    card["rules"] = text


def test_the_view_hides_prose_and_translations_only(game) -> None:
    game.write()
    db = Database(game=load_game(game.root))
    view = rules_view(db)
    cards = {c.id: c for _, s in view.docs("set") for c in s.cards}
    assert cards["capita"].rules == PLACEHOLDER and cards["conill"].rules is None  # no text stays no text
    raw = {c["id"]: c for _, s in [(f, f.data) for f, _ in view.docs("set")] for c in s["cards"]}
    assert raw["capita"]["rules"] == PLACEHOLDER and "rules" not in raw["conill"]
    assert not view.docs("translations") and db.docs("translations")
    assert {c.id: c.rules for _, s in db.docs("set") for c in s.cards}["capita"].startswith("Steal")  # db untouched
    assert [f.display for f in view.game.files] == [f.display for f in db.game.files if f.kind.name != "translations"]


@pytest.mark.parametrize("change, same", [
    ("rules text", True), ("translation", True), ("flavour", True),
    ("rules text removed", False), ("stats", False), ("scenario", False), ("rulebook source", False), ("code", False),
])
def test_the_key_keeps_only_through_prose_edits(game, change: str, same: bool) -> None:
    game.files["rules/en/rules.md"] = "# Rules\n"
    game.files["sets/base.json"]["cards"][1]["flavour"] = "A captain."
    game.write()
    before = view_key(rules_view(Database(game=load_game(game.root))), "code")
    cards = game.files["sets/base.json"]["cards"]
    code = "code"
    if change == "rules text":
        cards[1]["rules"] = "Steal two {treasure} from a rival."
    elif change == "translation":
        game.files["i18n/es.json"]["entries"]["capita"]["rules"]["text"] = "Roba dos {treasure}."
    elif change == "flavour":
        cards[1]["flavour"] = "A captain of the guard."
    elif change == "rules text removed":
        del cards[1]["rules"]
    elif change == "stats":
        cards[1]["stats"]["attack"] = 5
    elif change == "scenario":
        game.files["scenarios/base.json"]["scenarios"][0]["cards"] = ["conill"]
    elif change == "rulebook source":
        game.files["rules/en/rules.md"] = "# Rules\n\nMore.\n"
    else:
        code = "other code"
    game.write()
    after = view_key(rules_view(Database(game=load_game(game.root))), code)
    assert (after == before) is same


def test_an_edited_rules_text_reuses_the_plugins_verdict(tmp_path: Path, runs: list[int]) -> None:
    cards = _fallera(tmp_path)
    kept = tmp_path / "verdicts"
    first = cached_validate(cards, None, "fallera", kept)
    assert not first.errors and runs == [1]
    _edit(cards / "fallera" / "sets" / "base.json",
          lambda d: _with_text(next(c for c in d["cards"] if c.get("rules")), "Edited text, still no effect change."))
    again = cached_validate(cards, None, "fallera", kept)
    assert runs == [1]  # the plugin's checks were not run again ...
    fresh = validate(cards, None, "fallera")
    assert runs == [1, 1] and again == fresh  # ... and the verdict is the one a full validation gives


def test_an_effect_the_plugin_refuses_fails_after_a_kept_verdict(tmp_path: Path, runs: list[int]) -> None:
    cards = _fallera(tmp_path)
    kept = tmp_path / "verdicts"
    assert not cached_validate(cards, None, "fallera", kept).errors
    _edit(cards / "fallera" / "sets" / "base.json",
          lambda d: d["cards"][0].setdefault("effects", []).append({"when": "no-such-trigger", "do": []}))
    report = cached_validate(cards, None, "fallera", kept)
    assert runs == [1, 1] and report == validate(cards, None, "fallera")
    assert report.errors and all(p.file.endswith("sets/base.json") and p.location.startswith("/cards/0/effects")
                                 for p in report.errors)


def test_a_scenario_step_that_does_not_parse_fails_after_a_kept_verdict(tmp_path: Path) -> None:
    cards = _fallera(tmp_path)
    kept = tmp_path / "verdicts"
    assert not cached_validate(cards, None, "fallera", kept).errors
    _edit(cards / "fallera" / "scenarios" / "base.json",
          lambda d: d["scenarios"][0].update(steps=["p0 frobnicates everything"]))
    report = cached_validate(cards, None, "fallera", kept)
    assert report.errors and all(p.file.endswith("scenarios/base.json") and p.location for p in report.errors)


def _good_then(game, tmp_path: Path, change) -> list:  # noqa: ANN001
    """The problems of a kept-verdict validation of the mini game after ``change``, a good verdict kept first."""
    game.write()
    kept = tmp_path / "verdicts"
    assert not cached_validate(game.cards_root, None, "mini", kept).errors
    change(game.files)
    game.write()
    report = cached_validate(game.cards_root, None, "mini", kept)
    assert report == validate(game.cards_root, None, "mini")
    return report.items


def test_a_translation_in_the_wrong_language_is_still_found(game, tmp_path: Path) -> None:
    def change(files) -> None:  # noqa: ANN001
        files["i18n/es.json"]["entries"]["capita"]["rules"]["text"] = ENGLISH

    found = [(p.code, p.location) for p in _good_then(game, tmp_path, change)]
    assert ("wrong-language", "/entries/capita/rules/text") in found


def test_a_forbidden_glossary_term_is_still_found(game, tmp_path: Path) -> None:
    game.files["i18n/glossary/es.json"] = {"$schema": "../../../../schema/glossary.schema.json", "game": "mini",
                                           "locale": "es",
                                           "terms": [{"term": "deck", "translation": "mazo", "forbidden": ["la baraja"]}]}

    def change(files) -> None:  # noqa: ANN001
        files["i18n/es.json"]["entries"]["capita"]["rules"]["text"] = "Roba un {treasure} de la baraja de un rival."

    assert "glossary" in [p.code for p in _good_then(game, tmp_path, change)]


def test_a_bad_reference_and_a_wrong_total_are_still_errors(game, tmp_path: Path) -> None:
    def change(files) -> None:  # noqa: ANN001
        files["rulings/base.json"]["rulings"][0]["cards"] = ["capita", "no-such-card"]
        files["sets/base.json"]["cards"][1]["quantity"] = 4

    found = {p.code: p for p in _good_then(game, tmp_path, change)}
    assert found["dangling-ref"].severity == "error" and found["dangling-ref"].location.startswith("/rulings/0/cards")
    assert any(code.startswith("set-") for code in found)


def test_a_stale_translation_after_a_rules_edit_is_still_reported(game, tmp_path: Path) -> None:
    def change(files) -> None:  # noqa: ANN001
        files["sets/base.json"]["cards"][1]["rules"] = "Steal two {treasure} from a rival."

    stale = [p for p in _good_then(game, tmp_path, change) if "stale" in p.code]
    assert stale and stale[0].file.endswith("i18n/es.json") and stale[0].location.startswith("/entries/capita/rules")


def test_a_kept_plugin_warning_names_no_folder_of_this_machine(tmp_path: Path, runs: list[int],
                                                              monkeypatch) -> None:
    cards = _fallera(tmp_path)
    _edit(cards / "fallera" / "sets" / "base.json",
          lambda d: d["cards"][0].update(rules="Some text.", effects=[], missing=[], needs=[]))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # the game outside the working folder: its paths are absolute
    kept = tmp_path / "verdicts"
    first = cached_validate(cards, None, "fallera", kept)
    gaps = [p for p in first.warnings if p.code == "unexplained-gap"]
    assert gaps and str(cards) in gaps[0].file and not first.errors
    assert all(str(tmp_path) not in entry.read_text(encoding="utf-8") for entry in kept.iterdir())
    _edit(cards / "fallera" / "sets" / "base.json", lambda d: d["cards"][0].update(rules="Other text."))
    again = cached_validate(cards, None, "fallera", kept)
    assert runs == [1] and again.warnings == first.warnings  # read back from the kept entry, paths restored
