"""How a game plugs into the engine: the ``GamePlugin`` protocol and the registry of games.

The core names no game. Every game, the ones shipped with cardworks included,
is declared by its distribution under the entry point group ``cardworks.games``
(``name = "package.module:PLUGIN"``, in ``pyproject.toml``) and found there
(``plugin_registry``). Every command, the renderer, the simulator and the
contract tests reach a game only through ``registered``, ``plugin_for`` and
``plugin_of``.
"""

from __future__ import annotations

import keyword
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .. import plugin_registry
from ..errors import DeveloperError, UsageError
from ..resources import data_dir
from ..plugin_registry import ENTRY_POINT_GROUP  # noqa: F401  (re-exported: plugins.ENTRY_POINT_GROUP)
from ..validate.expectations import Expectation



def _no_zones(state: Any) -> tuple[Sequence[Iterable[int]], ...]:
    return ()


def _nothing_played(action: Any) -> str | None:
    return None


def _no_cards(rules: Any) -> dict[str, Any]:
    return {}


def _nothing_missing(kinds: frozenset[str]) -> str | None:
    return None


def _no_log(state: Any, reason: str | None) -> tuple[tuple[str, str] | None, tuple[tuple[tuple[str, str], int], ...]]:
    return None, ()


@dataclass(frozen=True)
class Simulation:
    """What a game gives ``cardworks simulate`` beyond the engine's contract (only games whose engine plays
    whole games have one). Agents read observations and the cards' public definitions, never the true
    state; the rest is the referee's view, for the statistics."""

    heuristics: Any
    """The agents' knowledge of the game: an object (usually a module) with ``greedy(table, me, seen, legal,
    rng)``, ``determinize(table, seen, rng)`` and ``evaluate(table, state)`` (see ``simulate.heuristics``)."""
    turns: Callable[[Any, int], tuple[int, int]]
    """``turns(state, players)``: (turns, rounds) played so far."""
    cards: Callable[[Any], dict[str, Any]] = _no_cards
    """``cards(rules)``: design → its public definition (with ``copies``), the deck the rules deal; empty
    for a game without cards."""
    zones: Callable[[Any], tuple[Sequence[Iterable[int]], ...]] = _no_zones
    """``zones(state)``: the zones whose cards a player holds (hands, counters…), each indexed by player."""
    design: Callable[[Any, int], str] | None = None
    """``design(state, instance)``: the design of a card instance (games with ``zones``)."""
    played: Callable[[Any], str | None] = _nothing_played
    """``played(action)``: the design a player's action puts to use (sold, battled with…), if any."""
    credits: Callable[[Any, str | None], tuple[tuple[str, str] | None, tuple[tuple[tuple[str, str], int], ...]]] = _no_log
    """``credits(state, reason)`` at a game's end: (the design, or ``terreta:<id>``, that caused the ending,
    and how: ``effect`` or ``completed``), None for a rule alone; and ((what, design), times) of the game's
    card events (``placed``, ``trigger``, a verb that acted), sorted, for per-card counts."""
    plain: Callable[[Any, str, frozenset[str]], tuple[Any | None, str]] | None = None
    """``plain(rules, design, base)``: rules in which ``design`` plays as a plain card of its type (no effects,
    the values of the ``base`` designs' plain card of that type), None when it already is one; and the
    type's name."""
    adjusted: Callable[[Any, str, str, int], Any] | None = None
    """``adjusted(rules, design, field, value)``: rules with one number of a card changed (``simulate --sweep``);
    raises ValueError saying what may be swept."""
    deal: Callable[[Any, Any, Any, random.Random], Any] | None = None
    """``deal(db, config, rules, rng)``: a new game's opening position under ``rules`` (those ``plain``
    made), dealt as the plugin's ``new_game`` deals."""
    quiet: Callable[[Any, Any, str], tuple[int, ...] | None] | None = None
    """``quiet(rules, state, design)``: the players whose hands hold copies of ``design`` while its definition can
    change nothing but their own decisions (empty: all in the deck), None once it may act (in play). Paired games
    then replay a card's twin only from the first step its definition may change; without it, from the deal."""
    quiets: Callable[[Any, Any, frozenset[str], bool], dict[str, tuple[int, ...] | None]] | None = None
    """``quiets(rules, state, designs, settled)``: ``quiet`` of each of ``designs`` that has a copy out of the deck
    (one missing from the answer: ``()``), asked once a step for every watched card; with ``settled``, also counting
    as waiting the copies in play whose definition neither the rules nor the agents read there (a card that only
    describes, say), which the watch reads for a card whose twin has parted: the twin then meets its real game
    again from there. Without it, ``quiet`` is asked for each design, and serves for both."""
    named: Callable[[Sequence[Any]], frozenset[str] | set[str]] | None = None
    """``named(legal)``: the designs whose cards the actions ``legal`` name. A game that gives it promises that its
    greedy player reads the definition of a card ``quiet`` keeps in a hand only through an action naming it, and
    that the actions a twin's rules list differ from the real rules' only by actions naming the card: a paired
    game's watch then takes a greedy holder's choice as the twin's too where no action names the card, instead
    of working it out again; without it, the choice is always worked out again."""
    missing: Callable[[frozenset[str]], str | None] = _nothing_missing
    """``missing(kinds)``: what this install of the game lacks that agents of these kinds (``mcts``, ``greedy``…)
    would use, as one line for a warning (a compiled part that was not built: the same decisions, slower), or
    None. ``simulate`` says it once before it plays."""


