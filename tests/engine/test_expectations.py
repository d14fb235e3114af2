"""Typed scenario expectations: a key no game reads, a value of the wrong type, an id the game lacks or a step that
does not parse is refused by ``validate`` and by ``check`` (before anything runs), at its JSON pointer.

The generic refusals, in a game's scenarios and in a pack's, run on the fixture game Minitrick. On the shipped
database: each shipped game's own expectation types (its model, so its real data) and the check that every
shipped scenario keeps to its game's vocabulary."""

from __future__ import annotations

import ast
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardworks.validate.expectations import Expectation
from cardworks.engine.plugins import data_folder, registered
from conftest import FIXTURE_CARDS, MINITRICK_SOURCE, REPO, minitrick_four_pack, run_cli

Scenario = dict[str, Any]


def _copy_game(tmp_path: Path, game: str) -> Path:
    """A copy of ``game``'s fixture in ``tmp_path/cards``: Minitrick's own folder, or the shipped game's fixture
    (tests/fixtures/cards/build.py)."""
    root = tmp_path / "cards"
    fixture = FIXTURE_CARDS / game
    shutil.copytree(fixture if fixture.is_dir() else data_folder(registered()[game]), root / game)
    return root


def _edit(path: Path, scenario_id: str, change: Callable[[Scenario], str]) -> str:
    """Apply ``change`` to one scenario of the file at ``path``; return the JSON pointer ``change`` names, below
    the scenario's own."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    index = next(i for i, s in enumerate(doc["scenarios"]) if s["id"] == scenario_id)
    where = change(doc["scenarios"][index])
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return f"/scenarios/{index}{where}"


def _entry(scenario: Scenario, key: str) -> int:
    return next(i for i, e in enumerate(scenario["expect"]) if key in e)


def rename(old: str, new: str) -> Callable[[Scenario], str]:
    def change(scenario: Scenario) -> str:
        k = _entry(scenario, old)
        scenario["expect"][k] = {(new if key == old else key): v for key, v in scenario["expect"][k].items()}
        return f"/expect/{k}/{new}"
    return change


def set_value(key: str, value: Any, below: str = "") -> Callable[[Scenario], str]:
    def change(scenario: Scenario) -> str:
        k = _entry(scenario, key) if any(key in e for e in scenario["expect"]) else len(scenario["expect"])
        if k == len(scenario["expect"]):
            scenario["expect"].append({})
        scenario["expect"][k][key] = value
        return f"/expect/{k}/{key}{below}"
    return change


def set_setup(path: str, value: Any) -> Callable[[Scenario], str]:
    """Put ``value`` at ``path`` (keys and list positions joined by ``/``) of the scenario's setup."""
    def change(scenario: Scenario) -> str:
        *parents, last = [int(part) if part.isdigit() else part for part in path.split("/")]
        holder = scenario["setup"]
        for part in parents:
            holder = holder[part]
        holder[last] = value
        return f"/setup/{path}"
    return change


def seeing(path: str, value: Any) -> Callable[[Scenario], str]:
    """A new expectation: p1 sees ``value`` at ``path`` of their observation."""
    def change(scenario: Scenario) -> str:
        scenario["expect"].append({"observe": "p1", "sees": {path: value}})
        return f"/expect/{len(scenario['expect']) - 1}/sees/{path}"
    return change


def bad_step(text: str) -> Callable[[Scenario], str]:
    def change(scenario: Scenario) -> str:
        scenario["steps"][0] = text
        return "/steps/0"
    return change


