"""The engine contract's behavioural checks, as functions over positions, so they can run both over every
registered game (``test_contract.py``) and over a fixture game that breaks each of them
(``test_contract_fixture.py``, which shows each check failing on its mistake).

Each check raises AssertionError naming the position and what is wrong; none asks the game whether it keeps
the contract (``hidden_leak`` is not consulted): candidates, twins and patched randomness are made here.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import secrets
import sys
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, NamedTuple

import numpy.random as numpy_random  # imported before any patch: its import seeds a generator from the machine

from cardworks.engine.core import IllegalActionError, SetupRefused


class Position(NamedTuple):
    """A position to check: its rules, state and where it came from (a scenario id, or configuration and step)."""

    rules: Any
    state: Any
    where: str


class Scenario(NamedTuple):
    id: str
    setup: dict[str, Any]
    refused: str | None = None


def scenario_positions(plugin: Any, db: Any, scenarios: list[Scenario]) -> list[Position]:
    """Every scenario's starting position. A setup that raises is a failure (never skipped), except the
    refusal the scenario itself expects."""
    found = []
    for scenario in scenarios:
        try:
            rules, state = plugin.scenario_state(db, scenario.setup)
        except SetupRefused as exc:
            assert scenario.refused == exc.rule, f"scenario {scenario.id}: setup refused unexpectedly: {exc}"
            continue
        except Exception as exc:  # noqa: BLE001 - any failure of a setup is a contract failure
            raise AssertionError(f"scenario {scenario.id}: setup raised {type(exc).__name__}: {exc}") from exc
        assert not scenario.refused, f"scenario {scenario.id}: expected refused by {scenario.refused!r}, accepted"
        found.append(Position(rules, state, f"scenario {scenario.id}"))
    return found


def playout_positions(plugin: Any, db: Any, configs: list[Any], *, steps: int, every: int = 1,
                      seed: int = 0) -> list[Position]:
    """Positions reached by one seeded random game per configuration: its start and every ``every``-th of
    its first ``steps`` steps (chance included, drawn from a seeded rng)."""
    found = []
    for number, config in enumerate(configs):
        rules, state = plugin.new_game(db, config, random.Random(seed + number))
        rng = random.Random(seed + number + 100)
        for step in range(steps + 1):
            if step % every == 0:
                found.append(Position(rules, state, f"{config.label} seed {seed + number} step {step}"))
            legal = rules.legal_actions(state)
            if not legal:
                break
            state = rules.apply(state, rng.choice(legal), rng=rng)
    return found


# -- legal actions -----------------------------------------------------------------------------------------

def check_legal_actions_sorted_and_stable(positions: list[Position]) -> None:
    """``legal_actions`` is sorted by notation and gives the same list on every call."""
    for rules, state, where in positions:
        first = rules.legal_actions(state)
        texts = [a.notation() for a in first]
        assert texts == sorted(texts), f"{where}: legal actions not sorted by notation: {texts[:6]}"
        for _ in range(2):
            again = rules.legal_actions(state)
            assert again == first and [a.notation() for a in again] == texts, \
                f"{where}: legal_actions changed between two calls"


PLAYER = re.compile(r"^p\d+$")


def _shape(token: str) -> str:
    if PLAYER.match(token):
        return "player"
    if "#" in token:
        return "card"
    if token.isdigit():
        return "number"
    return "word"


def _pools(positions: list[Position]) -> dict[int, tuple[dict[str, set[str]], set[str]]]:
    """For each rules object (one game configuration): the notation tokens seen in its legal actions, by
    shape, and every notation legal somewhere in its positions."""
    pools: dict[int, tuple[dict[str, set[str]], set[str]]] = {}
    for rules, state, _ in positions:
        tokens, elsewhere = pools.setdefault(id(rules), ({"player": set(), "card": set(), "number": set(),
                                                          "word": set()}, set()))
        for action in rules.legal_actions(state):
            text = action.notation()
            elsewhere.add(text)
            for token in text.split():
                tokens[_shape(token)].add(token)
    for tokens, _ in pools.values():
        players = sorted(tokens["player"], key=lambda p: int(p[1:]))
        if players:  # one seat past the table, too: an unknown player is refused like any other
            tokens["player"].add(f"p{int(players[-1][1:]) + 1}")
    return pools


def illegal_candidates(pool: tuple[dict[str, set[str]], set[str]], position: Position, rng: random.Random,
                       limit: int) -> list[str]:
    """Notations of actions changed from legal ones: another player (out of turn, or a wrong target), a card
    not in that hand, another number or word, and actions legal at another moment of the same game."""
    rules, state, _ = position
    tokens_by_shape, elsewhere = pool
    legal = [a.notation() for a in rules.legal_actions(state)]
    candidates = set()
    for text in legal:
        tokens = text.split()
        for index, token in enumerate(tokens):
            for other in tokens_by_shape[_shape(token)] - {token}:
                candidates.add(" ".join(tokens[:index] + [other] + tokens[index + 1:]))
    candidates |= elsewhere
    candidates -= set(legal)
    chosen = sorted(candidates)
    rng.shuffle(chosen)
    return chosen[:limit]


def check_illegal_actions_refused(plugin: Any, positions: list[Position], *, per_position: int = 12,
                                  seed: int = 0) -> int:
    """Every changed candidate that is not among the legal actions is refused with IllegalActionError (a
    notation the game cannot parse is no action, so it is not tried). Returns how many were tried."""
    rng = random.Random(seed)
    tried = 0
    pools = _pools(positions)
    for position in positions:
        rules, state, where = position
        legal = set(rules.legal_actions(state))
        for text in illegal_candidates(pools[id(rules)], position, rng, per_position):
            try:
                action = plugin.parse_action(text)
            except (ValueError, KeyError, IndexError):
                continue
            if action in legal:  # another spelling of a legal action (figures in another order)
                continue
            tried += 1
            try:
                rules.apply(state, action, rng=random.Random(0))
            except IllegalActionError:
                continue
            except Exception as exc:  # noqa: BLE001
                raise AssertionError(f"{where}: {text!r} is not legal and raised {type(exc).__name__}: {exc} "
                                     "instead of IllegalActionError") from exc
            raise AssertionError(f"{where}: {text!r} is not among the legal actions, but apply accepted it")
    return tried


# -- apply ------------------------------------------------------------------------------------------------

def check_apply_leaves_its_input_alone(positions: list[Position], *, per_position: int = 3, seed: int = 0) -> None:
    """``apply`` returns a new state and never changes the one it was given (compared with a deep copy and
    with its dump)."""
    rng = random.Random(seed)
    for rules, state, where in positions:
        legal = rules.legal_actions(state)
        for action in rng.sample(legal, min(per_position, len(legal))):
            before, dumped = copy.deepcopy(state), json.dumps(rules.dump(state), sort_keys=True)
            rules.apply(state, action, rng=random.Random(0))
            assert state == before and json.dumps(rules.dump(state), sort_keys=True) == dumped, \
                f"{where}: applying {action.notation()!r} changed its input state"


class GlobalChance(AssertionError):
    """Module-level randomness or the clock was used where the contract forbids it."""


_USED: list[str] = []
"""What was refused inside ``no_global_chance`` (kept even when the game swallows the exception)."""


def _refuse(name: str):
    def refuse(*args: Any, **kwargs: Any) -> Any:
        _USED.append(name)
        raise GlobalChance(f"{name} used inside the game")
    return refuse


_RANDOM_METHODS = ("random", "getrandbits", "_randbelow", "seed", "randrange", "randint", "choice", "choices",
                   "shuffle", "sample", "uniform", "gauss", "betavariate", "expovariate", "triangular", "randbytes",
                   "normalvariate", "lognormvariate", "vonmisesvariate", "gammavariate", "paretovariate",
                   "weibullvariate", "getstate", "setstate", "binomialvariate")
_TIME_FUNCTIONS = ("time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
                   "process_time", "process_time_ns", "localtime", "gmtime", "ctime", "asctime", "strftime")
_SECRETS_FUNCTIONS = ("token_bytes", "token_hex", "token_urlsafe", "choice", "randbelow", "randbits")


@contextmanager
def no_global_chance(*packages: str) -> Iterator[list[str]]:
    """Inside: ``random``'s module functions and shared instance, an unseeded ``random.Random``, the clock,
    ``os.urandom`` and ``secrets`` raise GlobalChance, whoever calls them: names a module of ``packages``
    imported from them (``from random import shuffle``) are replaced too, and so is a generator such a module
    keeps (``RNG = random.Random(0)``: seeded, but shared between games, so a game would not replay). Certain, not probabilistic. Yields
    the list of what was used, for code that catches the exception."""
    import random as random_module

    _USED.clear()

    undo: list[tuple[Any, str, Any, bool]] = []

    def patch(owner: Any, name: str, value: Any) -> None:
        had = name in vars(owner) if not isinstance(owner, random_module.Random) else name in owner.__dict__
        undo.append((owner, name, getattr(owner, name, None), had))
        setattr(owner, name, value)

    shared = random_module._inst  # the instance behind random.random(), random.shuffle()…
    originals = {}
    for name in _RANDOM_METHODS:
        if hasattr(random_module, name) or hasattr(shared, name):
            if hasattr(random_module, name):
                originals[id(getattr(random_module, name))] = f"random.{name}"
                patch(random_module, name, _refuse(f"random.{name}"))
            patch(shared, name, _refuse(f"random.{name}"))
    seed = random_module.Random.seed

    def seeded_only(self: Any, a: Any = None, version: int = 2) -> None:
        if a is None:
            _USED.append("random.Random() without a seed")
            raise GlobalChance("random.Random() without a seed used inside the game")
        seed(self, a, version)

    patch(random_module.Random, "seed", seeded_only)
    for name in _TIME_FUNCTIONS:
        originals[id(getattr(time, name))] = f"time.{name}"
        patch(time, name, _refuse(f"time.{name}"))
    originals[id(os.urandom)] = "os.urandom"
    patch(os, "urandom", _refuse("os.urandom"))
    for name in _SECRETS_FUNCTIONS:
        originals[id(getattr(secrets, name))] = f"secrets.{name}"
        patch(secrets, name, _refuse(f"secrets.{name}"))
    patch(random_module.SystemRandom, "random", _refuse("random.SystemRandom"))
    patch(random_module.SystemRandom, "getrandbits", _refuse("random.SystemRandom"))
    _patch_numpy(patch, originals)
    for module_name, module in list(sys.modules.items()):  # names bound by "from random import …"
        if module is None or not module_name.startswith(packages):
            continue
        for name, value in list(vars(module).items()):
            if id(value) in originals and not isinstance(value, type(sys)):
                patch(module, name, _refuse(originals[id(value)]))
            elif isinstance(value, random_module.Random) and value is not shared:  # a generator kept at module level
                for method in ("random", "getrandbits", "_randbelow", "seed"):
                    patch(value, method, _refuse(f"{module_name}.{name}, a random.Random kept at module level"))
    try:
        yield _USED
    finally:
        for owner, name, value, had in reversed(undo):
            if had:
                setattr(owner, name, value)
            else:
                delattr(owner, name)


def _patch_numpy(patch: Callable[[Any, str, Any], None], originals: dict[int, str]) -> None:
    """numpy's global generator (``numpy.random.shuffle``, ``.random``, ``.seed``… all draw from one shared
    ``RandomState``) and an unseeded ``numpy.random.default_rng()`` refuse, as ``random``'s do. (The class
    ``RandomState`` itself is left: numpy's own code tests instances against it, so it cannot be replaced.)"""
    shared = numpy_random.mtrand._rand
    names = [name for name in dir(numpy_random) if getattr(getattr(numpy_random, name), "__self__", None) is shared]
    for name in {*names, "seed", "ranf", "sample"} & set(dir(numpy_random)):
        originals[id(getattr(numpy_random, name))] = f"numpy.random.{name}"
        patch(numpy_random, name, _refuse(f"numpy.random.{name}"))
    made = numpy_random.default_rng
    originals[id(made)] = "numpy.random.default_rng"
    patch(numpy_random, "default_rng", _seeded(made, "numpy.random.default_rng() without a seed"))