class SectionContext(Protocol):
    """What the renderer hands a game's generated rulebook section: the deck's data in one locale and the few
    render helpers a section needs, so that a game's package never imports the renderer."""

    index: Any
    """The records of the game and its packs (``loading.records.Index``)."""
    game: Any
    """The game document (``game.json``)."""
    texts: Any
    """The locale's texts: ``text(id, field, source)`` and ``label(name)``."""
    labels: Any
    """The documents' labels in the locale, as attributes (``labels.unknown``)."""
    icons: dict[str, tuple[str, str]]
    """Markup token → (url, alt) of the icons."""

    def cards(self) -> list[Any]:
        """The records of the cards of the sets this rulebook covers."""

    def name(self, record: Any) -> str:
        """A record's name in the locale."""

    def macros_of(self, template: str) -> Any:
        """The macros of a template (``docs/<game>.html.j2``), looked up in the game folder's ``templates/``
        first, then among the shipped ones."""

    def markup(self, text: str) -> Any:
        """Card-text markup as HTML (escaped text, each ``{token}`` its icon)."""

    def marked(self, value: Any, sources: Any, field: str) -> str:
        """``value`` with the mark of its certainty in ``sources`` (``?`` unknown, ``*`` not stated…)."""

    def legend(self, values: Any) -> str:
        """The legend of the marks used in ``values``, for a table's head."""


@dataclass(frozen=True)
class Rendering:
    """What a game gives the renderer beyond its data (the way ``Simulation`` serves ``simulate``): the
    rulebook sections only it generates and the symbols its pieces print. Its templates (card stylesheet,
    the macros its sections call) live in its data folder's ``templates/``, not here."""

    sections: dict[str, Callable[[SectionContext], Any]] = field(default_factory=dict)
    """``::: generated NAME`` → ``section(context)``, the section's HTML (``Markup``)."""
    die_symbols: dict[str, str] = field(default_factory=dict)
    """A die face's id → the symbol printed on it in the dice net (faces ``colour-N`` print N; others none)."""
    board_notes: Callable[[Any, Any, Any, Any, str], tuple[list[str], dict[str, str]]] | None = None
    """``board_notes(db, texts, board, side, edition)``: what the game prints beside one side of a board in the
    ``fact`` or ``playtest`` edition, in ``texts``' locale (``texts.text``, ``texts.label``): lines under the map
    (how many cards the side takes…) and, by space id, what a space does. Any value the sources do not state
    carries the ``†`` mark. None: nothing beyond the map."""


@dataclass(frozen=True)
class Hidden:
    """Where a game's ``rules.dump`` keeps what its rules hide, so the contract tests can vary exactly that
    and prove an observation does not change (rather than trusting the game's own ``hidden_leak``).

    Zones hold card instances (numbers); the tests deal the instances a viewer may not see among those zones
    again and compare the viewer's observations. An empty ``Hidden()`` says the rules hide nothing."""

    private: tuple[str, ...] = ()
    """Dump keys of per-player lists of instances that only their owner sees (hands)."""
    secret: tuple[str, ...] = ()
    """Dump keys of lists of instances nobody sees (a face-down deck)."""


@runtime_checkable
class Catalogue(Protocol):
    """What ``rules_for`` returns beside the rules: the designs a configuration plays and those it leaves out,
    with the reason. ``check`` reads both for every game (a game without cards gives two empty mappings)."""

    cards: Mapping[str, Any]
    left_out: Mapping[str, str]


