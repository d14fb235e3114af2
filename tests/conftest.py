"""Shared fixtures: a small, valid game written to a temporary folder, and a CLI runner."""

from __future__ import annotations

import copy
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardworks.cli.main import cli
from cardworks.i18n import source_hash

REPO = Path(__file__).resolve().parents[1]
FIXTURE_GAMES = REPO / "tests" / "fixtures" / "games"
"""Minitrick, a small complete game (docs/adding-a-game.md), with the metadata of an installed distribution
declaring it under the ``cardworks.games`` entry point: on the path, every test finds it as a game installed
from outside cardworks, and the contract suite runs on it."""
sys.path.insert(0, str(FIXTURE_GAMES))
FIXTURE_CARDS = REPO / "tests" / "fixtures" / "cards"
"""A cards folder holding the shipped games cut down for the tests (written by ``tests/fixtures/cards/build.py``:
``fallera`` with the cards the tests name, ``calavera`` and ``diables`` with their rules data alone): the engine,
validation and simulation tests load these, not the shipped database, which only the tests about the shipped
data themselves read."""
FALLERA = FIXTURE_CARDS / "fallera"

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30"/></svg>\n'


def _src(facts: list[str] | None = None) -> list[dict[str, Any]]:
    return [{"doc": "rules", "section": "Cards", "lines": "1", "facts": facts or []}]


MINITRICK_SOURCE = {"doc": "minitrick-rules", "section": "Minitrick", "lines": "3"}


def minitrick_four_pack(**more: Any) -> dict[str, Any]:
    """The files of a pack of the fixture game Minitrick adding one card, ``four`` (rank 4), and ``more``
    files (relative path → JSON content)."""
    return {
        "pack.json": {"$schema": "../../schema/pack.schema.json", "id": "minitrick-four", "extends": "minitrick",
                      "name": "Four"},
        "sets/four.json": {"$schema": "../../../schema/set.schema.json", "id": "four-set", "name": "Four",
                           "totals": {"designs": 1, "cards": 1},
                           "cards": [{"id": "four", "quantity": 1, "types": ["number"], "stats": {"rank": 4},
                                      "name": "Four", "sources": [MINITRICK_SOURCE]}]},
        **more,
    }


FACE_STRINGS_ES = (("conill", "name"), ("olla", "name"), ("base", "name"), ("treasure", "alt"), ("battle", "alt"))
"""The Spanish strings of ``mini``'s faces beyond the rest of its translation: with them a Spanish build (and
``validate``, which checks what a build would refuse) passes; :func:`partly_translated` takes them out for the
tests of translating, which need strings still to translate."""


def partly_translated(files: dict[str, Any]) -> dict[str, Any]:
    """``mini``'s files (:func:`mini_files`) with the Spanish strings of ``FACE_STRINGS_ES`` left untranslated."""
    entries = files["i18n/es.json"]["entries"]
    for record, field in FACE_STRINGS_ES:
        entries[record].pop(field)
        if not entries[record]:
            del entries[record]
    return files