CASES = {
    # game, file, scenario: the edits and the code each must be refused with. The generic refusals run on the
    # fixture game Minitrick (small: a copy, a validation and a check in well under a second); each shipped
    # game keeps the cases its own expectation model types, on its fixture.
    ("minitrick", "tricks.json", "minitrick-higher-card-wins"): [
        ("unknown-expectation", rename("tricks", "trick")),
        ("expectation-type", set_value("tricks", {"p1": "one"}, "/p1")),
        ("unknown-player", set_value("tricks", {"p3": 0}, "/p3")),
        ("expectation-type", set_value("leader", None)),  # null would skip the check (or crash it)
        ("unknown-rule", set_value("rule", "no-such-rule")),
        ("unparsable-step", bad_step("p1 ply one")),
        ("unknown-card", bad_step("p1 play four")),
        ("unknown-player", set_value("legal", ["p3 play one"], "/0")),
    ],
    ("fallera", "base.json", "scenario-base-five-player-cabeca-d-alls"): [
        ("expectation-type", set_value("valid_ingredients", {"p1": "four"}, "/p1")),
        ("unknown-card", set_value("counters", {"p1": ["cabeca-d-al"]}, "/p1/0")),
        ("unknown-card", bad_step("p1 battle p2 conil with el-capita-moro")),
        # an id misspelt only in the setup (it failed the run with "not in this selection", after validate passed)
        ("unknown-card", set_setup("hands/0/0", "el-capita-mor")),
        ("unknown-card", set_setup("counters/1/0", "conil")),
        ("unknown-card", set_setup("deck/0", "garrofon")),
        ("unknown-player", set_setup("current", "p6")),
        # the observation names players as the expectations do: p2, never 1
        ("expectation-type", seeing("current", 1)),
        ("expectation-type", seeing("you", 0)),
        ("unknown-player", seeing("current", "p6")),
        ("unknown-player", seeing("battle.attacker", "p9")),
    ],
    ("fallera", "mes-enlla.json", None): [
        ("unknown-terreta", set_value("queen", "lluna")),
        ("unknown-card", set_setup("map/nord", "carxofe")),
        ("unknown-terreta", set_setup("foods/1", "interio")),
        ("unknown-terreta", set_setup("queen", "muntanyes")),
    ],
    ("diables", "examples.json", "scenario-leo-carretillada"): [
        ("expectation-type", set_value("fp", {"p1": "13"}, "/p1")),
        ("unknown-rule", set_value("rule", "show-scored-twice")),
        ("expectation-type", seeing("order", [0, 1])),  # the observation names seats: ["p1", "p2"]
        ("unknown-player", seeing("order", ["p1", "p7"])),
        ("unknown-player", seeing("plaza.0.1.owner", "p5")),
    ],
    ("calavera", "turn.json", "calavera-full-turn"): [
        ("unknown-colour", set_value("sheets", {"p1": {"colour-9": 3}}, "/p1/colour-9")),
        ("expectation-type", set_value("rolls", "0")),
        # the observation names players as the expectations do: p2, never 1
        ("expectation-type", seeing("current", 1)),
        ("expectation-type", seeing("first", 0)),
        ("expectation-type", seeing("winners", [0])),
        ("unknown-player", seeing("current", "p6")),
        ("unknown-player", seeing("winners", ["p1", "p9"])),
    ],
}


def _cases() -> list[Any]:
    found = []
    for (game, file, scenario), edits in CASES.items():
        for code, change in edits:
            found.append(pytest.param(game, file, scenario, code, change, id=f"{game}-{code}-{len(found)}"))
    return found


def _first_with(path: Path, key: str) -> str:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return next(s["id"] for s in doc["scenarios"] if any(key in e for e in s["expect"]))


@pytest.mark.parametrize(("game", "file", "scenario", "code", "change"), _cases())
def test_validate_and_check_refuse_a_bad_expectation_at_its_pointer(tmp_path: Path, game: str, file: str,
                                                                    scenario: str | None, code: str,
                                                                    change: Callable[[Scenario], str]) -> None:
    root = _copy_game(tmp_path, game)
    path = root / game / "scenarios" / file
    pointer = _edit(path, scenario or _first_with(path, "queen"), change)
    shown = str(path)

    validated = run_cli("--cards", str(root), "validate", "--format", "json")
    assert validated.exit_code == 1, validated.output
    assert (code, pointer) in [(p["code"], p["pointer"]) for p in validated.problems], validated.problems

    checked = run_cli("--cards", str(root), "check", "--game", game, "--playouts", "0")
    assert checked.exit_code == 1
    assert f"{shown}:{pointer}: [{code}]" in checked.output, checked.output
    assert "passed" not in checked.output  # refused before any scenario ran


def test_the_shipped_scenarios_keep_to_their_games_vocabulary() -> None:
    run = run_cli("--cards", str(REPO / "cards"), "validate", "--format", "json")
    assert not [p for p in run.problems if p["severity"] == "error"], run.problems