@runtime_checkable
class GamePlugin(Protocol):
    """What a game gives the engine (``Plugin`` below is the ready-made way to give it)."""

    id: str
    """The game's id, as in its ``game.json``."""
    setup_keys: frozenset[str]
    """Keys a scenario's ``setup`` may use; any other is refused."""
    expectations: type[Expectation]
    """The keys a scenario's ``expect`` may use, typed: a subclass of ``engine.expectations.Expectation``
    (any other key, a value of another type or an id the game lacks is refused before a scenario runs)."""
    vocabulary: dict[str, frozenset[str]]
    """The game's effect vocabulary by part (``when``, ``while``, ``do``…): names cards may use."""
    handlers: dict[str, frozenset[str]]
    """The names the game's interpreter handles, by the same parts; a name missing here is never played."""

    def configurations(self, db: Any) -> tuple[list[Any], list[str]]:
        """The playable configurations (each with ``selection``, ``players``, ``label``) and what waits for later."""

    def rules_for(self, db: Any, config: Any) -> tuple[Any, Catalogue]:
        """The rules of a configuration and its ``Catalogue`` (``cards``: the designs it plays; ``left_out``:
        design id → reason; ``check`` reads both to tell which cards no configuration plays)."""

    def new_game(self, db: Any, config: Any, rng: random.Random) -> tuple[Any, Any]:
        """The rules and a new game's state, its chance drawn from ``rng``."""

    def scenario_state(self, db: Any, setup: dict[str, Any]) -> tuple[Any, Any]:
        """The rules and a scenario's explicit starting position (``SetupRefused`` for a forbidden one)."""

    def check_setup(self, db: Any, selection: str | None, players: int | None) -> None:
        """Raise ``SetupRefused`` when the rules forbid this selection or player count."""

    def parse_action(self, text: str) -> Any:
        """The action written ``text`` in the game's notation."""

    simulation: Simulation | None
    """What ``cardworks simulate`` needs to play the game; None when its engine does not play whole games."""
    rendering: Rendering
    """What the renderer asks of the game beyond its data (its own rulebook sections, piece symbols)."""
    models: dict[str, type]
    """The game's own document models by file kind (``Plugin.models``)."""
    validate: Callable[[Any, Any], None] | None
    """The game's own checks, ``validate(index, problems)``, or None."""
    sheet_layout: Callable[[Any], Any] | None
    """The score sheet's rows, for a game that prints one, or None."""
    missing_features: dict[str, tuple[str, tuple[str, ...]]]
    """Feature id → (what the engine lacks, rulings that need it)."""
    hidden: Hidden | None
    """What the rules hide and where the dump keeps it (``Plugin.hidden``)."""
    owner_unknowns: Callable[[Any], list[Any]] | None
    """The values no source gives that an owner may read from their copy, or None."""
    data: Path | None
    """The game's own data folder, or None for the shipped database's ``cards/<id>``."""


@dataclass(frozen=True)
class Plugin:
    """A game plugin made of the functions of the game's package."""

    id: str
    configurations: Callable[[Any], tuple[list[Any], list[str]]]
    rules_for: Callable[[Any, Any], tuple[Any, Any]]
    new_game: Callable[[Any, Any, random.Random], tuple[Any, Any]]
    scenario_state: Callable[[Any, dict[str, Any]], tuple[Any, Any]]
    check_setup: Callable[[Any, str | None, int | None], None]
    parse_action: Callable[[str], Any]
    setup_keys: frozenset[str]
    expectations: type[Expectation] = Expectation
    """What a scenario may expect (``GamePlugin.expectations``); left out, only the keys every game has, so a
    scenario expecting anything of the game's own is refused until the game declares it."""
    vocabulary: dict[str, frozenset[str]] = field(default_factory=dict)
    handlers: dict[str, frozenset[str]] = field(default_factory=dict)
    models: dict[str, type] = field(default_factory=dict)
    """The game's own document models by file kind (``set``, ``board``…): they type what the generic models
    leave to the game (effects, bonuses, scoring); ``schema/<game>/`` is generated from them."""
    validate: Callable[[Any, Any], None] | None = None
    """``validate(index, problems)``: the game's own checks (its documents against ``models``, references
    inside effects), run by ``cardworks validate``."""
    sheet_layout: Callable[[Any], Any] | None = None
    """The score sheet's rows, for games that print one (the renderer asks)."""
    missing_features: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    """Feature id → (what the engine lacks, rulings that need it): why those rulings have no scenario yet."""
    simulation: Simulation | None = None
    """What ``cardworks simulate`` needs; None when the game's engine does not play whole games."""
    rendering: Rendering = Rendering()
    """What the renderer asks of the game beyond its data; by default nothing (only the generic sections)."""
    hidden: Hidden | None = None
    """What the rules hide and where the dump keeps it; None until the game declares it (the contract tests
    then fail: a game that hides cards must say where, so its observations can be tested)."""
    owner_unknowns: Callable[[Any], list[Any]] | None = None
    """``owner_unknowns(index)``: the values of the game no source gives that an owner may read from their own
    copy (``engine.unknowns`` builds them), one row each of ``cardworks facts export``; None: the game asks none."""
    data: Path | None = None
    """The game's own data folder (its ``game.json``…), for a game whose data lives beside its package; None:
    the shipped database's ``cards/<id>`` (see :func:`data_folder`)."""

    @classmethod
    def of(cls, id: str, game: Any, parse_action: Callable[[str], Any], **more: Any) -> "Plugin":
        """The plugin of a game whose setup module ``game`` has the usual functions (``configurations``,
        ``rules_for``, ``new_game``, ``scenario_state``, ``check_setup``) and ``SETUP_KEYS``."""
        return cls(id=id, configurations=game.configurations, rules_for=game.rules_for, new_game=game.new_game,
                   scenario_state=game.scenario_state, check_setup=game.check_setup, parse_action=parse_action,
                   setup_keys=game.SETUP_KEYS, **more)


