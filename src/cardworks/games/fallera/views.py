"""What Fallera shows and checks of a position: each player's observation (and proof it leaks nothing
hidden), scenario expectations and the invariants every position keeps (``BaseRules`` dumps and loads it)."""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any

from ...engine.core import player_index
from .actions import player
from .effects import FaceUpAttacks
from .registry import REGISTRY
from .invariants import costly_invariants, step_invariants, treasure_instances
from .state import Draft, State
from .revolta import face_down_cards
from .verbs import public_marks


_ASKED_PHASES = frozenset({"respond", "target", "discard", "choose", "several"})
_BATTLE_PHASES = frozenset({"defend", "respond", "target", "discard", "choose", "effect-coin", "over"})
"""Phases a called battle may wait in: its defence, or a response to it (and what the response asks)."""


def _asked_view(state: State, label: Any) -> list[Any] | None:
    """Who is asked to decide and about what: public (a window's subject is a card played or a battle's
    treasure, a target's verb is on a card in the cemetery; a discard names no card)."""
    return None if state.asked is None else list(state.asked)


_NAMES = tuple(player(index) for index in range(64))


def _name(index: int) -> str:
    """``player(index)``, the names of the first players made once (an observation names several)."""
    return _NAMES[index] if 0 <= index < 64 else player(index)


_LABELS: list[Any] = [None, ()]
"""The last deck's designs, and each of its instances' label as ``_labels_apart`` writes it."""


def _labels_apart(designs: tuple[str, ...]) -> tuple[str, ...]:
    """``design#n`` for each instance of a deck, written apart from the labels observations show
    (``Facts.labels``), so the leak check does not trust what it checks; made once per deck (a game's states
    share their designs)."""
    if _LABELS[0] is not designs:
        _LABELS[:] = [designs, tuple(f"{design}#{number}" for number, design in enumerate(designs))]
    return _LABELS[1]


