"""Measure the verdicts themselves: plant cards of known strength into a fixture pack and count the answers.

Run: python bench/calibrate_verdicts.py [--games auto|N] [--seeds 1-10|1,2,5] [--agent random] [--workers 2]
                                        [--sweep-values 0,1,2,3,4,5,6,8,10] [--sweep-games 3200] [--no-sweep]
                                        [--log-games 20] [--sweep-only] [--measure DIR] [--from-figures DIR]
                                        [--budget 50] [--battles GAMES] [--spending GAMES]

Seeds may be split over processes: ``--seeds 1,2 --no-sweep --measure DIR`` in one, ``--seeds 3,4 --no-sweep
--measure DIR`` in another, then ``--from-figures DIR --seeds 1-4 --no-sweep`` prints the confusion table of all
four from the saved figures without playing a game.

The pack (written to a temporary folder, played on the fixture database tests/fixtures/cards) holds:

- plain twins of base cards (the same stats and effects under another id, cagallo's 0/0 among them; the stats
  as the game plays them, the fixture's assumptions applied, since most base battle cards print none): they must
  come out *in line* or *not decided*, never *strong* or *weak*;
- clearly overpowered cards: a battle card with attack and defence 10 that also draws its user three cards
  whenever it is used (``op-battle``), a treasure that draws three cards at the start of each of its holder's
  turns, one that gives three more actions a turn (the base deck's allioli persistent already gives one more):
  they must come out *strong* or *decides games* in at least 95% of the seeds at the default budget. ``op-attack``,
  attack and defence 10 alone, stays in the table as a probe: no base defence is above 4 and one base attack is
  6, so an attack of 5 or more already wins every battle it can (greedy's odds are the same for every attack
  from 5 to 10: no cap, the deck has no defence between), and greedy play measures it 0.5 to 2 points above the
  strongest base battle card, not shown strong (docs/simulate.md, "A card that wins every battle");
- clearly weak cards: ``weak-hand``, a battle card at the floor of both stats (0/0: the game's stats run from 0,
  and the base deck's cagallo is 0/0 already, so no battle card can be lower on a number) whose use costs its user
  the whole hand; ``weak-discard``, a treasure that makes its holder discard two cards at the start of each turn;
  ``weak-sell-curse``, a sellable worth nothing that, while held, takes 10 from its holder's battle cards' stats and
  their hand at every turn's start: they must come out *weak*. ``weak-sell``, a sellable worth nothing (sell 0:
  sold, it draws no card), is weak by construction too but is expected to stay *not decided*: the sellable band is
  thin (two base sellables) and against a thin band only an effect beyond +-10 points is decided; its goal is
  never to come out strong, decides or in line, and the bench says so.

No weak ingredient is planted. An ingredient is a step to the win for whoever holds it, so every player fights
for it and it changes hands in battles: a drawback it carries falls on whoever holds it at the time, and its
paired effect (its holder's wins against the twin game's) mixes the drawback with what holding one more
ingredient is worth. One planted that way (a round before this one) came out *in line* at 9 seeds of 10. A card
weak by construction must cost its holder and give nothing a rival would take it for; no ingredient does.

Every seed plays paired games of the base deck with the pack: ``--games auto`` (the default budget: simulate's
``--games auto``, looks up to 3,200 games, stopping when every card is decided) or a fixed number; the confusion
table counts, per planted card and per kind, the seeds at which each answer came out. Then a sweep of the twin
battle card's attack (seed 1, ``--sweep-games`` games a value, played as ``simulate --sweep`` plays it: the band
measured once) names the values at which it is in line: the goal is a contiguous range of them that excludes the
overpowered value (10). Goals are printed as met or NOT MET, each with its counts.

``--battles GAMES`` logs every battle of op-attack and tombatossals; ``--spending GAMES`` plays GAMES games with
``--agent`` seats (``mcts`` at ``--budget`` iterations a decision) and counts, at each decision at which either card
could attack or defend, whether the seat used it and whether greedy, asked the same decision, would have.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from cardworks.simulate.agents import DEFAULT_BUDGET, parse_agents  # noqa: E402
from cardworks.simulate.executors import simulate  # noqa: E402
from cardworks.simulate.figures import figures  # noqa: E402
from cardworks.simulate.sequential import MAX_GAMES, play_until_decided  # noqa: E402
from cardworks.simulate.sweep import shared_band, sweep_specs  # noqa: E402
from cardworks.simulate.tables import TableSpec, build_table  # noqa: E402

CARDS = REPO / "tests" / "fixtures" / "cards"
TWINS = {"twin-capita": "el-capita-moro", "twin-delica": "la-delica-de-gandia", "twin-taronger": "taronger-putrefacte",
         "twin-conill": "conill", "twin-cagallo": "cagallo"}
"""Planted id → the base card it copies."""
SOURCE = [{"doc": "fallera-base", "section": "Battle Cards", "lines": "24", "certainty": "inferred",
           "note": "A card planted by bench/calibrate_verdicts.py."}]
OVERPOWERED = {
    "op-attack": {"types": ["battle"], "stats": {"attack": 10, "defence": 10}},
    "op-battle": {"types": ["battle"], "stats": {"attack": 10, "defence": 10},
                  "rules": "Whenever you use this card, draw three cards.",
                  "effects": [{"when": {"event": "card-used", "cards": ["op-battle"]}, "do": [{"verb": "draw", "count": 3}]}]},
    "op-draw": {"types": ["treasure"], "attributes": {"treasure-kind": "other"}, "rules": "Draw three a turn.",
                "effects": [{"when": {"event": "turn-start"}, "while": [{"is": "on-your-counter"}],
                             "do": [{"verb": "draw", "count": 3}]}]},
    "op-actions": {"types": ["treasure"], "attributes": {"treasure-kind": "other"}, "rules": "Four actions a turn.",
                   "effects": [{"while": [{"is": "on-your-counter"}], "do": [{"verb": "actions-per-turn", "count": 4}]}]},
}
HAND = {"verb": "discard", "count": 10, "players": "you"}
"""Discard ten cards: the whole hand (a hand of this game seldom holds more; ten is the most a verb may name)."""
EVERY_BATTLE_CARD = "every-battle-card"
"""Stands, in a planted ``modify-stat``, for every battle card of the table; ``write_pack`` names them."""
WEAK = {"weak-hand": {"types": ["battle"], "stats": {"attack": 0, "defence": 0},
                     "rules": "Whenever you use this card, discard your hand (ten cards).",
                     "effects": [{"when": {"event": "card-used", "cards": ["weak-hand"]}, "do": [HAND]}]},
        "weak-discard": {"types": ["treasure"], "attributes": {"treasure-kind": "other"},
                         "rules": "At the start of your turn, discard two cards.",
                         "effects": [{"when": {"event": "turn-start"}, "while": [{"is": "on-your-counter"}],
                                      "do": [{"verb": "discard", "count": 2, "players": "you"}]}]},
        "weak-sell": {"types": ["treasure"], "attributes": {"treasure-kind": "sellable"}, "stats": {"sell": 0}},
        "weak-sell-curse": {"types": ["treasure"], "attributes": {"treasure-kind": "sellable"}, "stats": {"sell": 0},
                            "rules": "While this card is on your counter, your battle cards have 10 less attack and "
                                     "defence, and at the start of your turn you discard your hand (ten cards).",
                            "effects": [{"when": {"event": "turn-start"}, "while": [{"is": "on-your-counter"}],
                                         "do": [HAND]},
                                        {"while": [{"is": "on-your-counter"}],
                                         "do": [{"verb": "modify-stat", "cards": [EVERY_BATTLE_CARD], "attack": -10,
                                                 "defence": -10}]}]}}
"""``weak-hand``: a 0/0 battle card whose use costs its user the whole hand; it replaced ``weak-battle`` (0/0,
discard two when used: about -1.5 points, too close to the weakest base battle cards, weak at 1 seed of 10).
``weak-sell``: a sellable worth nothing (sold, it draws no card), weak by construction against its twin, the base
deck's plain sellable, which draws cards when sold; about -2 points, and the sellable band is thin (see
``THIN_BAND``). ``weak-sell-curse``: a sellable worth nothing that, while its holder keeps it, takes 10 from their
battle cards' stats (no base attack or defence is above 6: they win no battle defended, keep no treasure attacked)
and their hand at every turn's start (a base battle card of theirs then wins no defended battle and keeps no
attacked treasure: no base attack or defence is above 6): weak beyond the +-10 points a thin band asks for."""
THIN_BAND = {"weak-sell": "the sellable band is thin (the rulebooks give the fixture base deck two sellables, fewer "
                          "than 3) and against a thin band only an effect beyond +-10 points is decided; a sellable "
                          "worth 0 costs about 2 to 3"}
"""Weak plants expected to stay *not decided*, and why: their goal is never to come out strong, decides or in line."""
KIND = {**{c: "plain twin" for c in TWINS}, **{c: "overpowered" for c in OVERPOWERED}, **{c: "weak" for c in WEAK}}
ANSWERS = ("in line", "strong", "weak", "decides", "strong+decides", "not decided", "not judged")
SWEPT = "twin-capita"


def write_pack(folder: Path) -> Path:
    """The planted pack, written into ``folder``."""
    base = {c["id"]: c for c in json.loads((CARDS / "fallera" / "sets" / "base.json").read_text())["cards"]}
    played = build_table(TableSpec(str(CARDS), "fallera", "base", 4, (), 5000)).cards  # assumptions applied
    cards = []
    for planted, original in TWINS.items():
        card = {k: copy.deepcopy(v) for k, v in base[original].items()
                if k in ("types", "attributes", "stats", "effects", "rules")}
        card.update(id=planted, quantity=1, name=f"twin of {original}", sources=SOURCE)
        for effect in card.get("effects", []):  # a terreta's bonus names its own cards: a restatement, not play
            effect["do"] = [verb for verb in effect["do"] if verb["verb"] != "restates-terreta-bonus"]
        card["effects"] = [effect for effect in card.get("effects", []) if effect["do"]]
        if not card["effects"]:  # a plain card: its rules text would only restate the bonus
            del card["effects"]
            card.pop("rules", None)
        if card.get("stats"):  # as the game plays the original: a printed null is the fixture's assumption
            card["stats"] = {k: getattr(played[original], k) for k in card["stats"]}
            if None in card["stats"].values():
                raise ValueError(f"{original}: no {card['stats']} in the fixture game, assumptions included")
        cards.append(card)
    for planted, body in {**OVERPOWERED, **WEAK}.items():
        cards.append({"id": planted, "quantity": 1, "name": planted, "sources": SOURCE, **copy.deepcopy(body)})
    battle = sorted({c["id"] for c in [*base.values(), *cards] if "battle" in c["types"]})
    for card in cards:
        for verb in (v for effect in card.get("effects", []) for v in effect["do"]):
            if verb.get("cards") == [EVERY_BATTLE_CARD]:
                verb["cards"] = battle
    pack = folder / "calibration-pack"
    (pack / "sets").mkdir(parents=True)
    (pack / "pack.json").write_text(json.dumps({"$schema": str(REPO / "schema" / "pack.schema.json"),
                                                "id": "calibration-pack", "extends": "fallera", "name": "Planted cards",
                                                "version": "0.1", "description": "Cards of known strength."}))
    by_type = Counter(t for c in cards for t in c["types"])
    (pack / "sets" / "calibration.json").write_text(json.dumps({
        "$schema": str(REPO / "schema" / "fallera" / "set.schema.json"), "id": "calibration-set", "name": "Calibration set", "order": 10,
        "totals": {"designs": len(cards), "cards": len(cards), "by_type": dict(by_type)}, "cards": cards}, indent=1))
    return pack


def answer(verdict: dict) -> str:
    flags = verdict["verdict"]
    if flags in (["in line"], ["not decided"], ["not judged"]):
        return flags[0]
    return "+".join(sorted(flags, key=("strong", "weak", "decides").index))


def run(pack: Path, games: int | str, seed: int, agent: str, workers: int, budget: int = DEFAULT_BUDGET) -> dict:
    """One seed's figures: ``games`` paired games, or with ``auto`` the look ``simulate --games auto`` stops at."""
    spec = TableSpec(str(CARDS), "fallera", "base", 4, (str(pack),), 5000, paired=True)
    agents = tuple(parse_agents(agent, 4, budget))
    table, labels = build_table(spec), [a.label for a in agents]
    if games == "auto":
        return play_until_decided(lambda n, done: simulate(spec, agents, n, seed, workers=workers, first=done),
                                  lambda tally, alpha: figures(tally, table, labels, seed, alpha=alpha), MAX_GAMES)
    return figures(simulate(spec, agents, games, seed, workers=workers), table, labels, seed)


