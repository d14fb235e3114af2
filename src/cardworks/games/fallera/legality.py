"""The checks of Fallera's actions: each refuses an action the rules do not allow now, naming the rule it
breaks, before anything changes (``FalleraRules.play`` runs an action's check, then its effect)."""

from __future__ import annotations

from ...engine.core import IllegalActionError
from .actions import (Almoina, Attack, Burn, Card, Coin, Defend, FalleraAction, First, Lay, Move, NoDefence, Pass,
                      Sell, Take, player)
from .state import Draft, State


class Checks:
    """The part of ``FalleraRules`` that says whether an action is legal now."""

    def _instance(self, state: State, card: Card, where: tuple[int, ...], action: FalleraAction, rule: str, place: str,
                  whose: int | None = None) -> int:
        """The instance number of ``card``, which must be ``where``; else the error says it is not
        ``place`` (with ``whose`` player name in its ``{}``)."""
        number = card.number
        if not 0 <= number < len(state.designs) or state.designs[number] != card.design:
            raise IllegalActionError(action.notation(), "no-such-card", f"there is no card {card} in this game")
        if number not in where:
            where_text = place if whose is None else place.format(player(whose))
            raise IllegalActionError(action.notation(), rule, f"{card} is not {where_text}")
        return number

    def _need_phase(self, draft: Draft, action: FalleraAction, phase: str) -> None:
        if draft.phase != phase:
            raise IllegalActionError(action.notation(), "one-action-per-turn",
                                     f"this is allowed in the {phase} phase, not during {draft.phase}")

    def _check_first(self, draft: Draft, action: First) -> None:
        if draft.phase != "first" or action.player not in draft.candidates:
            raise IllegalActionError(action.notation(), "first-player", "only a player tied for first can be chosen")

    def _check_almoina(self, draft: Draft, action: Almoina) -> None:
        self._need_phase(draft, action, "turn")

    def _check_sell(self, draft: Draft, action: Sell) -> None:
        self._need_phase(draft, action, "turn")
        instance = self._instance(draft, action.card, draft.counters[action.player], action, "sell-own-treasure",
                                  "on your counter")
        card = draft.facts.defs[instance]
        if card.kind != "sellable" or card.sell is None:
            raise IllegalActionError(action.notation(), "sell-sellable", f"{action.card} is not a sellable treasure")

    def _check_attack(self, draft: Draft, action: Attack) -> None:
        if draft.again is None:
            self._need_phase(draft, action, "turn")
        elif action.target != draft.again:
            raise IllegalActionError(action.notation(), "battle-again-same-player",
                                     f"the battle called once more is against {player(draft.again)}")
        if action.target == action.player or not 0 <= action.target < len(draft.hands):
            raise IllegalActionError(action.notation(), "battle-rival", "a battle is called against a rival")
        attack = self._instance(draft, action.card, draft.hands[action.player], action, "battle-card-in-hand",
                                "in your hand")
        if not draft.facts.battle[attack]:
            raise IllegalActionError(action.notation(), "battle-card", f"{action.card} is not a battle card")
        treasure = self._instance(draft, action.treasure, draft.counters[action.target], action,
                                  "battle-for-treasure", "on {}'s counter", action.target)
        if draft.marks and any(m[0] == "protect" and m[1] == treasure for m in draft.marks):
            raise IllegalActionError(action.notation(), "battle-protected", f"{action.treasure} is protected")

    def _check_move(self, draft: Draft, action: Move) -> None:
        self._need_phase(draft, action, "turn")
        if not draft.spaces:
            raise IllegalActionError(action.notation(), "queen-needs-map", "there is no Kingdom map in this game")
        if action.space not in self._reachable(draft):
            raise IllegalActionError(action.notation(), "queen-access",
                                     f"the Queen cannot go from {draft.queen} to {action.space}: no access joins them")

    def _check_lay(self, draft: Draft, action: Lay) -> None:
        self._need_phase(draft, action, "lay")
        self._instance(draft, action.card, draft.laying, action, "lay-drawn-card", "among the cards drawn for the map")
        if action.space not in draft.spaces or draft.map[draft.spaces.index(action.space)] >= 0:
            raise IllegalActionError(action.notation(), "lay-on-empty-terreta", f"{action.space} is not an empty terreta")

    def _check_burn(self, draft: Draft, action: Burn) -> None:
        self._need_phase(draft, action, "burn")
        self._instance(draft, action.card, draft.hands[action.player], action, "burn-hand-card", "in your hand")

    def _check_pass(self, draft: Draft, action: Pass) -> None:
        if draft.phase != "respond":
            self._need_phase(draft, action, "again")

    def _check_nodefence(self, draft: Draft, action: NoDefence) -> None:
        if draft.phase == "several":  # a battle of several (``revolta``)
            self._check_several(draft, action, "defend")
            return
        self._need_phase(draft, action, "defend")

    def _check_defend(self, draft: Draft, action: Defend) -> None:
        if draft.phase == "several":
            self._check_several(draft, action, "defend")
            return
        self._need_phase(draft, action, "defend")
        defence = self._instance(draft, action.card, draft.hands[action.player], action, "defend-from-hand",
                                 "in your hand")
        if not draft.facts.battle[defence]:
            raise IllegalActionError(action.notation(), "defend-with-battle-card", f"{action.card} is not a battle card")

    def _check_coin(self, draft: Draft, action: Coin) -> None:
        """Nothing beyond ``play``'s own check: a chance outcome must be due."""

    def _check_take(self, draft: Draft, action: Take) -> None:
        taker, victim, left = draft.takes
        if (action.taker, action.victim) != (taker, victim):
            raise IllegalActionError(action.notation(), "tails-steal", f"{player(taker)} takes from {player(victim)}")
        self._instance(draft, action.card, draft.hands[victim], action, "take-from-hand", "in {}'s hand", victim)