def _seeded(make: Callable[..., Any], what: str) -> Callable[..., Any]:
    def seeded_only(seed: Any = None, *args: Any, **kwargs: Any) -> Any:
        if seed is None:
            _USED.append(what)
            raise GlobalChance(f"{what} used inside the game")
        return make(seed, *args, **kwargs)

    return seeded_only


def check_no_global_chance(plugin: Any, db: Any, configs: list[Any], positions: list[Position], *,
                           packages: tuple[str, ...] = ("cardworks",), per_position: int = 2, seed: int = 0) -> None:
    """``new_game``, ``apply`` and ``observe`` draw chance only from the rng they are given: with every global
    source patched to raise, they still run."""
    rng = random.Random(seed)
    for config in configs:
        try:
            with no_global_chance(*packages) as used:
                plugin.new_game(db, config, random.Random(seed))
        except GlobalChance as exc:
            raise AssertionError(f"new_game {config.label}: {exc}") from None
        assert not used, f"new_game {config.label}: {used[0]} used inside the game (its exception was caught)"
    for rules, state, where in positions:
        legal = rules.legal_actions(state)
        chosen = rng.sample(legal, min(per_position, len(legal)))
        players = _players(rules, state)
        try:
            with no_global_chance(*packages) as used:
                for action in chosen:
                    rules.apply(state, action, rng=random.Random(seed))
                for viewer in range(players):
                    rules.observe(state, viewer)
        except GlobalChance as exc:
            raise AssertionError(f"{where}: {exc}") from None
        assert not used, f"{where}: {used[0]} used inside the game (its exception was caught)"