def sweep(pack: Path, field: str, values: list[int], games: int, seed: int, agent: str, workers: int,
          budget: int = DEFAULT_BUDGET) -> list:
    """(value, figures) of a sweep of ``SWEPT``'s ``field``, played and judged as ``simulate --sweep`` does."""
    specs = sweep_specs(TableSpec(str(CARDS), "fallera", "base", 4, (str(pack),), 5000), SWEPT, field, values)
    agents = tuple(parse_agents(agent, 4, budget))
    runs = [(value, figures(simulate(spec, agents, games, seed, workers=workers), build_table(spec),
                            [a.label for a in agents], seed)) for value, spec in zip(values, specs)]
    return shared_band(SWEPT, runs)


def _spec(pack: Path) -> TableSpec:
    """The four-player fixture base with ``pack``, as every log of this bench plays it."""
    return TableSpec(str(CARDS), "fallera", "base", 4, (str(pack),), 5000)


@dataclass
class Step:
    """One step of a logged game, before it is played: ``play()`` plays it and gives the position after it."""

    game: int
    number: int
    actor: int
    seat: str
    legal: list
    action: Any
    play: Callable[[], Any]
    seen: Callable[[], Any]


def played_steps(table: Any, agent: str, games: int, seed: int, budget: int = DEFAULT_BUDGET) -> Iterator[Step]:
    """Every step of ``games`` seeded games, with the same loop, seeds and agents as ``runner.play_game``; the
    caller plays each step it is given (``step.play()``) before asking for the next."""
    from cardworks.engine.core import CHANCE
    from cardworks.simulate.agents import seating
    from cardworks.simulate.runner import game_rngs

    rules, agents = table.rules, tuple(parse_agents(agent, 4, budget))
    for index in range(games):
        seats = seating(agents, index)
        chance, *minds = game_rngs(seed, index, 4)
        playout = table.playout(table.deal(chance))
        choices, play, now = playout
        position = table.live(playout)
        legal, steps = choices(), 0
        while legal and steps < table.spec.max_steps:
            actor = rules.actor(position())
            if actor == CHANCE:
                action = legal[int(chance.random() * len(legal))]
            elif seats[actor].kind == "random":
                action = legal[int(minds[actor].random() * len(legal))]
            else:
                action = seats[actor].choose(table, actor, lambda: rules.observe(now(), actor), legal, minds[actor])

            def played(action: Any = action) -> Any:
                play(action, chance)
                return now()

            def seen(actor: int = actor) -> Any:
                return rules.observe(now(), actor)

            yield Step(index, steps, actor, "" if actor == CHANCE else seats[actor].label, legal, action, played, seen)
            legal, steps = choices(), steps + 1


