"""Scripted chance for a scenario's opening deal: each shuffle and random pick is written in the scenario.

A game's setup draws its chance from an rng (``shuffle``, ``sample``); a
scenario passes this object instead, so an opening deal (the shuffles, the
re-deals they cause, the territorial foods handed out) is as explicit as any
later step. It is strict like the runner: a shuffle or pick the script does not
give, a card it names that is not in the pile, or a scripted shuffle left
unused is an error that says which.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import CardworksError


class ScriptError(CardworksError, ValueError):
    """The script does not match what the setup asked for."""


class ScriptedChance:
    """Stands in for ``random.Random`` during a setup.

    ``shuffles``: for each shuffle in turn, the designs that end on top, top first; the
    rest of the pile keeps the order it had (at the first shuffle, the deck's catalogue order).
    ``samples``: for each random pick in turn, the items picked.
    ``designs``: the design of each card instance, to read the numbers being shuffled.
    """

    def __init__(self, designs: Sequence[str], shuffles: list[list[str]], samples: list[list[Any]] | None = None) -> None:
        self.designs = designs
        self.shuffles = [list(s) for s in shuffles]
        self.samples = [list(s) for s in samples or []]
        self.used_shuffles = 0
        self.used_samples = 0

    def shuffle(self, pile: list[int]) -> None:
        """Reorder ``pile`` in place: the next scripted designs on top, the rest after them in their order."""
        if self.used_shuffles == len(self.shuffles):
            raise ScriptError(f"the setup shuffles {self.used_shuffles + 1} times; the script gives "
                              f"{len(self.shuffles)} shuffle(s) (a re-deal the script did not expect?)")
        top = self.shuffles[self.used_shuffles]
        self.used_shuffles += 1
        rest = list(pile)
        chosen = []
        for design in top:
            found = next((i for i in rest if self.designs[i] == design), None)
            if found is None:
                raise ScriptError(f"shuffle {self.used_shuffles} puts {design!r} on top, "
                                  "but the pile holds no (further) card of that design")
            rest.remove(found)
            chosen.append(found)
        pile[:] = chosen + rest

    def sample(self, population: Sequence[Any], k: int) -> list[Any]:
        """The next scripted pick of ``k`` items from ``population``."""
        if self.used_samples == len(self.samples):
            raise ScriptError(f"the setup picks {k} of {', '.join(map(str, population))} at random; the script gives no pick")
        picked = self.samples[self.used_samples]
        self.used_samples += 1
        if len(picked) != k or any(item not in population for item in picked):
            raise ScriptError(f"pick {self.used_samples} must be {k} of {', '.join(map(str, population))}, got {picked}")
        return list(picked)

    def unused(self) -> list[str]:
        """What the script gives that the setup never asked for."""
        left = []
        if self.used_shuffles < len(self.shuffles):
            left.append(f"{len(self.shuffles) - self.used_shuffles} shuffle(s)")
        if self.used_samples < len(self.samples):
            left.append(f"{len(self.samples) - self.used_samples} pick(s)")
        return left