class PluginError(DeveloperError, TypeError):
    """A registered game plugin does not keep to ``GamePlugin``."""

    code = "plugin-contract"


_REGISTRY: dict[str, GamePlugin] = {}


def registered() -> dict[str, GamePlugin]:
    """Every game plugin by id: cardworks' own, then those other distributions declare under ``ENTRY_POINT_GROUP``
    (``plugin_registry.NotInstalled`` when cardworks' own are not registered)."""
    if not _REGISTRY:
        found: dict[str, GamePlugin] = {}
        for game in plugin_registry.own_games():
            plugin = plugin_registry.own_plugin(game)
            found.setdefault(_checked(plugin).id, plugin)
        for plugin in checked_entry_points(plugin_registry.loaded_entry_points()):
            found.setdefault(plugin.id, plugin)  # cardworks' own game is not replaced from outside
        _REGISTRY.update(sorted(found.items()))
    return _REGISTRY


def checked_entry_points(loaded: list[tuple[Any, Any]]) -> list[GamePlugin]:
    """The plugins of ``loaded`` (entry point, plugin) that keep to ``GamePlugin``; any other is another
    distribution's mistake: it is left out and said (``plugin_registry.broken_plugins``), the other games work."""
    good = []
    for point, plugin in loaded:
        try:
            good.append(_checked(plugin))
        except PluginError as exc:
            plugin_registry.left_out(point, exc)
    return good


def plugin_of(game: str) -> GamePlugin | None:
    """The plugin of ``game``, or None. One of cardworks' own games has its package imported alone: importing
    every game costs about 0.7 s, paid by each command that validates or builds one game."""
    if _REGISTRY or game not in plugin_registry.own_points():
        return registered().get(game)
    return _checked(plugin_registry.plugin_of(game))


def plugin_for(game: str) -> GamePlugin:
    """The plugin of ``game`` (:func:`plugin_of`); UsageError when no registered plugin plays it."""
    plugin = plugin_of(game)
    if plugin is None:
        broken = [b for b in plugin_registry.broken_plugins() if b.name == game]
        failed = f" (its plugin {broken[0].entry_point!r} of {broken[0].distribution} failed to load: " \
                 f"{broken[0].error})" if broken else ""
        raise UsageError(f"the engine does not play {game!r}{failed}; it plays {', '.join(registered())}")
    return plugin


def data_folder(plugin: GamePlugin) -> Path:
    """Where ``plugin``'s game keeps its data: the folder it names (a game from another distribution), else
    the shipped database's folder of that id."""
    return Path(plugin.data) if plugin.data is not None else data_dir("cards") / plugin.id


def _checked(plugin: Any) -> GamePlugin:
    """``plugin`` itself, once it is known to keep to ``GamePlugin`` and its id can name its package."""
    if not isinstance(plugin, GamePlugin):
        raise PluginError(f"{plugin!r} is registered as a game but is not a GamePlugin")
    if not (isinstance(plugin.id, str) and plugin.id.isidentifier() and plugin.id.isascii()
            and plugin.id.islower() and not keyword.iskeyword(plugin.id)):
        raise PluginError(f"game id {plugin.id!r} is not an importable name: a game's id names its package "
                          "(cardworks.games.<id>, or the module its entry point loads), so it is lowercase ASCII "
                          "letters, digits and underscores, not starting with a digit (e.g. 'my_game')")
    if not (isinstance(plugin.expectations, type) and issubclass(plugin.expectations, Expectation)):
        raise PluginError(f"game {plugin.id!r}: its expectations {plugin.expectations!r} are not an Expectation model")
    if not isinstance(plugin.rendering, Rendering):
        raise PluginError(f"game {plugin.id!r}: its rendering {plugin.rendering!r} is not a Rendering")
    return plugin
