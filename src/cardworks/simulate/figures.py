"""Every figure of a simulation, from its tally: plain JSON-ready data with 95% intervals.

Seat win rates are shares of the decided games (they sum to 1); games without a
winner (a stall at the step cap, an exhausted deck) are counted apart. An agent's
win rate is its share of the games it sat in, and ``beats_even`` says its Wilson
interval lies above an even share (1 / players). A card's figures compare the
players who held it at some point (drew it, stole it, took it from the map) with
those who did not; a pack's cards are also ranked among the base deck's.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..engine.core import player
from .stats import (ANY_PACK_CARD, STALL, WIN_UNIT, Tally, benjamini_hochberg, difference, distribution, mean_difference,
                    paired_difference, rate, z_for)
from .tables import Table, pack_id
from .verdicts import ALPHA, verdicts


def figures(tally: Tally, table: Table, agents: list[str], seed: int, first: int = 0, alpha: float = ALPHA) -> dict[str, Any]:
    """The report's figures (identical for identical totals: nothing here depends on how games were split).

    ``alpha`` is the error rate of the verdicts: the cards' paired effects and the shares of games their effects
    ended carry ``1 - alpha`` intervals (95% unless ``--games auto`` spends it over several looks)."""
    games, players = tally.games, tally.players
    decided = tally.decided
    even = 1 / players
    result: dict[str, Any] = {
        "table": {"game": table.spec.game, "set": table.spec.selection, "players": players,
                  "packs": [pack_id(p) for p in table.spec.packs], "agents": agents, "seed": seed,
                  "games": games, "first": first, "step_cap": table.spec.max_steps, "rotated": len(set(agents)) > 1},
        "seats": [{"seat": player(s), **rate(w / WIN_UNIT, decided), "share_of_all_games": rate(w / WIN_UNIT, games)["rate"]}
                  for s, w in enumerate(tally.seat_wins)],
        "no_winner": rate(games - decided, games),
        "stalls": rate(tally.endings.get(STALL, 0), games),
        "stalled_games": tally.stalled,
        "endings": {reason: rate(count, games) for reason, count in sorted(tally.endings.items())},
        "length": {"steps": distribution(tally.steps), "turns": distribution(tally.turns),
                   "rounds": distribution(tally.rounds)},
        "histograms": {"steps": {str(k): v for k, v in sorted(tally.steps.items())}},
    }
    agent_rates = {a: (tally.agent_wins[a] / WIN_UNIT, tally.agent_seats[a]) for a in sorted(tally.agent_seats)}
    result["agents"] = {a: {**rate(w, n), "beats_even": rate(w, n)["low"] > even} for a, (w, n) in agent_rates.items()}
    result["agent_differences"] = [{"agents": [a, b], **difference(*agent_rates[a], *agent_rates[b])}
                                   for a, b in combinations(sorted(agent_rates), 2)]
    if table.deck:
        result["cards"] = card_figures(tally, table, alpha)
        result["left_out"] = [{"card": d, "pack": d in table.pack_designs, "reason": why}
                              for d, why in sorted(table.left_out.items()) if d not in table.deck]
        if table.pack_cards:
            result["pack"] = {**_held_figures(tally, ANY_PACK_CARD, tally.players * tally.games),
                              **_against_base(result["cards"])}
            result["verdicts"] = verdicts(result["cards"], paired=table.spec.paired, alpha=alpha,
                                          games={"no_winner": result["no_winner"], "stalls": result["stalls"]})
    return result


def card_figures(tally: Tally, table: Table, alpha: float = ALPHA) -> list[dict[str, Any]]:
    seats, games = tally.players * tally.games, tally.games
    z = z_for(alpha)
    per_game = lambda n: round(n / games, 6) if games else 0.0  # noqa: E731
    strengths = {d: _strength(tally, d, z) for d in table.measured}
    adjusted = benjamini_hochberg({d: s["p"] for d, s in strengths.items() if s["pairs"]})
    rows = []
    for design in sorted(table.deck):
        events = {what: tally.events.get((what, design), 0) for what in ("placed", "trigger")}
        firings = sum(n for (what, d), n in tally.events.items() if d == design and what not in ("placed", "trigger"))
        effect, completed = tally.decided_by.get((design, "effect"), 0), tally.decided_by.get((design, "completed"), 0)
        row = {"card": design, "pack": design in table.pack_cards, "copies": table.deck[design],
               "type": table.families.get(design), **_held_figures(tally, design, seats),
               "played": tally.played.get(design, 0), "played_per_game": per_game(tally.played.get(design, 0)),
               "placed_per_game": per_game(events["placed"]), "triggers_per_game": per_game(events["trigger"]),
               "firings_per_game": per_game(firings), "decided": rate(effect + completed, games),
               "decided_by_effect": rate(effect, games, z)}
        if design in strengths:
            row["strength"] = {**strengths[design], "p_adjusted": adjusted.get(design, 1.0)}
        elif table.spec.paired and design in table.plain_cards:
            row["strength"] = {"plain": True}  # it is the plain card of its type: no effect of its own, by construction
        rows.append(row)
    return rows


def _strength(tally: Tally, design: str, z: float) -> dict[str, Any]:
    """A measured card's paired effect, with ``unchanged`` the holder-games whose twin is the real game itself
    (the card could change no step of it). When every one is (a card never drawn, or held and never able to
    change a step: a special no agent plays), the effect is exactly 0 with the interval [0, 0]: those games
    show that the card changed nothing, not a difference too small to see."""
    counts = [tally.pairs.get((design, real, twin), 0)
              for real, twin in ((True, True), (True, False), (False, True), (False, False))]
    unchanged = tally.unchanged.get(design, 0)
    if unchanged == sum(counts):
        return {"difference": 0.0, "low": 0.0, "high": 0.0, "p": 1.0, "pairs": unchanged, "unchanged": unchanged}
    return {**paired_difference(*counts, z=z), "unchanged": unchanged}


def _against_base(cards: list[dict[str, Any]]) -> dict[str, Any]:
    """The packs' cards against the base deck's: mean improvement of each group, and per pack card how many
    of the deck's other cards improve a holder's chances less (its rank among them)."""
    def improvement(card: dict[str, Any]) -> float | None:
        return card["improvement"]["difference"]

    base = sorted(v for c in cards if not c["pack"] and (v := improvement(c)) is not None)
    pack = [c for c in cards if c["pack"] and improvement(c) is not None]
    mean = lambda values: round(sum(values) / len(values), 6) if values else None  # noqa: E731
    return {"mean_improvement_pack": mean([improvement(c) for c in pack]), "mean_improvement_base": mean(base),
            "base_cards": len(base),
            "rank_among_base": {c["card"]: sum(v < improvement(c) for v in base) for c in pack}}


def _held_figures(tally: Tally, key: str, seats: int) -> dict[str, Any]:
    held, wins = tally.held.get(key, 0), tally.held_wins.get(key, 0) / WIN_UNIT
    rest, rest_wins = seats - held, tally.win_parts / WIN_UNIT - wins
    return {"held": held, "win_rate_held": rate(wins, held), "win_rate_not_held": rate(rest_wins, rest),
            "improvement": difference(wins, held, rest_wins, rest)}


def compare(base: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Deck B (``other``) against deck A (``base``): each difference with its interval and whether it is significant."""
    seats = [{"seat": a["seat"], **difference(b["rate"] * b["n"], b["n"], a["rate"] * a["n"], a["n"])}
             for a, b in zip(base["seats"], other["seats"])]
    cards = []
    a_cards = {c["card"]: c for c in base.get("cards", [])}
    for card in other.get("cards", []):
        before = a_cards.get(card["card"])
        row = {"card": card["card"], "pack": card["pack"], "new": before is None,
               "improvement_a": before["improvement"]["difference"] if before else None,
               "improvement_b": card["improvement"]["difference"], "significant_b": card["improvement"]["significant"]}
        if before:
            b_rate, a_rate = card["win_rate_held"], before["win_rate_held"]
            row["held_win_rate_change"] = difference(b_rate["rate"] * b_rate["n"], b_rate["n"], a_rate["rate"] * a_rate["n"], a_rate["n"])
        cards.append(row)
    stall_a, stall_b = base["stalls"], other["stalls"]
    return {
        "seats": seats,
        "stalls": difference(stall_b["rate"] * stall_b["n"], stall_b["n"], stall_a["rate"] * stall_a["n"], stall_a["n"]),
        "length": {k: mean_difference(other["length"][k], base["length"][k]) for k in ("steps", "turns", "rounds")},
        "agents": {a: difference(other["agents"][a]["rate"] * other["agents"][a]["n"], other["agents"][a]["n"],
                                 base["agents"][a]["rate"] * base["agents"][a]["n"], base["agents"][a]["n"])
                   for a in base["agents"] if a in other["agents"]},
        "cards": cards,
    }