def mini_files() -> dict[str, Any]:
    """The files of a small valid game ``mini``, by path relative to the game folder."""
    rules = "Steal one {treasure} from a rival."
    return {
        "game.json": {
            "$schema": "../../schema/game.schema.json",
            "id": "mini", "name": "Mini", "source_locale": "en", "locales": ["en", "es"],
            "players": {"min": 2, "max": 4},
            "documents": [{"id": "rules", "title": "Mini rules", "language": "en"}],
            "card_types": [{"id": "treasure", "name": "Treasure", "icon": "treasure"},
                           {"id": "battle", "name": "Battle", "icon": "battle"}],
            "attributes": [{"id": "treasure-kind", "name": "Kind", "applies_to": ["treasure"],
                            "values": [{"id": "ingredient", "name": "Ingredient"}, {"id": "other", "name": "Other"}]}],
            "stats": [{"id": "attack", "name": "Attack", "applies_to": ["battle"], "min": 0, "max": 10},
                      {"id": "defence", "name": "Defence", "applies_to": ["battle"], "min": 0, "max": 10}],
            "markers": [{"id": "ii", "name": "Two players", "removed_at_players": [2]}],
        },
        "icons.json": {
            "$schema": "../../schema/icons.schema.json",
            "icons": [{"id": "treasure", "svg": "icons/treasure.svg", "alt": "treasure"},
                      {"id": "battle", "svg": "icons/battle.svg", "alt": "battle"}],
        },
        "icons/treasure.svg": SVG,
        "icons/battle.svg": SVG,
        "sets/base.json": {
            "$schema": "../../../schema/set.schema.json",
            "id": "base", "name": "Base", "totals": {"designs": 3, "cards": 5, "by_type": {"treasure": 2, "battle": 3}},
            "cards": [
                {"id": "conill", "quantity": 1, "types": ["treasure"], "attributes": {"treasure-kind": "ingredient"},
                 "name": "conill", "alt_names": ["rabbit"], "sources": _src()},
                {"id": "capita", "quantity": 3, "types": ["battle"], "stats": {"attack": 4, "defence": 1},
                 "name": "capità", "rules": rules, "sources": _src(["stats/attack"])},
                {"id": "olla", "quantity": 1, "types": ["treasure"], "markers": ["ii"], "name": "olla",
                 "sources": _src()},
            ],
        },
        "components.json": {
            "$schema": "../../schema/components.schema.json",
            "components": [{"id": "coin", "kind": "coin", "set": "base", "name": "coin", "space": "north",
                            "faces": [{"id": "heads", "name": "heads"}, {"id": "tails", "name": "tails"}],
                            "sources": _src()}],
        },
        "boards/map.json": {
            "$schema": "../../../schema/board.schema.json",
            "id": "map", "name": "Map", "sources": _src(),
            "sides": [{"id": "front", "name": "Front", "spaces": [
                {"id": "north", "name": "North", "accesses": 1}, {"id": "south", "name": "South", "accesses": 2}],
                "edges": [{"between": ["north", "south"]}]}],
        },
        "rulings/base.json": {
            "$schema": "../../../schema/rulings.schema.json",
            "rulings": [{"id": "ruling-steal", "cards": ["capita", "conill"], "question": "Can it steal?",
                         "answer": "Yes, one {treasure}.", "source": _src()[0], "scenarios": ["scenario-steal"]}],
        },
        "scenarios/base.json": {
            "$schema": "../../../schema/scenarios.schema.json",
            "game": "mini",
            "scenarios": [{"id": "scenario-steal", "title": "steal", "source": _src()[0], "cards": ["capita"],
                           "rulings": ["ruling-steal"]}],
        },
        "assumptions/cards.json": {
            "$schema": "../../../schema/assumptions.schema.json",
            "assumptions": [{"id": "assume-map-front-edges", "target": "map", "field": "sides/front/edges",
                             "value": [["north", "south"]], "reason": "needed for play"}],
        },
        "i18n/es.json": {
            "$schema": "../../../schema/translations.schema.json",
            "game": "mini", "locale": "es",
            "entries": {
                "capita": {"name": {"text": "capità", "source_hash": source_hash("capità"), "source": "capità"},
                           "rules": {"text": "Roba un {treasure} a un rival.", "source_hash": source_hash(rules),
                                     "source": rules}},
                "conill": {"alt_names/0": {"text": "conejo", "source_hash": source_hash("rabbit"), "source": "rabbit"},
                           "name": {"text": "conill", "source_hash": source_hash("conill"), "source": "conill"}},
                # the pieces every locale prints (the board, the coin's stickers) name the game and the pieces
                **{record: {field: {"text": text, "source_hash": source_hash(source), "source": source}
                            for field, source, text in fields}
                   for record, fields in {
                       "mini": [("name", "Mini", "Mini")],
                       "map": [("name", "Map", "Mapa"), ("sides/front/name", "Front", "Frente"),
                               ("sides/front/spaces/north/name", "North", "Norte"),
                               ("sides/front/spaces/south/name", "South", "Sur")],
                       "coin": [("name", "coin", "moneda"), ("faces/heads/name", "heads", "cara"),
                                ("faces/tails/name", "tails", "cruz")],
                       # what its faces print besides (see FACE_STRINGS_ES): without them a Spanish build stops
                       "treasure": [("alt", "treasure", "tesoro")], "battle": [("alt", "battle", "batalla")],
                       "olla": [("name", "olla", "olla")], "base": [("name", "Base", "Base")]}.items()},
            },
        },
    }


