"""Setting up a game of La Fallera Calavera: the shuffle, the Kingdom map's first cards (expansion 3),
the deal (treasures straight onto the counters, a re-deal on three or more ingredients) and who starts."""

from __future__ import annotations

import random

from ...engine.core import SetupRefused
from .state import Draft, State, frozen, thawed

MAX_REDEALS = 100
"""Deals (and, within each, map draws) tried before the setup is refused: a deck that cannot give a deal the
rules keep would otherwise shuffle for ever. Seeded games need at most 14 shuffles in all (docs/engine.md)."""
REDEAL_RULE = "redeal-ingredients"
"""game.json's parameter: a counter dealt this many ingredients or more is dealt again."""
MAP_RULE = "max-ingredients-on-map-setup"
"""game.json's parameter: the most ingredients the map's first cards may hold before they are drawn again."""


class Deal:
    """The part of ``FalleraRules`` that deals a new game."""

    def new_game(self, *, rng: random.Random, deal: int, designs: tuple[str, ...] | None = None) -> State:
        """Shuffle, lay the map (expansion 3), deal, place treasures, re-deal on 3+ ingredients, choose who starts.

        A deal is put together whole (each hand's treasures sorted onto its counter, the rest sorted into the
        hand, as ``receive`` would place them one by one) and only the deal kept is thawed to start the game."""
        if designs is None:
            designs = self.deck_designs()
        facts = self.deck_facts(designs)
        ingredient, treasure = facts.ingredient, facts.treasure
        instances = list(range(len(designs)))
        spaces = tuple(self.board) if self.board else ()
        foods = tuple(rng.sample(self.food_spaces, self.players)) if spaces else ()
        for _ in range(MAX_REDEALS):
            rng.shuffle(instances)
            layout: tuple[int, ...] = ()
            if spaces:
                for draw in range(MAX_REDEALS):  # two or more ingredients on the map: shuffle back, draw again
                    if draw:
                        rng.shuffle(instances)
                    layout = tuple(instances[: len(spaces)])
                    if sum(self.defs[designs[i]].kind == "ingredient" for i in layout) < 2:
                        break
                else:
                    self._refuse_deal(MAP_RULE, f"{MAX_REDEALS} draws of the map's first {len(spaces)} cards each held "
                                                "two or more ingredients")
            rest = instances[len(layout):]
            hands = [rest[p * deal : (p + 1) * deal] for p in range(self.players)]
            counters = tuple(tuple(sorted(i for i in hand if treasure[i])) for hand in hands)
            if all(sum(map(ingredient.__getitem__, counter)) < 3 for counter in counters):
                break
        else:
            self._refuse_deal(REDEAL_RULE, f"{MAX_REDEALS} deals each put three or more ingredients on a counter")
        kept = tuple(tuple(sorted(i for i in hand if not treasure[i])) for hand in hands)
        state = State(designs, kept, counters, tuple(rest[self.players * deal :]), (), 0, "turn", self.discord,
                      spaces=spaces, map=layout, queen="start" if spaces else None, foods=foods,
                      revealed=tuple(False for _ in foods))
        draft = thawed(state, facts)
        draft.rng = rng  # the first turn may start here, and its effects may draw chance like any step's
        self._choose_first(draft)
        return frozen(draft)

    def _refuse_deal(self, rule: str, what: str) -> None:
        """SetupRefused: the deck gave no deal the rules keep within ``MAX_REDEALS`` tries (a deck of nearly all
        ingredients), never a game started from a deal the rulebook says to deal again."""
        raise SetupRefused(rule, self.setup_sources.get(rule, "game.json#/parameters"),
                           f"{what}; this deck of {len(self.deck_designs())} cards gives no deal the rules keep")

    def deck_designs(self) -> tuple[str, ...]:
        """The design of each card instance of a new game, in catalogue order (by id) before any shuffle."""
        if self._deck is None:
            self._deck = tuple(d for card in sorted(self.defs.values(), key=lambda c: c.id) for d in [card.id] * card.copies)
        return self._deck

    def _choose_first(self, draft: Draft) -> None:
        ingredient = draft.facts.ingredient
        keys = [(len(counter), sum(map(ingredient.__getitem__, counter))) for counter in draft.counters]
        best = min(keys)
        tied = tuple(p for p, key in enumerate(keys) if key == best)
        if len(tied) == 1:
            draft.current, draft.turn = tied[0], 1
            self._start_turn(draft)
        else:
            draft.phase, draft.candidates = "first", tied

    def started(self, state: State, rng: random.Random | None = None) -> State:
        """``state`` once its current player's turn has started (a scenario's explicit position); the turn's
        start draws its chance from ``rng``."""
        draft = thawed(state, self.facts(state))
        draft.rng = rng
        self._start_turn(draft)
        return frozen(draft)