def usage_log(pack: Path, card: str, games: int, agent: str, seed: int, show: int = 6,
              budget: int = DEFAULT_BUDGET) -> list[str]:
    """Why a planted card does (not) change the agents' play: over ``games`` games (the same loop, seeds and agents
    as ``runner.play_game``), the decisions at which an action using ``card`` was legal, how often the agent
    chose it and what, and the first few decisions at which it chose something else."""
    from cardworks.engine.core import CHANCE

    table, counts, lines = build_table(_spec(pack)), Counter(), []
    for step in played_steps(table, agent, games, seed, budget):
        if step.actor != CHANCE:
            using = [a for a in step.legal if table.played(a) == card]
            if using:
                counts["decisions at which it could be used"] += 1
                if table.played(step.action) == card:
                    counts[f"used: {type(step.action).__name__}"] += 1
                else:
                    counts[f"not used: chose {type(step.action).__name__}"] += 1
                    if len(lines) < show:
                        lines.append(f"    game {step.game}, step {step.number}, p{step.actor + 1} ({step.seat}): "
                                     f"could {' or '.join(sorted({str(a) for a in using}))[:160]}; chose {step.action}")
        step.play()
    if not counts:
        return ["  no action of any player ever uses it: it acts from a counter (its placings and triggers are in the "
                "table above), so what its holder chooses does not depend on it"]
    return [f"  {what}: {n}" for what, n in sorted(counts.items())] + lines