def _pack(tmp_path: Path, change: Callable[[Scenario], str]) -> tuple[Path, Path, str, str]:
    """A pack of the fixture game Minitrick with its own card (``four``) and a scenario that plays it, the
    scenario edited by ``change``: the cards folder, the pack, the scenario file and the pointer ``change`` names."""
    root = _copy_game(tmp_path, "minitrick")
    pack = tmp_path / "pack"
    source = MINITRICK_SOURCE
    files = minitrick_four_pack(**{
        "scenarios/four.json": {"$schema": "../../../schema/scenarios.schema.json", "game": "minitrick",
                                "scenarios": [{"id": "minitrick-four-wins", "title": "The pack's four wins",
                                               "source": source,
                                               "setup": {"hands": {"p1": ["four"], "p2": ["two"]}},
                                               "steps": ["p1 play four", "p2 play two"],
                                               "expect": [{"tricks": {"p1": 1, "p2": 0}, "leader": "p1"}]}]},
    })
    for relative, content in files.items():
        (pack / relative).parent.mkdir(parents=True, exist_ok=True)
        (pack / relative).write_text(json.dumps(content, indent=2), encoding="utf-8")
    path = pack / "scenarios/four.json"
    return root, pack, str(path), _edit(path, "minitrick-four-wins", change)


@pytest.mark.parametrize(("code", "change"), [
    ("unknown-expectation", rename("tricks", "trick")),
    ("expectation-type", set_value("leader", 1)),
    ("unknown-card", bad_step("p1 play five")),
    ("unparsable-step", bad_step("p1 ply four")),
])
def test_a_packs_scenario_is_held_to_its_games_vocabulary(tmp_path: Path, code: str,
                                                          change: Callable[[Scenario], str]) -> None:
    root, pack, shown, pointer = _pack(tmp_path, change)
    validated = run_cli("--cards", str(root), "validate", str(pack), "--format", "json")
    assert validated.exit_code == 1
    assert (code, shown, pointer) in [(p["code"], p["file"], p["pointer"]) for p in validated.problems]
    checked = run_cli("--cards", str(root), "check", str(pack), "--playouts", "0")
    assert checked.exit_code == 1 and f"{shown}:{pointer}: [{code}]" in checked.output, checked.output


def test_a_packs_own_cards_are_known_to_its_scenarios(tmp_path: Path) -> None:
    """The unchanged pack names its own card (four): it is no unknown card, and its scenario passes."""
    root, pack, _, _ = _pack(tmp_path, lambda scenario: "")
    validated = run_cli("--cards", str(root), "validate", str(pack), "--format", "json")
    assert validated.exit_code == 0, validated.problems
    checked = run_cli("--cards", str(root), "check", str(pack), "--playouts", "0")
    assert checked.exit_code == 0 and "minitrick-four-wins" in checked.output, checked.output


def test_check_scenarios_path_is_held_to_the_vocabulary(tmp_path: Path) -> None:
    source = json.loads((FIXTURE_CARDS / "fallera/scenarios/base.json").read_text(encoding="utf-8"))
    source["scenarios"] = [s for s in source["scenarios"] if s["id"] == "scenario-base-five-player-cabeca-d-alls"]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(source), encoding="utf-8")
    pointer = _edit(path, "scenario-base-five-player-cabeca-d-alls", rename("winner", "winnr"))
    checked = run_cli("--cards", str(FIXTURE_CARDS), "check", "--game", "fallera", "--scenarios", str(path),
                      "--playouts", "0")
    assert checked.exit_code == 1
    assert f"{path}:{pointer}: [unknown-expectation]" in checked.output, checked.output
    assert pointer == "/scenarios/0/expect/" + pointer.split("/")[4] + "/winnr"


def test_a_setup_of_the_wrong_shape_is_left_to_the_run_not_a_crash_of_validate() -> None:
    from cardworks.games.fallera.expectations import FalleraExpectation

    setup = {"hands": [[["conill"]], "conill", [7, "conil"]], "deck": {"top": "conill"}, "foods": [None, "nord"],
             "map": {"nord": ["carxofa"]}, "current": 2, "queen": None}
    assert list(FalleraExpectation.setup_refs(setup, "/setup")) == [
        ("/setup/hands/2/1", "card", "conil"), ("/setup/map/nord", "terreta", "nord"), ("/setup/foods/1", "terreta", "nord")]