class Views:
    """The part of ``FalleraRules`` that shows and checks positions (``BaseRules`` stores them)."""

    @REGISTRY.bind(FaceUpAttacks, "stands", reads=("counter",))
    def observe(self, state: State, who: int) -> dict[str, Any]:
        """What ``who`` sees: their hand, every counter, hand sizes (public), the cemetery; the deck as a count.

        Players are named as scenarios name them (``p1``…: ``you``, ``current``, ``winner``, a battle's
        ``attacker`` and ``target``, who is ``called``, whose hand was ``looked`` at); lists by seat
        (``hand_sizes``, ``counters``, ``foods``) hold p1's first."""
        seen = self._private_view(state, who)
        self._public_view(state, seen)
        return seen

    def _private_view(self, state: State, who: int) -> dict[str, Any]:
        """The part of ``who``'s observation that differs between players: all that may hide something."""
        facts = state.facts if type(state) is Draft else self.facts(state)
        label = facts.labels.__getitem__  # "design#n"
        battle = None
        if state.battle is not None:
            attacker, target, treasure, attack = state.battle[:4]
            resolving = len(state.battle) == 5  # the defence is chosen: the attack is revealed (fallera-base line 28)
            face_up = resolving or any(map(facts.face_up.__getitem__, state.counters[target]))
            battle = {"attacker": _name(attacker), "target": _name(target), "treasure": label(treasure),
                      "attack": label(attack) if who == attacker or face_up else "hidden"}
            if resolving:
                battle["defence"] = None if state.battle[4] is None else label(state.battle[4])
        elif state.marks and any(m[0] == "called" for m in state.marks):  # a battle of several (``revolta``)
            battle = {"attacker": player(next(m[1] for m in state.marks if m[0] == "called")),
                      "called": [[player(m[2]), label(m[3])] for m in state.marks if m[0] == "called"],
                      "yours": [label(m[2]) for m in state.marks if m[0] == "face-down" and m[1] == who]}
        revealed = state.revealed
        return {"you": _name(who), "hand": list(map(label, state.hands[who])), "battle": battle,
                "looked": self._looked(state, who, label) if state.marks else {},
                "foods": [food if p == who or revealed[p] else "hidden" for p, food in enumerate(state.foods)]
                if state.foods else []}

    def _public_view(self, state: State, seen: dict[str, Any]) -> None:
        """The part of every observation that is the same for all players, added to ``seen`` (in this order)."""
        label = (state.facts if type(state) is Draft else self.facts(state)).labels.__getitem__
        seen["current"], seen["phase"], seen["turn"] = _name(state.current), state.phase, state.turn
        seen["hand_sizes"] = list(map(len, state.hands))
        seen["counters"] = [list(map(label, c)) for c in state.counters]
        seen["deck_size"], seen["cemetery"] = len(state.deck), list(map(label, state.cemetery))
        seen["winner"], seen["reason"] = None if state.winner is None else _name(state.winner), state.reason
        seen["map"] = {space: (label(i) if i >= 0 else None) for space, i in zip(state.spaces, state.map)} \
            if state.spaces else {}
        seen["queen"], seen["laying"] = state.queen, list(map(label, state.laying))
        seen["actions"], seen["again"], seen["asked"] = state.actions, state.again, _asked_view(state, label)
        seen["pending"] = [list(step) for step in state.pending] if state.pending else []
        seen["marks"] = public_marks(state.marks) if state.marks else []

    def hidden_leak(self, state: State) -> str | None:
        """Another player's hand card, a face-down attack or an unrevealed territorial food in an observation.

        Hands are the only hidden zone besides the attack and the foods, so each
        observation's hand must be the viewer's own. An observation is its viewer's
        private part and a public part that holds no hand, attack or food: only the
        private parts need checking, one per player.
        """
        label = _labels_apart(state.designs).__getitem__
        for viewer in range(state.players):
            seen = self._private_view(state, viewer)
            if seen["hand"] != list(map(label, state.hands[viewer])):
                return f"{player(viewer)}'s observation shows a hand that is not theirs"
            if seen["looked"] and set(seen["looked"]) - {  # apart from observe
                    player(m[2]) for m in state.marks if m[0] == "seen" and m[1] == viewer}:
                return f"{player(viewer)}'s observation shows a hand they did not look at"
            if seen["foods"] and any(f != "hidden" for p, f in enumerate(seen["foods"])
                                     if p != viewer and not state.revealed[p]):
                return f"{player(viewer)} sees a territorial food that is not revealed"
            if state.battle and viewer != state.battle[0] and seen["battle"]["attack"] != "hidden" \
                    and len(state.battle) == 4:  # with its defence chosen, a battle's attack is revealed
                target = state.battle[1]
                if not any(self.card(state, i).doing("face-up-attacks") for i in state.counters[target]):  # apart too
                    return f"{player(viewer)} sees the face-down attack"
            down = [m[2] for m in state.marks if m[0] == "face-down" and m[1] != viewer] if state.marks else []
            if down and f"{state.designs[down[0]]}#{down[0]}" in repr(seen["battle"]):  # apart from observe
                return f"{player(viewer)} sees a rival's face-down attack in a battle of several"
        if state.marks and any(len(m) > 3 for m in public_marks(state.marks) if m[0] == "seen"):
            return "the public view shows what a player saw of another's hand"
        if state.marks and any(len(m) > 2 for m in public_marks(state.marks) if m[0] == "face-down"):
            return "the public view shows which card lies face down in a battle of several"
        return None

    def expectation(self, state: State, expect: dict[str, Any]) -> str | None:
        """None when a scenario's expectation holds, else what differs (see docs/scenarios.md)."""
        if "winner" in expect:
            wanted = expect["winner"]
            got = player(state.winner) if state.winner is not None else None
            if got != wanted or ("reason" in expect and state.reason != expect["reason"]):
                return f"expected winner {wanted} ({expect.get('reason', 'any reason')}), got {got} ({state.reason})"
        present = sorted(set(expect.get("absent", ())) & set(state.designs))
        if present:
            return f"expected no card of {', '.join(present)} in the game, found one"
        for zone in ("counters", "hands"):
            for who, designs in expect.get(zone, {}).items():
                p = player_index(who)
                got = Counter(state.designs[i] for i in getattr(state, zone)[p])
                if got != Counter(designs):
                    return f"expected {who}'s {zone[:-1]} {sorted(designs)}, got {sorted(got.elements())}"
        if "cemetery" in expect and Counter(state.designs[i] for i in state.cemetery) != Counter(expect["cemetery"]):
            return f"expected cemetery {sorted(expect['cemetery'])}, got {sorted(state.designs[i] for i in state.cemetery)}"
        for key in ("phase", "current"):
            if key in expect:
                got = state.phase if key == "phase" else player(state.current)
                if got != expect[key]:
                    return f"expected {key} {expect[key]}, got {got}"
        if "queen" in expect and state.queen != expect["queen"]:
            return f"expected the Queen in {expect['queen']}, got {state.queen}"
        for space, design in expect.get("map", {}).items():
            if space not in state.spaces:  # a terreta of another board side, or a game without the map
                return f"expected {design} on {space}, but this game's map has no {space}"
            slot = state.map[state.spaces.index(space)]
            got = state.designs[slot] if slot >= 0 else None
            if got != design:
                return f"expected {design} on {space}, got {got}"
        for who, count in expect.get("valid_ingredients", {}).items():
            got = self.ingredients(state, player_index(who))[0]
            if got != count:
                return f"expected {who} to have {count} valid ingredients, got {got}"
        return None

    def invariants(self, state: State) -> list[str]:
        return [*self.step_invariants(state), *costly_invariants(self, state)]

    def step_invariants(self, state: State) -> list[str]:
        """The invariants cheap enough for every step ``check`` plays (``playouts.Schedule``): conservation,
        zones and phases, and the cheap ones of ``invariants.py``; ``invariants`` adds the costly ones."""
        broken = []
        # one list of every zone's cards, the rarer zones added only when the position has them
        places = [*chain.from_iterable(state.hands), *chain.from_iterable(state.counters), *state.deck,
                  *state.cemetery, *state.laying]
        if state.battle:
            places += [i for i in state.battle[3:] if i is not None]
        if state.map:
            places += [i for i in state.map if i >= 0]
        if state.marks:
            places += [m[1] for m in state.marks if m[0] == "attach"] + face_down_cards(state.marks)
        facts = self.facts(state)
        if len(places) != len(state.designs) or set(places) != facts.instances:
            broken.append("conservation: every card instance must be in exactly one zone")
        treasures = treasure_instances(facts)
        if not treasures.isdisjoint(chain.from_iterable(state.hands)):
            broken.append("a treasure is in a hand instead of on its counter")
        if not treasures.issuperset(chain.from_iterable(state.counters)):
            broken.append("a card that is not a treasure is on a counter")
        if (state.phase == "over") != (state.reason is not None):
            broken.append("a game is over exactly when it has a reason")
        if (state.phase == "defend") > (state.battle is not None) or (
                state.battle is not None and state.phase not in _BATTLE_PHASES):
            broken.append("a battle is pending exactly in the defend phase (and its response window)")
        if (state.phase in _ASKED_PHASES) != (state.asked is not None):
            broken.append("a player is asked exactly in the respond, target, discard and choose phases")
        if state.marks:
            on_counters = list(chain.from_iterable(state.counters))
            if any(m[0] == "attach" and m[2] not in on_counters for m in state.marks):
                broken.append("a card is attached to a treasure that is on no counter")
        if state.refused and len(state.refused) != len(state.counters):
            broken.append("a refused paella is recorded for each player or for none")
        if (state.phase == "lay") != bool(state.laying) and state.phase != "over":
            broken.append("cards wait to be laid on the map exactly in the lay phase")
        if (state.phase == "toss") != (state.toss is not None):
            broken.append("coin tosses are pending exactly in the toss phase")
        if (state.phase == "again") != (state.again is not None):
            broken.append("one more battle is offered exactly in the again phase")
        if state.pending and state.phase in ("turn", "over"):
            broken.append("steps wait in the queue only while a decision or chance outcome is due")
        if state.spaces and all(i < 0 for i in state.map) and (state.deck or state.cemetery) \
                and state.phase not in ("over", "lay") and not any(step[0] == "refill" for step in state.pending):
            # (a win found as the last map card is taken comes first: its coin toss may keep the refill waiting)
            broken.append("the map is empty while cards remain to refill it")
        return [*broken, *step_invariants(self, state)]
