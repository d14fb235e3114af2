"""bench/mutants.py: the mutator plants exactly the bug it names, the sample is fixed, and a small run kills."""

from __future__ import annotations

import ast
import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import REPO

_SPEC = importlib.util.spec_from_file_location("mutants_bench", REPO / "bench" / "mutants.py")
mutants = importlib.util.module_from_spec(_SPEC)
sys.modules["mutants_bench"] = mutants
_SPEC.loader.exec_module(mutants)

SOURCE = '''
def f(a, b, items):
    if a < b and not items:
        return True
    total = a + 2
    for x in items:
        if x in (1,):
            break
    return False
'''


def _sites(source: str) -> list:
    return mutants.mutants_of("m.py", source)


def test_every_operator_finds_its_sites() -> None:
    found = {(m.kind, m.text) for m in _sites(SOURCE)}
    assert found >= {("negate", "< -> >="), ("boundary", "< -> <="), ("boolop", "and -> or"), ("drop-not", "not dropped"),
                     ("flip-bool", "return True -> False"), ("flip-bool", "return False -> True"),
                     ("arith", "+ -> -"), ("plus", "2 -> 3"), ("minus", "2 -> 1"), ("negate", "in -> not in"),
                     ("loop", "break -> continue")}


@pytest.mark.parametrize(("kind", "text", "before", "after"), [
    ("negate", "< -> >=", "a < b", "a >= b"),
    ("boolop", "and -> or", "a < b and (not items)", "a < b or not items"),
    ("drop-not", "not dropped", "and (not items)", "and items"),
    ("flip-bool", "return True -> False", "return True", "return False\n    total"),
    ("arith", "+ -> -", "a + 2", "a - 2"),
    ("plus", "2 -> 3", "a + 2", "a + 3"),
    ("loop", "break -> continue", "break", "continue"),
])
def test_a_mutant_changes_only_what_it_names(kind: str, text: str, before: str, after: str) -> None:
    mutant = next(m for m in _sites(SOURCE) if (m.kind, m.text) == (kind, text))
    changed = mutants.mutated_source(SOURCE, mutant)
    assert after in changed and before in ast.unparse(ast.parse(SOURCE))
    assert sum(a != b for a, b in zip(ast.unparse(ast.parse(SOURCE)).splitlines(), changed.splitlines())) == 1


def test_annotations_and_fstrings_are_not_mutated() -> None:
    found = _sites('def g(x: "list[int]" = 3) -> int:\n    return f"{x:>2}"\n')
    assert [(m.kind, m.text) for m in found] == [("plus", "3 -> 4"), ("minus", "3 -> 2")]


def test_the_sample_is_fixed_and_in_source_order() -> None:
    found = mutants.find_mutants(REPO / "src", "calavera")
    first, again = mutants.sample(found, 30, 1), mutants.sample(found, 30, 1)
    assert first == again and len(first) == 30 and first != mutants.sample(found, 30, 2)
    assert first == sorted(first, key=lambda m: (m.path, m.line, m.index, m.kind))
    assert {m.path.split("/")[-1] for m in found} == {"actions.py", "game.py", "rules.py", "sheet.py"}


def test_a_mutant_is_named_by_its_code_not_its_line() -> None:
    found = _sites(SOURCE)
    moved = _sites("import os\n\n\n" + SOURCE.replace("    total = a + 2\n", "    total = a + 2\n    other = 0\n"))
    assert [m.identity for m in found] == [m.identity for m in moved if m.code != "other = 0"]
    assert [m.line + 3 for m in found] == [m.line for m in _sites("import os\n\n\n" + SOURCE)]
    assert "src/m.py f `if a < b and not items:` #0: < -> >=" in {m.identity for m in found}
    twice = _sites("def g(players):\n    return max(1, 9 // (players or 1))  # a comment is no code\n")
    assert [m.identity for m in twice if m.text == "1 -> 2"] == ["src/m.py g `return max(1, 9 // (players or 1))` #0: 1 -> 2",
                                                                  "src/m.py g `return max(1, 9 // (players or 1))` #1: 1 -> 2"]


def test_code_added_in_another_file_changes_the_sample_only_by_its_own_mutants() -> None:
    found = mutants.find_mutants(REPO / "src", "fallera")
    before = mutants.sample(found, 200, 1)
    added = mutants.mutants_of("cardworks/games/fallera/added.py", (REPO / "src" / found[0].path).read_text("utf-8"))
    after = mutants.sample(found + added, 200, 1)
    new = [m for m in after if m.path.endswith("added.py")]
    kept = [m for m in after if not m.path.endswith("added.py")]
    assert new and len(after) == 200 and set(kept) <= set(before)  # the rest of the sample is the same
    assert len(set(before) - set(kept)) == len(new)  # each added mutant drawn pushes out exactly one
    grown = mutants.sample(found + added, 200 + len(added), 1)
    assert set(before) <= set(grown)  # nothing reshuffled: a larger count still holds the earlier sample