def test_an_expectation_after_a_step_the_script_lacks_is_refused(tmp_path: Path) -> None:
    root = _copy_game(tmp_path, "minitrick")
    path = root / "minitrick/scenarios/tricks.json"
    pointer = _edit(path, "minitrick-higher-card-wins", set_value("after", "p1 plays one"))
    validated = run_cli("--cards", str(root), "validate", "--format", "json")
    assert ("unknown-step", pointer) in [(p["code"], p["pointer"]) for p in validated.problems]


@pytest.mark.parametrize("game", sorted(registered()))
def test_every_game_declares_its_expectations(game: str) -> None:
    model = registered()[game].expectations
    assert issubclass(model, Expectation) and model.own_keys()
    assert model.model_config.get("extra") == "forbid"
    assert model.rules  # the rules its engine refuses by, so an ``illegal`` expectation's ``rule`` is checked


DOC = REPO / "docs" / "scenarios.md"


def test_the_expectation_tables_of_the_docs_are_the_models() -> None:
    from cardworks import plugin_registry
    from cardworks.engine.expectations_doc import blocks, update

    text = DOC.read_text(encoding="utf-8")
    shipped = [game for game in registered() if game in plugin_registry.own_games()]  # not the fixture game
    assert shipped and sorted(blocks(text)) == sorted(["generic", *shipped])
    assert update(text) == text, "run 'python -m cardworks.engine.expectations_doc docs/scenarios.md'"


def test_a_game_id_with_an_underscore_gets_its_table_and_a_missing_block_is_an_error(tmp_path, capsys) -> None:
    """The docs recommend ids like ``my_game``: such a block is found and rewritten; a registered game without a
    block makes the generator exit 1 naming it, writing nothing."""
    from cardworks.engine import expectations_doc
    from cardworks.engine.expectations_doc import blocks, missing_blocks

    text = "<!-- expectations:my_game -->\nold\n<!-- /expectations -->\n"
    assert blocks(text) == ["my_game"]
    assert missing_blocks(text, ["my_game", "other_game"]) == ["generic", "other_game"]
    page = tmp_path / "scenarios.md"
    page.write_text("no blocks at all\n", encoding="utf-8")
    assert expectations_doc.main([str(page)]) == 1
    assert page.read_text(encoding="utf-8") == "no blocks at all\n"
    said = capsys.readouterr().err
    assert "no expectation block for generic" in said and all(game in said for game in registered())


def test_a_table_that_disagrees_with_its_model_is_found() -> None:
    from cardworks.engine.expectations_doc import update

    text = DOC.read_text(encoding="utf-8")
    stale = text.replace("| `winner` | player or `null` | Who won", "| `winner` | player | Who won", 1)
    assert stale != text and update(stale) == text
    missing = "\n".join(line for line in text.splitlines() if not line.startswith("| `absent` |")) + "\n"
    assert update(missing) == text


def _raised_rules(package: Path) -> set[str]:
    """The rule ids a game's code gives ``IllegalActionError``: literals, and for a rule passed in (``rule``,
    ``f"phase-{phase}"``), the literals every caller of that function passes."""
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in sorted(package.glob("*.py"))]
    found, passed = set(), []
    for tree in trees:
        for function in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            params = [a.arg for a in function.args.args]
            for call in ast.walk(function):
                if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "IllegalActionError"):
                    continue
                rule = call.args[1]
                if isinstance(rule, ast.Constant):
                    found.add(rule.value)
                elif isinstance(rule, ast.Name) and rule.id in params:
                    passed.append(("", function.name, params.index(rule.id)))
                elif isinstance(rule, ast.JoinedStr):
                    prefix, value = rule.values
                    passed.append((prefix.value, function.name, params.index(value.value.id)))
    for prefix, name, index in passed:
        for tree in trees:
            for call in ast.walk(tree):
                if isinstance(call, ast.Call) and getattr(call.func, "attr", None) == name:
                    argument = call.args[index - 1]  # called as a method: ``self`` is not among the arguments
                    assert isinstance(argument, ast.Constant), ast.unparse(call)
                    found.add(prefix + argument.value)
    return found


@pytest.mark.parametrize("game", ["calavera", "diables", "fallera"])
def test_each_game_declares_every_rule_its_engine_refuses_by(game: str) -> None:
    import cardworks.games

    package = Path(cardworks.games.__file__).parent / game
    assert registered()[game].expectations.rules == _raised_rules(package)


