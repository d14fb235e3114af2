"""Card and terreta effects as steps of Fallera's queue: which effects a trigger sets off (``_effects``,
``_triggered``, ``_used``) and how the verbs of one are played (``_verbs``; the vocabulary and conditions are
in ``interpreter``)."""

from __future__ import annotations

from typing import Any

from .interpreter import GRANTED, holds, ordered, verbs_at
from .state import Draft


class Triggers:
    """The part of ``FalleraRules`` that plays card and terreta effects."""

    def _effects(self, draft: Draft, event: str, actor: int, everyone: bool = True) -> list[tuple[int, Any, int, Any, str]]:
        """(holder, source, index, effect, design) of every effect with trigger ``event`` that could act now:
        the Queen's terreta's (held by ``actor``), then the cards on the actor's counter and, with ``everyone``,
        on each other counter in turn order."""
        found: list[tuple[int, Any, int, Any, str]] = []
        if self.bonuses and draft.queen in self.bonuses:
            found += [(actor, f"terreta:{draft.queen}", i, e, draft.queen)
                      for i, e in enumerate(self.bonuses[draft.queen]) if e.when.event == event]
        if event not in self._card_events:
            return found
        defs, events = draft.facts.defs, draft.facts.events
        for k in range(draft.players if everyone else 1):
            holder = (actor + k) % draft.players
            for instance in draft.counters[holder]:
                if event in events[instance]:
                    found += [(holder, instance, i, e, draft.designs[instance]) for i, e in defs[instance].triggered(event)]
        return found

    def _triggered(self, draft: Draft, event: str, actor: int) -> tuple[tuple[Any, ...], ...]:
        """The queue steps of the actor's own effects with trigger ``event`` (those of the Queen's terreta and
        of the cards on the actor's counter) whose conditions hold now."""
        steps = []
        found = self._effects(draft, event, actor, everyone=False)
        for holder, source, index, effect, _ in (ordered(found) if len(found) > 1 else found):
            instance = source if type(source) is int else None
            if holds(effect.while_, draft, holder, instance):
                steps.append(("verbs", holder, source, index, "", 0))
        return tuple(steps)

    def _used(self, draft: Draft, user: int, instance: int) -> tuple[tuple[Any, ...], ...]:
        """The queue steps of what using ``instance`` (in a battle, or selling it) triggers, played by ``user``."""
        if not self._uses:
            return ()
        design = draft.designs[instance]
        steps = []
        for holder, source, index, effect, _ in self._effects(draft, "card-used", user):
            if design in effect.when.cards and holds(effect.while_, draft, holder, source if type(source) is int else None):
                steps.append(("verbs", user, source, index, "", 0))
        return tuple(steps)

    def _effect(self, draft: Draft, source: Any, index: int) -> Any:
        if type(source) is int:
            return draft.facts.defs[source].effects[index]
        return self.bonuses[source.removeprefix("terreta:")][index]

    def _verbs(self, draft: Draft, who: int, source: Any, index: int, path: str,
               position: int) -> Any:
        """Play the verbs at ``path`` of an effect from ``position``: a step of the queue (see ``interpreter``)."""
        verbs = verbs_at(self._effect(draft, source, index), path)
        granted, log = False, draft.log
        if not path and not position:
            log.append(("trigger", source))
        for k in range(position, len(verbs)):
            verb = verbs[k]
            name = verb.verb
            log.append((name, source))
            if name == "draw":
                if self._draw(draft, who, verb.count):
                    self._later(draft, ("verbs", who, source, index, path, k + 1))
                    return True
            elif name == "coin":
                draft.phase = "effect-coin"
                self._later(draft, ("coin", who, source, index, path, k), ("verbs", who, source, index, path, k + 1))
                return True
            elif name == "extra-action":
                draft.phase, granted = "turn", True
            elif name == "win":
                draft.phase, draft.winner, draft.reason = "over", who, "effect-win"
                log.append(("ended", source))
                return True
        return GRANTED if granted else False