# -- observations -----------------------------------------------------------------------------------------

def _players(rules: Any, state: Any) -> int:
    count = getattr(rules, "players", None)
    if isinstance(count, int):
        return count
    return len(rules.observe(state, 0).get("hand_sizes", [])) or 1


def twins(rules: Any, state: Any, hidden: Any, viewer: int, rng: random.Random, count: int) -> list[Any]:
    """States that differ from ``state`` only in what ``viewer`` may not see: the card instances of the other
    players' private zones and of the secret zones dealt among those zones again, each zone keeping its size
    (and its order, when it is kept sorted)."""
    dumped = rules.dump(state)
    zones = [(key, owner) for key in hidden.private for owner in range(len(dumped[key])) if owner != viewer]
    zones += [(key, None) for key in hidden.secret]
    contents = [dumped[key] if owner is None else dumped[key][owner] for key, owner in zones]
    unseen = [i for zone in contents for i in zone]
    found = []
    for _ in range(count):
        dealt = list(unseen)
        rng.shuffle(dealt)
        twin, start = copy.deepcopy(dumped), 0
        for (key, owner), zone in zip(zones, contents):
            part = dealt[start:start + len(zone)]
            start += len(zone)
            if owner is not None and list(zone) == sorted(zone):
                part.sort()
            if owner is None:
                twin[key] = part
            else:
                twin[key][owner] = part
        if twin != dumped:
            found.append(rules.load(twin))
    return found