def spending_log(pack: Path, cards: tuple[str, ...], games: int, agent: str, seed: int,
                 budget: int = DEFAULT_BUDGET) -> list[str]:
    """Whether an agent spends a card where greedy would, decision by decision: over ``games`` seeded games played
    by ``agent`` seats, at every decision at which an attack or a defence with one of ``cards`` was legal, whether
    the seat chose it and whether greedy, asked the same decision (the seat's own observation and legal actions,
    its ties broken by a generator of its own, so the game is not changed), would have. Counts per card and kind
    of use: the decisions, the seat's uses, greedy's, and the decisions at which only one of them used it."""
    import random

    from cardworks.engine.core import CHANCE

    table, counts = build_table(_spec(pack)), {card: Counter() for card in cards}
    greedy = parse_agents("greedy", 4)[0]
    for step in played_steps(table, agent, games, seed, budget):
        if step.actor != CHANCE:
            for card in cards:
                using = [a for a in step.legal if table.played(a) == card]
                if using:
                    use = type(using[0]).__name__.lower()
                    mine = table.played(step.action) == card
                    theirs = table.played(greedy.choose(table, step.actor, step.seen, step.legal,
                                                        random.Random(step.number))) == card
                    counts[card].update({(use, "could"): 1, (use, "used"): mine, (use, "greedy"): theirs,
                                         (use, "only used"): mine and not theirs, (use, "only greedy"): theirs and not mine})
        step.play()
    return [f"  {card}, {use}: could at {n[use, 'could']} decisions, used at {n[use, 'used']}, greedy would have at "
            f"{n[use, 'greedy']} (used where greedy would not {n[use, 'only used']}, not used where greedy would "
            f"{n[use, 'only greedy']})" for card, n in counts.items() for use in ("attack", "defend")]