@pytest.fixture(autouse=True, scope="session")
def _private_language_cache(tmp_path_factory) -> None:
    """Language verdicts are cached per user; tests keep theirs in a temporary folder."""
    import os

    os.environ["CARDWORKS_CACHE"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(autouse=True)
def _signal_handlers_restored():
    """A command run in this process that was interrupted ignores SIGINT and SIGTERM from then on (it says its
    last line undisturbed, then exits); in a test process that would outlive the test, and every process a later
    test starts would inherit SIGINT ignored. Restored after each test. (It did not cure the watch test's hang in
    full runs alone: something outside a test's own setup and teardown still leaves SIGINT ignored in a worker,
    so that test starts its process with SIGINT at its default.)"""
    import signal

    kept = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    yield
    for number, handler in kept.items():
        if signal.getsignal(number) is not handler:
            signal.signal(number, handler)


@dataclass
class GameDir:
    """A written game folder that tests mutate before validating."""

    cards_root: Path
    files: dict[str, Any]

    @property
    def root(self) -> Path:
        return self.cards_root / "mini"

    def write(self) -> None:
        for relative, content in self.files.items():
            path = self.root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            elif isinstance(content, str):
                path.write_text(content, encoding="utf-8")
            else:
                path.write_text(json.dumps(content, indent=2, ensure_ascii=False), encoding="utf-8")

    def data(self, relative: str) -> Any:
        return self.files[relative]


@pytest.fixture
def game(tmp_path: Path) -> GameDir:
    """A valid mini game in ``tmp_path/cards/mini`` (written by the test via ``write()``)."""
    return GameDir(tmp_path / "cards", copy.deepcopy(mini_files()))


@dataclass
class Run:
    exit_code: int
    output: str
    problems: list[dict[str, str]]


def run_cli(*args: str) -> Run:
    """Run the real command group in-process; fail the test on any uncaught exception."""
    result = CliRunner().invoke(cli, list(args), catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}") from result.exception
    assert "Traceback" not in result.output
    problems = []
    if "--format" in args and "json" in args and result.output.lstrip().startswith("["):
        problems = json.loads(result.output)
    return Run(result.exit_code, result.output, problems)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes, to prove a command wrote nothing."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


_FROM_WORKERS: list[dict[str, str]] = []  # corpus outcomes that pytest-xdist workers sent back


def pytest_sessionfinish(session) -> None:
    """On an xdist worker, hand the corpus's outcomes to the controller, which prints the summary."""
    corpus = sys.modules.get("corpus")
    workeroutput = getattr(session.config, "workeroutput", None)
    if corpus is not None and workeroutput is not None:
        workeroutput["corpus"] = [asdict(outcome) for outcome in corpus.OUTCOMES]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    _FROM_WORKERS.extend(getattr(node, "workeroutput", {}).get("corpus", []))


def pytest_terminal_summary(terminalreporter) -> None:
    """The hostile corpus's summary (tests/hostile), when it ran, in this process or on xdist workers."""
    corpus = sys.modules.get("corpus")
    if corpus is None and _FROM_WORKERS:
        sys.path.insert(0, str(REPO / "tests" / "hostile"))
        import corpus  # the controller ran no corpus test itself: load the module only to summarise
    if corpus is not None:
        corpus.OUTCOMES.extend(corpus.Outcome(**fields) for fields in _FROM_WORKERS)
        corpus.terminal_summary(terminalreporter)



SHIPPED_CARDS = REPO / "cards"
_SHIPPED_LOADS: list[dict[str, str]] = []  # shipped game folders this process loaded, with the test that did


def _loading_test() -> str:
    """The running test's node id, or at collection time the test file whose import is loading."""
    import os
    import traceback

    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    if current:
        return current.rsplit(" (", 1)[0]
    for frame in reversed(traceback.extract_stack()):
        path = Path(frame.filename)
        if path.name.startswith("test_") and (REPO / "tests") in path.parents:
            return path.relative_to(REPO).as_posix() + " (collection)"
    return "(outside a test)"


def _shipped_copy(folder: Path) -> str | None:
    """The shipped game a folder copies (its ``game.json`` is byte for byte the shipped one; other files may
    have been edited by the test), or None."""
    try:
        data = (folder / "game.json").read_bytes()
    except OSError:
        return None
    for shipped in sorted(SHIPPED_CARDS.glob("*/game.json")):
        if data == shipped.read_bytes():
            return shipped.parent.relative_to(REPO).as_posix()
    return None


def pytest_configure(config) -> None:
    """With ``CARDWORKS_SHIPPED_LOADS=<file>``, note every load of a shipped game folder and the test making it.

    ``bench/shipped_loads.py`` counts them, to show which fast tests still read the real database rather than
    a fixture game; without the variable nothing is patched. Patched here, before collection, so loads made
    while a test module is imported count too."""
    import os

    if not os.environ.get("CARDWORKS_SHIPPED_LOADS"):
        return
    from cardworks.loading import database

    original = database._discover

    def discover(root: Path, is_pack: bool):
        resolved = Path(root).resolve()
        if resolved == SHIPPED_CARDS or SHIPPED_CARDS in resolved.parents:
            _SHIPPED_LOADS.append({"test": _loading_test(), "folder": resolved.relative_to(REPO).as_posix()})
        elif not is_pack and (copied := _shipped_copy(resolved)):
            _SHIPPED_LOADS.append({"test": _loading_test(), "folder": f"copy of {copied}"})
        return original(root, is_pack)

    database._discover = discover


def pytest_unconfigure(config) -> None:
    import os

    record = os.environ.get("CARDWORKS_SHIPPED_LOADS")
    if record and _SHIPPED_LOADS:
        with open(record, "a", encoding="utf-8") as out:  # one write per process: xdist workers append whole lines
            out.write("".join(json.dumps(load) + "\n" for load in _SHIPPED_LOADS))