def check_observations_hide_what_the_rules_hide(plugin: Any, positions: list[Position], *, per_viewer: int = 2,
                                                seed: int = 0) -> int:
    """Two states that differ only in what an observer may not see (``plugin.hidden`` says where the dump
    keeps it) give that observer equal observations. Returns how many twins were compared."""
    hidden = getattr(plugin, "hidden", None)
    assert hidden is not None, f"{plugin.id}: the plugin does not declare what its rules hide (Plugin.hidden)"
    rng = random.Random(seed)
    compared = 0
    for rules, state, where in positions:
        for viewer in range(_players(rules, state)):
            seen = json.dumps(rules.observe(state, viewer), sort_keys=True)
            for twin in twins(rules, state, hidden, viewer, rng, per_viewer):
                compared += 1
                assert json.dumps(rules.observe(twin, viewer), sort_keys=True) == seen, \
                    f"{where}: p{viewer + 1}'s observation changes with cards hidden from them"
    return compared


PLAYER_KEYS = frozenset({
    "you", "current", "first", "passive", "winner", "winners", "leader", "attacker", "target", "called", "owner",
    "cameras", "order", "player", "seat", "active", "dealer",
})
"""Keys that name players in an observation, in any game: their values (and everything under them) name each
player as scenarios do (``p1``…), never by a seat number."""