def battle_log(pack: Path, cards: tuple[str, ...], games: int, agent: str, seed: int,
               budget: int = DEFAULT_BUDGET) -> list[str]:
    """Every battle in which one of ``cards`` attacked or defended, over ``games`` seeded games (the same loop, seeds
    and agents as ``runner.play_game``): the game and step, who attacked with what against which defence, and
    whether the treasure changed hands (read from the position after the battle, not from the rules); then, per
    card, the largest defence it attacked, the largest attack it defended against, and its battles won and lost."""
    from cardworks.games.fallera.actions import Attack, Defend, NoDefence

    table, lines = build_table(_spec(pack)), []
    summary: dict[str, Counter] = {card: Counter() for card in cards}
    peak: dict[str, dict[str, int]] = {card: {"defence met": -1, "attack met": -1} for card in cards}

    def stat(design: str, which: str) -> int:
        return getattr(table.cards[design], which) or 0

    battle = None
    for step in played_steps(table, agent, games, seed, budget):
        action, index = step.action, step.game
        if step.number == 0:
            battle = None
        if type(action) is Attack:
            battle = {"step": step.number, "attacker": action.player, "weapon": action.card.design,
                      "treasure": action.treasure, "target": action.target}
        elif battle is not None and type(action) in (Defend, NoDefence):
            battle["defence"] = action.card.design if type(action) is Defend else None
        state = step.play()
        if battle is not None and "defence" in battle and state.battle is None:  # the battle is over
            stolen = battle["treasure"].number in state.counters[battle["attacker"]]
            weapon, guard = battle["weapon"], battle["defence"]
            for card, role in ((weapon, "attack"), (guard, "defence")):
                if card in summary:
                    won = stolen if role == "attack" else not stolen
                    summary[card][f"{role}s {'won' if won else 'lost'}"] += 1
                    other = stat(guard, "defence") if role == "attack" and guard else stat(weapon, "attack")
                    key = "defence met" if role == "attack" else "attack met"
                    if role == "defence" or guard:
                        peak[card][key] = max(peak[card][key], other)
            if weapon in cards or guard in cards:
                defended = f"{guard} ({stat(guard, 'defence')})" if guard else "none"
                lines.append(f"    game {index}, step {battle['step']}: p{battle['attacker'] + 1} attacks "
                             f"{battle['treasure'].design} of p{battle['target'] + 1} with {weapon} "
                             f"({stat(weapon, 'attack')}); defence {defended}: {'stolen' if stolen else 'kept'}")
            battle = None
    for card in cards:
        met = {k: (v if v >= 0 else "none") for k, v in peak[card].items()}
        lines.append(f"  {card} ({stat(card, 'attack')}/{stat(card, 'defence')}): "
                     + ", ".join(f"{k} {v}" for k, v in sorted(summary[card].items()))
                     + f"; largest defence it attacked: {met['defence met']}, largest attack it defended against: "
                     f"{met['attack met']}")
    return lines