@pytest.mark.slow
def test_a_small_run_on_diables_kills_most_planted_bugs() -> None:
    result = mutants.run_game("diables", 20, 1, 1, None)
    killed, counted, _, _ = result.figures()
    assert counted == 20 and killed + len(result.survivors) + len(result.equivalent) == 20
    assert killed >= 17, [str(m) for m in result.survivors]


TOY = '''CACHE_SIZE = 10


def double(x):
    return x + x
'''
TOY_CHECK = ["-c", "import sys\nfrom cardworks.games.toy.rules import double\nsys.exit(0 if double(3) == 6 else 1)"]
"""The toy game's whole ``check``: ``double`` doubles (the cache size is read by nothing)."""


def _toy_repo(tmp_path):
    rules = tmp_path / "repo" / "src" / "cardworks" / "games" / "toy" / "rules.py"
    rules.parent.mkdir(parents=True)
    rules.write_text(TOY, encoding="utf-8")
    for init in (rules.parent, rules.parent.parent, rules.parent.parent.parent):
        (init / "__init__.py").write_text("", encoding="utf-8")
    return tmp_path / "repo"


def _toy_run(tmp_path, declared: dict[str, str]):
    repo = _toy_repo(tmp_path)
    return mutants.run_mutants("toy", lambda src: mutants.find_mutants(src, "toy", ("rules",)), list, TOY_CHECK, 1,
                               30, declared, repo=repo)


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    """The toy's three mutants run once (4 small processes); each test declares its own equivalents."""
    run = _toy_run(tmp_path_factory.mktemp("toy"), {})
    return lambda declared: replace(run, declared=declared)


CACHE_UP, CACHE_DOWN, MINUS = (f"src/cardworks/games/toy/rules.py {where}`{code}` #0: {text}"
                               for where, code, text in (("", "CACHE_SIZE = 10", "10 -> 11"),
                                                         ("", "CACHE_SIZE = 10", "10 -> 9"),
                                                         ("double ", "return x + x", "+ -> -")))