def _numbered_players(value: Any, at: str, under_player: bool = False) -> Iterator[str]:
    """The paths under a player key that hold a number (a bool is a flag, not a seat)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _numbered_players(item, f"{at}.{key}", under_player or key in PLAYER_KEYS)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _numbered_players(item, f"{at}.{index}", under_player)
    elif under_player and isinstance(value, int) and not isinstance(value, bool):
        yield f"{at} = {value}"


def check_observations_name_players_as_scenarios_do(positions: list[Position]) -> int:
    """Every player's observation names players ``p1``…, as expectations and setups write them: ``you`` is the
    viewer's own name and no value under a player key (:data:`PLAYER_KEYS`) is a number. Returns how many
    observations were read."""
    read = 0
    for rules, state, where in positions:
        for viewer in range(_players(rules, state)):
            seen = rules.observe(state, viewer)
            read += 1
            assert seen.get("you", f"p{viewer + 1}") == f"p{viewer + 1}", \
                f"{where}: p{viewer + 1}'s observation says you are {seen['you']!r}"
            numbered = list(_numbered_players(seen, "observation"))
            assert not numbered, f"{where}: p{viewer + 1}'s observation names players by number: {numbered[:3]}"
    return read


# -- dump and load ----------------------------------------------------------------------------------------

def check_dump_load_round_trip(positions: list[Position]) -> None:
    """Every position survives ``dump``, JSON and ``load`` unchanged, and dumps again to the same JSON."""
    for rules, state, where in positions:
        text = json.dumps(rules.dump(state), sort_keys=True)
        loaded = rules.load(json.loads(text))
        assert loaded == state, f"{where}: the state does not survive dump/load"
        assert json.dumps(rules.dump(loaded), sort_keys=True) == text, f"{where}: the reloaded state dumps differently"


def check_catalogues(plugin: Any, db: Any, configs: list[Any]) -> None:
    """Every configuration's catalogue is a ``Catalogue``: ``cards`` maps design ids to what the rules play,
    ``left_out`` design ids to a stated reason, and no design is both (``check`` reads them for every game)."""
    from cardworks.engine.plugins import Catalogue

    for config in configs:
        _, catalogue = plugin.rules_for(db, config)
        where = getattr(config, "label", config)
        assert isinstance(catalogue, Catalogue), f"{where}: rules_for gave {type(catalogue).__name__}, not a catalogue " \
                                                 "with cards and left_out"
        assert all(isinstance(k, str) for k in catalogue.cards), f"{where}: a catalogue's cards are keyed by design id"
        assert all(isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in catalogue.left_out.items()), \
            f"{where}: a left-out design without a stated reason"
        both = set(catalogue.cards) & set(catalogue.left_out)
        assert not both, f"{where}: designs both played and left out: {sorted(both)[:5]}"


def check_all(plugin: Any, db: Any, scenarios: list[Scenario], configs: list[Any], *, steps: int = 40,
              packages: tuple[str, ...] = ("cardworks",)) -> list[Position]:
    """The whole behavioural contract over the game's scenario starts and seeded playout positions; returns
    the positions checked (AssertionError at the first broken check)."""
    check_catalogues(plugin, db, configs)
    positions = scenario_positions(plugin, db, scenarios) + playout_positions(plugin, db, configs, steps=steps)
    check_legal_actions_sorted_and_stable(positions)
    check_illegal_actions_refused(plugin, positions)
    check_apply_leaves_its_input_alone(positions)
    check_no_global_chance(plugin, db, configs, positions, packages=packages)
    check_observations_hide_what_the_rules_hide(plugin, positions)
    check_dump_load_round_trip(positions)
    return positions