def parse_seeds(text: str) -> list[int]:
    """``1-10``, ``1,2,5`` or ``1-3,7``: the seeds, in the order given; ArgumentTypeError for anything else."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            low, dash, high = part.strip().partition("-")
            first, last = int(low), int(high) if dash else int(low)
            if last < first:
                raise ValueError(f"{part}: a range runs upwards")
            seeds += range(first, last + 1)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--seeds {text!r}: {exc}") from None
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"--seeds {text!r}: a seed is given twice")
    return seeds


def saved(folder: Path, seed: int) -> dict:
    """The figures ``--measure`` wrote for ``seed`` into ``folder``; SystemExit naming the file when it is not there."""
    file = folder / f"seed-{seed}.json"
    if not file.is_file():
        raise SystemExit(f"--from-figures: no figures for seed {seed} ({file.name} is not in {folder})")
    fig = json.loads(file.read_text())
    if fig.get("table", {}).get("seed") not in (None, seed):
        raise SystemExit(f"--from-figures: {file.name} holds the figures of seed {fig['table']['seed']}, not {seed}")
    return fig


def contiguous(values: list[int], chosen: list[int]) -> bool:
    """The chosen values are one unbroken run of the swept ones (and not empty)."""
    where = [values.index(v) for v in chosen]
    return bool(where) and where == list(range(where[0], where[0] + len(where)))


def weak_goal(card: str, answers: Counter, thin: int, seeds: int) -> str:
    """The goal line of a weak plant: weak at 95% of the seeds or more; for one in ``THIN_BAND``, expected to stay
    *not decided*, never to come out strong, decides or in line (weak is right too), with the seeds at which its
    type's band was thin."""
    hit = answers["weak"]
    if card not in THIN_BAND:
        return (f"Goal: {card} weak: {hit}/{seeds} ({100 * hit / seeds:.0f}%) "
                f"-> {'met' if hit >= 0.95 * seeds else 'NOT MET'}")
    wrong = sum(n for a, n in answers.items() if a not in ("weak", "not decided", "not judged"))
    return (f"Goal: {card} never strong, decides or in line (expected not decided: {THIN_BAND[card]}): "
            f"not decided {answers['not decided']}/{seeds}, weak {hit}, not judged {answers['not judged']}, strong, "
            f"decides or in line {wrong}; its band thin at {thin}/{seeds} seeds -> {'met' if not wrong else 'NOT MET'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="auto", help="games per seed, or auto (the default budget: simulate's "
                        "--games auto, looks up to 3,200 games)")
    parser.add_argument("--sweep-games", type=int, default=MAX_GAMES, help="games a value of the sweep")
    parser.add_argument("--seeds", type=parse_seeds, default="1-10", help="FIRST-LAST, or seeds and ranges joined by "
                        "commas (1,2,5 or 1-3,7)")
    parser.add_argument("--agent", default="random")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="ISMCTS iterations per decision (--agent mcts)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sweep-values", default="0,1,2,3,4,5,6,8,10")
    parser.add_argument("--sweep-field", choices=["attack", "defence"], default="attack",
                        help="the stat of the twin battle card the sweep steps (no base attack is above 6, no base "
                             "defence above 4: a defence of 7 or more is never beaten, an attack above 5 wins no more)")
    parser.add_argument("--no-sweep", action="store_true")
    parser.add_argument("--sweep-only", action="store_true", help="play only the sweep (at the first seed)")
    parser.add_argument("--measure", "--figures", dest="measure", type=Path, metavar="DIR",
                        help="write each seed's figures to DIR/seed-N.json (to split the seeds over processes and "
                        "print their table with --from-figures, or to judge the same games again under another rule)")
    parser.add_argument("--from-figures", type=Path, metavar="DIR",
                        help="play nothing: print the confusion table of --seeds from DIR/seed-N.json, as --measure "
                        "wrote them (a seed missing there is an error); the logs of unflagged cards only with "
                        "--log-games given")
    parser.add_argument("--battles", type=int, default=0, metavar="GAMES",
                        help="only log, over GAMES games of the first seed, every battle of op-attack and of the base "
                             "deck's attack-6 card (tombatossals), with its result")
    parser.add_argument("--spending", type=int, default=0, metavar="GAMES",
                        help="only log, over GAMES games of the first seed played by --agent seats, each decision at "
                             "which op-attack or tombatossals could attack or defend: whether the seat used it and "
                             "whether greedy would have")
    parser.add_argument("--log-games", type=int, default=None,
                        help="games logged for a planted card never flagged: when the agents could use it, and what "
                        "they chose (default 20; 0 with --from-figures)")
    args = parser.parse_args()
    if args.games != "auto":
        args.games = int(args.games)
    if args.log_games is None:
        args.log_games = 0 if args.from_figures else 20
    seeds = args.seeds
    if args.from_figures and args.measure:
        parser.error("--from-figures reads figures --measure wrote; give one of them")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        pack = write_pack(Path(folder))
        if args.battles:
            print(f"Battles of op-attack and tombatossals ({args.battles} games, seed {seeds[0]}, agents {args.agent}):")
            print("\n".join(battle_log(pack, ("op-attack", "tombatossals"), args.battles, args.agent, seeds[0], args.budget)))
            return
        if args.spending:
            print(f"Decisions at which op-attack or tombatossals could be used ({args.spending} games, seed {seeds[0]}, "
                  f"agents {args.agent}, budget {args.budget}), and what greedy would have chosen at each:")
            print("\n".join(spending_log(pack, ("op-attack", "tombatossals"), args.spending, args.agent, seeds[0],
                                         args.budget)))
            return
        table: dict[str, Counter] = {card: Counter() for card in KIND}
        why: dict[str, list[str]] = {card: [] for card in KIND}
        use: dict[str, Counter] = {card: Counter() for card in KIND}
        thin: Counter = Counter()  # planted card -> seeds at which its type's band was thin
        played, labels = [], set()
        kept = {seed: saved(args.from_figures, seed) for seed in seeds} if args.from_figures else {}  # all, or none
        for seed in [] if args.sweep_only else seeds:
            fig = kept[seed] if args.from_figures else run(pack, args.games, seed, args.agent, args.workers, args.budget)
            if args.measure:
                args.measure.mkdir(parents=True, exist_ok=True)
                (args.measure / f"seed-{seed}.json").write_text(json.dumps(fig, indent=1, sort_keys=True))
            games = fig["table"]["games"]
            played.append((games, "sequential" in fig))
            labels.update(fig["table"]["agents"])
            for row in fig["cards"]:
                if row["card"] in use:
                    use[row["card"]].update({"played": row["played_per_game"], "placed": row["placed_per_game"],
                                             "triggers": row["triggers_per_game"], "held": row["held"] / games})
            for card, verdict in fig["verdicts"]["cards"].items():
                if card in table:
                    table[card][answer(verdict)] += 1
                    thin[card] += fig["verdicts"]["bands"].get(verdict.get("type"), {}).get("thin", False)
                    why[card].append(f"seed {seed}: {answer(verdict)} ({verdict['why']})")
            stop = fig.get("sequential")
            print(f"seed {seed}" + (f" ({games:,} games, stopped: {stop['stopped']})" if stop else "") + ": "
                  + ", ".join(f"{c} {answer(v)}" for c, v in sorted(fig["verdicts"]["cards"].items())), flush=True)
            for card in KIND:
                print(f"  {card}: {fig['verdicts']['cards'][card]['why']}")
        if not args.sweep_only:
            auto = args.games == "auto" and not args.from_figures or any(p[1] for p in played)
            budget = (f"auto ({', '.join(f'{n:,}' for n, _ in played)} games; looks up to {MAX_GAMES:,})" if auto
                      else ", ".join(sorted({f"{n:,}" for n, _ in played})))
            agents = ", ".join(sorted(labels)) if args.from_figures else args.agent
            print(f"\nConfusion table: {len(seeds)} seeds x {budget} paired games, agents {agents}, "
                  f"fixture base deck + planted pack (counts of seeds)")
            width = max(map(len, KIND)) + 2
            print(f"{'card':<{width}}{'kind':<13}" + "".join(f"{a:>16}" for a in ANSWERS)
                  + "   per game: held, played, placed, triggers (mean of the seeds)")
            for card in KIND:
                u = {k: v / len(seeds) for k, v in use[card].items()}
                print(f"{card:<{width}}{KIND[card]:<13}" + "".join(f"{table[card][a]:>16}" for a in ANSWERS)
                      + f"   {u['held']:.2f}, {u['played']:.2f}, {u['placed']:.2f}, {u['triggers']:.2f}")
            for kind in ("plain twin", "overpowered", "weak"):
                total = sum((table[c] for c in KIND if KIND[c] == kind), Counter())
                print(f"{'all ' + kind:<{width + 13}}" + "".join(f"{total[a]:>16}" for a in ANSWERS))
            twins_flagged = sum(table[c][a] for c in TWINS for a in ANSWERS if a.startswith(("strong", "weak")))
            print(f"\nGoal: no plain twin ever strong or weak: {twins_flagged} of {len(TWINS) * len(seeds)} "
                  f"-> {'met' if not twins_flagged else 'NOT MET'}")
            for card in OVERPOWERED:
                hit = sum(n for a, n in table[card].items() if "strong" in a or "decides" in a)
                print(f"Goal: {card} strong or decides in >= 95% of seeds: {hit}/{len(seeds)} "
                      f"({100 * hit / len(seeds):.0f}%) -> {'met' if hit >= 0.95 * len(seeds) else 'NOT MET'}")
            for card in WEAK:
                print(weak_goal(card, table[card], thin[card], len(seeds)))
            for card in [*OVERPOWERED, *WEAK]:
                if args.log_games and not any(a.startswith(("strong", "weak", "decides")) for a in table[card]):
                    print(f"How {args.agent} agents use {card} ({args.log_games} games, seed {seeds[0]}):")
                    print("\n".join(usage_log(pack, card, args.log_games, args.agent, seeds[0], budget=args.budget)))
                if table[card]["not judged"] or table[card]["not decided"] or table[card]["in line"]:
                    print(f"  {card}, a seed it was not flagged: {next(w for w in why[card] if 'strong' not in w.split('(')[0] and 'weak' not in w.split('(')[0] and 'decides' not in w.split('(')[0])}")
        if not args.no_sweep:
            values = [int(v) for v in args.sweep_values.split(",")]
            field = args.sweep_field
            print(f"\nSweep of {SWEPT}.{field} over {values} (seed {seeds[0]}, {args.sweep_games:,} games a value, the "
                  "band measured at the first value):")
            in_line = []
            for value, fig in sweep(pack, field, values, args.sweep_games, seeds[0], args.agent, args.workers, args.budget):
                verdict = fig["verdicts"]["cards"][SWEPT]
                strength = next(c for c in fig["cards"] if c["card"] == SWEPT).get("strength") or {}
                effect = ("plain" if strength.get("plain") else
                          f"{100 * strength['difference']:+.1f} pts [{100 * strength['low']:+.1f}, {100 * strength['high']:+.1f}]")
                band = fig["verdicts"]["bands"]["battle"]
                print(f"  {field} {value}: {effect}: {answer(verdict)} (band {100 * band['low']:+.1f} to "
                      f"{100 * band['high']:+.1f}, intervals {100 * band['weak_below']:+.1f} to "
                      f"{100 * band['strong_above']:+.1f})", flush=True)
                if verdict["verdict"] == ["in line"]:
                    in_line.append(value)
            ok = contiguous(values, in_line) and values[-1] not in in_line
            print(f"Goal: in line at a contiguous range of {field} values excluding {values[-1]}: in line at "
                  f"{in_line or 'none'} -> {'met' if ok else 'NOT MET'}")
    print(f"\n{time.monotonic() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
