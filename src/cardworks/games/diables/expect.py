"""Diables scenario expectations: each key compares one part of the position (see docs/scenarios.md)."""

from __future__ import annotations

from typing import Any

from .actions import SHOWS


def check(rules: Any, state: Any, expect: dict[str, Any]) -> str | None:
    """None when every key of ``expect`` holds, else what differs first; an unknown key is an error."""
    for key, wanted in expect.items():
        checker = _CHECKS.get(key)
        if checker is None:
            return f"unknown Diables expectation {key!r} (one of: {', '.join(sorted(_CHECKS))})"
        try:
            message = checker(rules, state, wanted)
        except (KeyError, ValueError) as exc:
            return f"{key}: {exc}"
        if message:
            return message
    return None


def _seat(state: Any, name: str) -> int:
    if name not in state.seats:
        raise KeyError(f"{name} is not playing")
    return state.seats.index(name)


def _per_seat(field: str, label: str):
    def compare(rules: Any, state: Any, wanted: dict[str, int]) -> str | None:
        values = getattr(state, field)
        for name, value in wanted.items():
            got = values[_seat(state, name)]
            if got != value:
                return f"expected {name}'s {label} {value}, got {got}"
        return None
    return compare


def _order(rules: Any, state: Any, wanted: list[str]) -> str | None:
    got = [state.seats[s] for s in state.order]
    return None if got == wanted else f"expected turn order {wanted}, got {got}"


def _winner(rules: Any, state: Any, wanted: str | None) -> str | None:
    got = state.seats[state.winner] if state.winner is not None else None
    return None if got == wanted else f"expected winner {wanted}, got {got}"


def _plain(field: str):
    def compare(rules: Any, state: Any, wanted: Any) -> str | None:
        got = getattr(state, field)
        return None if got == wanted else f"expected {field} {wanted}, got {got}"
    return compare


def _scored(rules: Any, state: Any, wanted: dict[str, list[str]]) -> str | None:
    for name, shows in wanted.items():
        got = sorted(show for show, done in zip(SHOWS, state.scored[_seat(state, name)]) if done)
        if got != sorted(shows):
            return f"expected {name}'s scored shows {sorted(shows)}, got {got}"
    return None


def _street(rules: Any, state: Any, wanted: dict[str, int]) -> str | None:
    for name, count in wanted.items():
        got = len(state.street[_seat(state, name)])
        if got != count:
            return f"expected {count} street spectator cards on {name}'s street, got {got}"
    return None


def _wall(rules: Any, state: Any, wanted: int) -> str | None:
    return None if len(state.wall) == wanted else f"expected {wanted} posts on the wall, got {len(state.wall)}"


def _figure_fp(rules: Any, state: Any, wanted: dict[str, int]) -> str | None:
    from .scoring import figure_refs

    for key, points in wanted.items():
        name, show, ref = key.split()
        figure = figure_refs(state.plaza[SHOWS.index(show)]).get(ref)
        if figure is None or figure.owner is None or state.seats[figure.owner] != name:
            return f"{key!r}: {name} has no figure on {ref} in {show}"
        got = rules.figure_points(state, show, figure)
        if got != points:
            return f"expected {name}'s figure on {ref} in {show} to earn {points} FP, got {got}"
    return None


def _lluiment_counts(rules: Any, state: Any, wanted: dict[str, Any]) -> str | None:
    wanted = dict(wanted)
    tile = wanted.pop("tile", None) or state.lluiments[state.round - 1]
    counts = rules.lluiment_counts(state, rules.tiles[f"lluiment-tile-{tile}"])
    for name, count in wanted.items():
        got = counts[_seat(state, name)]
        if got != count:
            return f"expected {name} to count {count} for the {tile} lluïment, got {got}"
    return None


_CHECKS = {
    "fp": _per_seat("fp", "FP"),
    "sound": _per_seat("sound", "sound track position"),
    "thrills": _per_seat("thrills", "thrilled crowd actions to resolve"),
    "order": _order,
    "winner": _winner,
    "phase": _plain("phase"),
    "round": _plain("round"),
    "firebot_show": _plain("firebot_show"),
    "scored": _scored,
    "street": _street,
    "wall": _wall,
    "figure_fp": _figure_fp,
    "lluiment_counts": _lluiment_counts,
}