@pytest.mark.parametrize("expectations", ["missing", dict, "a plain model"])
def test_a_game_must_declare_its_expectations_as_a_model(monkeypatch, expectations: Any) -> None:
    """A plugin from an entry point without an Expectation model is refused (left out, and said in one line), like
    one that is no plugin."""
    from dataclasses import dataclass

    from pydantic import BaseModel

    from cardworks import plugin_registry
    from cardworks.engine import plugins

    calavera = registered()["calavera"]
    fields = {f: getattr(calavera, f) for f in calavera.__dataclass_fields__} | {"id": "fourth"}
    if expectations == "missing":
        @dataclass(frozen=True)
        class Outside:  # every member of the protocol but ``expectations``
            pass
        outside: Any = Outside()
        for name, value in fields.items():
            if name != "expectations":
                object.__setattr__(outside, name, value)
    else:
        model = type("Plain", (BaseModel,), {}) if expectations == "a plain model" else expectations
        outside = plugins.Plugin(**fields | {"expectations": model})

    class Point:
        name = "fourth"

        def load(self) -> Any:
            return outside

    monkeypatch.setattr(plugins, "_REGISTRY", {})
    monkeypatch.setattr(plugin_registry, "_BROKEN", {})
    monkeypatch.setattr(plugin_registry, "entry_points", lambda group: [Point()] if group == plugins.ENTRY_POINT_GROUP else [])
    with pytest.raises(plugins.PluginError):
        plugins._checked(outside)
    assert "fourth" not in plugins.registered()  # left out, and said in one line: the other games work
    assert [b.name for b in plugin_registry.broken_plugins()] == ["fourth"]


@pytest.mark.parametrize("game", ["calavera", "diables", "fallera"])
def test_each_game_declares_what_its_observations_hold(game: str) -> None:
    """The declared zones are exactly the top-level keys ``observe`` gives, over every scenario's start (those of
    the game's fixture)."""
    from cardworks.loading import load_database

    plugin = registered()[game]
    db = load_database(FIXTURE_CARDS / game)
    seen: set[str] = set()
    for _, doc in db.docs("scenarios"):
        for scenario in doc.scenarios:
            if scenario.refused:
                continue
            rules, state = plugin.scenario_state(db, scenario.setup)
            seen.update(rules.observe(state, 0))
    assert plugin.expectations.observed == seen


@pytest.mark.parametrize("game", ["calavera", "diables", "fallera"])
def test_the_declared_observation_types_are_what_observe_shows(game: str) -> None:
    """Each key of ``observed_types`` holds a value of its type, strictly, at every scenario's start (a ``sees``
    value of another type is refused by ``validate``, so a wrong declaration would refuse right scenarios)."""
    from pydantic import TypeAdapter

    from cardworks.loading import load_database

    plugin = registered()[game]
    db = load_database(FIXTURE_CARDS / game)
    for _, doc in db.docs("scenarios"):
        for scenario in doc.scenarios:
            if scenario.refused:
                continue
            rules, state = plugin.scenario_state(db, scenario.setup)
            seen = rules.observe(state, 0)
            for key, annotation in plugin.expectations.observed_types.items():
                TypeAdapter(annotation).validate_python(seen[key], strict=True)


def test_a_sees_path_into_no_zone_is_refused(tmp_path: Path) -> None:
    root = _copy_game(tmp_path, "minitrick")
    path = root / "minitrick/scenarios/tricks.json"
    pointer = _edit(path, "minitrick-higher-card-wins", set_value("sees", {"hands_sizes.1": 1}, "/hands_sizes.1"))
    doc = json.loads(path.read_text(encoding="utf-8"))
    entry = doc["scenarios"][int(pointer.split("/")[2])]["expect"][int(pointer.split("/")[4])]
    entry["observe"] = "p1"
    path.write_text(json.dumps(doc), encoding="utf-8")
    validated = run_cli("--cards", str(root), "validate", "--format", "json")
    assert ("unknown-zone", pointer) in [(p["code"], p["pointer"]) for p in validated.problems], validated.problems