def test_declared_equivalents_count_apart_on_a_toy_module(toy_run, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setitem(mutants.GOALS, "toy", 0.9)
    result = toy_run({CACHE_UP: "a cache size", CACHE_DOWN: "a cache size"})
    assert [m.identity for m in result.mutants] == [CACHE_UP, CACHE_DOWN, MINUS]
    assert result.figures() == (1, 3, 1, 0) and result.score() == 1.0 and not result.stale_kills
    assert mutants.report(result)  # 1 of 3 raw, but 1 of 1 once the two declared equivalents are set apart
    out = capsys.readouterr().out
    assert "1 of 3 killed (33.3%" in out and "1 of 1 not declared equivalent (100.0%)" in out
    assert f"equivalent {CACHE_UP}  (line 1; a cache size)" in out


def test_an_undeclared_survivor_misses_the_goal(toy_run, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setitem(mutants.GOALS, "toy", 0.9)
    result = toy_run({CACHE_UP: "a cache size"})
    assert result.figures() == (1, 3, 2, 0) and [m.identity for m in result.survivors] == [CACHE_DOWN]
    assert not mutants.report(result)
    assert f"survived {CACHE_DOWN}  (line 1)" in capsys.readouterr().out


def test_a_declared_equivalent_that_is_killed_is_stale(toy_run, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setitem(mutants.GOALS, "toy", 0.0)
    result = toy_run({CACHE_UP: "a cache size", CACHE_DOWN: "a cache size", MINUS: "wrongly declared"})
    assert [m.identity for m in result.stale_kills] == [MINUS]
    assert not mutants.report(result)  # even with no goal to meet
    assert f"STALE: declared equivalent but killed: {MINUS}  (line 5)" in capsys.readouterr().out


def test_a_declared_equivalent_the_sources_do_not_offer_stops_the_bench(tmp_path) -> None:
    changed = CACHE_UP.replace("CACHE_SIZE = 10", "CACHE_SIZE = 12")  # the code changed under the declaration
    with pytest.raises(SystemExit, match="stale: the code it names changed") as stopped:
        _toy_run(tmp_path, {CACHE_UP: "a cache size", changed: "a cache size"})
    assert changed in str(stopped.value) and CACHE_UP not in str(stopped.value)


def test_a_declaration_follows_its_line_down_and_goes_stale_when_the_line_changes() -> None:
    declared = {CACHE_UP: "a cache size", MINUS: "r"}
    moved = mutants.mutants_of("cardworks/games/toy/rules.py", "import os\n\n" + TOY)
    assert mutants.stale_declarations(declared, moved) == []  # both lines moved down by two
    edited = mutants.mutants_of("cardworks/games/toy/rules.py", TOY.replace("return x + x", "return x + x + 0"))
    assert mutants.stale_declarations(declared, edited) == [MINUS]


@pytest.mark.parametrize(("text", "code"), [
    ('{"toy": [{"mutant": "src/x.py:1: 1 -> 2"}]}', "bad-equivalents"),
    ('{"toy": [{"mutant": "src/x.py:1: 1 -> 2", "reason": " "}]}', "bad-equivalents"),
    ('{"toy": {"mutant": "src/x.py:1: 1 -> 2", "reason": "r"}}', "bad-equivalents"),
    ('{"toy": [{"mutant": "m", "reason": "r"}, {"mutant": "m", "reason": "r"}]}', "duplicate-equivalent"),
    ('{"toy": [', "unreadable-equivalents"),
])
def test_a_malformed_equivalents_file_stops_the_bench(tmp_path, text: str, code: str) -> None:
    path = tmp_path / "equivalent-mutants.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit, match=f"\\[{code}\\]"):
        mutants.load_equivalents(path, "toy")


def test_the_shipped_declarations_match_the_fallera_sources(tmp_path, capsys) -> None:
    declared = mutants.load_equivalents(mutants.EQUIVALENTS, "fallera")
    found = mutants.find_mutants(REPO / "src", "fallera")
    assert declared and mutants.stale_declarations(declared, found) == []
    documented = (REPO / "docs" / "mutation.md").read_text(encoding="utf-8")
    in_sample = [m for m in mutants.sample(found, 200, 1) if m.identity in declared]
    assert f"gaps and {len(in_sample)} declared equivalents" in documented  # the measured sample's figure
    missing = [name for name in declared if f"`` {name.removeprefix('src/cardworks/games/')} ``" not in documented]
    assert missing == [], "declared equivalents the docs do not list"
    stale = tmp_path / "equivalent-mutants.json"
    stale.write_text('{"fallera": [{"mutant": "src/cardworks/games/fallera/facts.py:1: 1 -> 2", "reason": "r"}]}',
                     encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        mutants.main(["--list", "--game", "fallera", "--equivalents", str(stale)])
    assert stopped.value.code == 1
    assert "STALE: declared equivalent but no such mutant in the sources: src/cardworks/games/fallera/facts.py:1" \
        in capsys.readouterr().out  # a line-keyed name, as before identities, matches nothing


def test_the_command_names_its_packs() -> None:
    command = mutants.check_command("fallera", (REPO / "examples" / "fallera-pack",))
    assert mutants.shown(command) == "cardworks check --game fallera --playouts 20 --seed 1 --pack examples/fallera-pack"


def test_only_reads_back_the_identities_a_report_prints(tmp_path) -> None:
    listed = tmp_path / "survivors.txt"
    listed.write_text(f"  survived {CACHE_DOWN}  (line 1)\n  equivalent {CACHE_UP}  (line 1; a cache size (its size))\n"
                      f"{MINUS}  (line 5)\nfallera: 1 of 3 killed\n", encoding="utf-8")
    assert mutants._only(listed) == {CACHE_DOWN, CACHE_UP, MINUS}


def test_the_packs_a_run_checks_against_are_copied_when_it_begins(tmp_path) -> None:
    """An edit to a pack during an hour's run must not change what the mutants are checked against."""
    pack = tmp_path / "pack"
    (pack / "sets").mkdir(parents=True)
    (pack / "pack.json").write_text("{}", encoding="utf-8")
    command = mutants.check_command("fallera", (pack,))
    frozen = mutants._frozen_packs(command, tmp_path / "frozen")
    copy = Path(frozen[frozen.index("--pack") + 1])
    assert copy != pack.resolve() and copy.is_relative_to(tmp_path / "frozen")
    (pack / "pack.json").write_text('{"edited": true}', encoding="utf-8")
    assert (copy / "pack.json").read_text(encoding="utf-8") == "{}"
    assert [w for w in frozen if w != str(copy)] == [w for w in command if w != str(pack.resolve())]


TOY_PLAIN = ["-c", "import sys\nfrom cardworks.games.toy.rules import CACHE_SIZE, double\n"
             "sys.exit(0 if double(3) == 6 and CACHE_SIZE <= 10 else 1)"]
"""A stricter toy ``check`` standing in for the other command: it also kills the cache grown to 11."""


def test_with_packs_the_plain_check_figure_is_printed_beside(tmp_path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys) -> None:
    """Item 8 of issue 46: each mutant runs under both commands and both figures are printed; the judged one
    is the first, and a declared equivalent either command kills is stale."""
    monkeypatch.setitem(mutants.GOALS, "toy", 0.5)
    repo = _toy_repo(tmp_path)
    result = mutants.run_mutants("toy", lambda src: mutants.find_mutants(src, "toy", ("rules",)), list, TOY_CHECK, 1,
                                 30, {CACHE_DOWN: "a cache size"}, repo=repo, plain=TOY_PLAIN)
    assert result.verdicts == ["passed", "passed", "failed"]
    assert result.plain_verdicts == ["failed", "passed", "failed"]
    assert result.figures() == (1, 3, 2, 0) and result.plain_figures() == (2, 3, 2, 0)
    assert mutants.report(result)
    out = capsys.readouterr().out
    assert "1 of 3 killed (33.3%; 0 by timeout); 1 of 2 not declared equivalent (50.0%), goal 50%" in out
    assert "  plain: " in out
    assert "2 of 3 killed (66.7%; 0 by timeout); 2 of 2 not declared equivalent (100.0%), not judged" in out
    assert "either: 2 of 3 killed by one command or both; 2 of 2 not declared equivalent (100.0%)" in out
    stale = replace(result, declared={CACHE_UP: "wrongly declared"})
    assert [m.identity for m in stale.stale_kills] == [CACHE_UP]  # killed only by the plain check: still stale


def test_without_packs_no_plain_figure_is_printed(toy_run, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setitem(mutants.GOALS, "toy", 0.5)
    result = toy_run({})
    assert result.plain_figures() is None
    mutants.report(result)
    assert "plain:" not in capsys.readouterr().out


def test_ctrl_c_stops_the_run_without_the_plain_check(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a mutant's check runs stops that check and starts nothing more: not the plain check of the
    same mutant (before, the killed check counted as failed, the plain check ran in full, and only then did the
    bench stop), no verdict for it, and the bench says how far it got."""
    import os
    import signal
    import threading
    import time

    started, log = tmp_path / "started", tmp_path / "plain.log"
    monkeypatch.setenv("TOY_STARTED", str(started))
    monkeypatch.setenv("TOY_PLAIN_LOG", str(log))
    slow = ["-c", "import os, sys, time\nfrom cardworks.games.toy.rules import double\nif double(3) != 6:\n"
                  "    open(os.environ['TOY_STARTED'], 'w').close()\n    time.sleep(60)\nsys.exit(0)"]
    plain = ["-c", "import os\nopen(os.environ['TOY_PLAIN_LOG'], 'a').write('plain\\n')"]

    def interrupt() -> None:  # Ctrl-C as the third mutant's (MINUS's) check is under way
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    watcher = threading.Thread(target=interrupt, daemon=True)
    watcher.start()
    begun = time.monotonic()
    try:
        with pytest.raises(SystemExit, match="toy: interrupted") as stopped:
            mutants.run_mutants("toy", lambda src: mutants.find_mutants(src, "toy", ("rules",)), list, slow, 1, 30,
                                {}, repo=_toy_repo(tmp_path), plain=plain)
    finally:
        watcher.join(5)
        signal.signal(signal.SIGINT, previous)
    assert started.exists()
    assert log.read_text(encoding="utf-8").count("plain") == 3  # the unmutated sources and the two cache mutants
    assert time.monotonic() - begun < 30 and not mutants._RUNNING  # stopped, not run to the check's timeout
    assert "toy: interrupted after 2 of 3 mutants; no figures" in str(stopped.value)  # how far it got


def test_thorough_too_names_the_mutants_only_the_thorough_check_kills(tmp_path, monkeypatch: pytest.MonkeyPatch,
                                                                      capsys) -> None:
    """``--thorough-too`` (issue 47 item 5): each mutant also runs under ``check --thorough``; its figure is
    printed beside the default schedule's, and each mutant only one of them kills is named."""
    monkeypatch.setitem(mutants.GOALS, "toy", 0.5)
    repo = _toy_repo(tmp_path)
    result = mutants.run_mutants("toy", lambda src: mutants.find_mutants(src, "toy", ("rules",)), list, TOY_CHECK, 1,
                                 30, {}, repo=repo, plain=TOY_PLAIN, beside="thorough")
    mutants.report(result)
    out = capsys.readouterr().out
    assert "  thorough: " in out and "  plain: " not in out
    only = [line for line in out.splitlines() if line.startswith("  killed only")]
    assert only == [f"  killed only beside, by thorough: {CACHE_UP}  (line 1)"]
    assert mutants.run_game.__defaults__[-1] is False  # the default run checks no second command


def test_thorough_too_adds_the_flag_to_the_same_command(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}
    monkeypatch.setattr(mutants, "run_mutants", lambda *args, **kwargs: seen.update(command=args[3], **kwargs))
    mutants.run_game("fallera", 1, 1, 1, None, thorough_too=True)
    assert seen["plain"] == [*seen["command"], "--thorough"] and seen["beside"] == "thorough"