def test_a_game_that_declares_nothing_has_only_the_generic_keys() -> None:
    """A Plugin built without ``expectations`` fails closed: its scenarios' own keys are refused, not ignored."""
    from cardworks.engine import plugins
    from cardworks.validate.expectations import scenario_problems
    from cardworks.loading import load_database

    calavera = registered()["calavera"]
    fields = {f: getattr(calavera, f) for f in calavera.__dataclass_fields__ if f != "expectations"}
    bare = plugins.Plugin(**fields)
    assert bare.expectations is Expectation
    db = load_database(FIXTURE_CARDS / "calavera")
    (loaded, doc), *_ = db.docs("scenarios")
    assert not scenario_problems(calavera, db, loaded.display, doc.scenarios)
    refused = scenario_problems(bare, db, loaded.display, doc.scenarios)
    assert refused and {p.code for p in refused} == {"unknown-expectation"}


@pytest.fixture(scope="module")
def fallera_db() -> Any:
    from cardworks.loading import load_database

    return load_database(FIXTURE_CARDS / "fallera")


def test_a_misspelt_id_in_a_scripted_deal_is_refused_at_its_pointer(fallera_db: Any) -> None:
    from cardworks.models.scenarios import Scenario
    from cardworks.validate.expectations import scenario_problems

    source = {"doc": "fallera-base", "section": "Battle Cards", "lines": "29"}
    deal = {"shuffles": [["conill", "bajoquet"]], "foods": ["nord", "lluna"]}
    scenario = Scenario.model_validate({"id": "x", "title": "x", "source": source,
                                        "setup": {"players": 3, "deal": deal}, "expect": [{"current": "p1"}]})
    found = scenario_problems(registered()["fallera"], fallera_db, "f.json", [scenario])
    assert [(p.code, p.location) for p in found] == [("unknown-card", "/scenarios/0/setup/deal/shuffles/0/1"),
                                                     ("unknown-terreta", "/scenarios/0/setup/deal/foods/1")]


def test_any_unknown_key_is_refused_at_its_own_pointer(fallera_db: Any) -> None:
    """Whatever a key is called (slashes and tildes escaped in the pointer), if the game does not read it, it is
    refused there and nowhere else."""
    from hypothesis import given, settings, strategies as st

    from cardworks.validate.expectations import scenario_problems
    from cardworks.models.scenarios import Scenario

    plugin = registered()["fallera"]
    source = {"doc": "fallera-base", "section": "Battle Cards", "lines": "29"}

    @settings(max_examples=60, deadline=None)
    @given(st.text(min_size=1, max_size=12).filter(lambda k: k not in plugin.expectations.model_fields),
           st.sampled_from([1, "p1", [], {}]))
    def refused(key: str, value: Any) -> None:
        scenario = Scenario.model_validate({"id": "x", "title": "x", "source": source,
                                            "setup": {"players": 3}, "expect": [{"current": "p1", key: value}]})
        found = scenario_problems(plugin, fallera_db, "f.json", [scenario])
        pointer = "/scenarios/0/expect/0/" + key.replace("~", "~0").replace("/", "~1")
        assert [(p.code, p.location) for p in found] == [("unknown-expectation", pointer)]

    refused()


def test_a_map_expectation_in_a_game_without_that_terreta_fails_without_a_crash() -> None:
    """``map`` names a known terreta, but the scenario plays without the map: the scenario fails, saying so."""
    import random

    from cardworks.engine.scenarios import check_expectation
    from cardworks.loading import load_database

    db = load_database(FIXTURE_CARDS / "fallera")
    rules, state = registered()["fallera"].scenario_state(db, {
        "players": 3, "hands": [[], [], []], "counters": [[], [], []], "deck": ["conill"], "current": "p1"})
    message = check_expectation(rules, state, {"map": {"sud": None}}, random.Random(0))
    assert message == "expected None on sud, but this game's map has no sud"


def test_an_illegal_action_may_name_a_stranger_only_when_its_rule_is_pinned(tmp_path: Path) -> None:
    """``scenario-base-battle-names-a-player`` checks that a battle against a player the game lacks is refused
    for ``battle-rival``; without that rule the same step is a typo to report."""
    root = _copy_game(tmp_path, "fallera")
    path = root / "fallera" / "scenarios" / "coverage.json"
    assert run_cli("--cards", str(root), "validate").exit_code == 0

    def unpin(scenario: Scenario) -> str:
        del scenario["expect"][1]["rule"]
        return "/expect/1/illegal"

    pointer = _edit(path, "scenario-base-battle-names-a-player", unpin)
    validated = run_cli("--cards", str(root), "validate", "--format", "json")
    assert validated.exit_code == 1
    assert ("unknown-player", pointer) in [(p["code"], p["pointer"]) for p in validated.problems]
