"""Card and terreta effects as steps of Fallera's queue: which effects a trigger sets off (``_effects``,
``_triggered``, ``_used``) and how the verbs of one are played (``_verbs``, each acting verb by the function
bound to it in the registry; the conditions are in ``interpreter``)."""

from __future__ import annotations

from typing import Any

from .effects import CardUsed, Coin, Draw, ExtraAction, Win
from .handler_context import VerbContext
from .interpreter import GRANTED, holds, ordered, verbs_at
from .registry import REGISTRY
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

    @REGISTRY.bind(CardUsed, "trigger", reads=("battle", "sold", "counter", "terreta"), plays=("acts",),
                   own=("battle", "sold"))
    def _used(self, draft: Draft, user: int, instance: int) -> tuple[tuple[Any, ...], ...]:
        """The queue steps of what using ``instance`` (in a battle, or selling it) triggers, played by ``user``:
        the used card's own effects first (it has left the hand or counter, so ``on-your-counter`` does not hold
        for it), then the Queen's terreta's, then those of the cards on every counter, the user's first."""
        if not self._uses:
            return ()
        design = draft.designs[instance]
        own = draft.facts.defs[instance].triggered("card-used")
        steps = [("verbs", user, instance, index, "", 0) for index, effect in own
                 if design in effect.when.cards and holds(effect.while_, draft, user, instance)]
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
        """Play the verbs at ``path`` of an effect from ``position``: a step of the queue (see ``interpreter``).
        Each acting verb is played by the function bound to it: it goes on (None), stops the flow (True; what
        is left waits in the queue) or grants another action (``GRANTED``, once the list is played)."""
        verbs = verbs_at(self._effect(draft, source, index), path)
        bindings = REGISTRY.bindings
        granted, log = False, draft.log
        if not path and not position:
            log.append(("trigger", source))  # credited to the card in simulations (Draft.log)
        for k in range(position, len(verbs)):
            verb = verbs[k]
            binding = bindings[type(verb)]
            if binding.kind != "acts":  # standing and describing verbs are read elsewhere (validate refuses them here)
                continue
            log.append((binding.tag, source))
            done = binding.handler(self, draft, who, source, index, path, k, verb)
            if type(done) is tuple:  # a cancel: the rest of the list is dropped with what it cancels
                return done
            if done is True:
                if granted:  # the grant waits in the queue, after the rest of this list and before the turn's end
                    self.schedule(draft, ("grant",))
                return True
            granted = granted or done == GRANTED
        return GRANTED if granted else False


# --- do: the acting verbs, (rules, draft, who, source, index, path, position, verb) -> None | True | GRANTED ---
@REGISTRY.bind(Draw, "acts")
def draw(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int, verb: Draw) -> bool | None:
    """``who`` draws; a draw cut short (a win, the deck running out) leaves the rest of the list waiting."""
    if rules.draw_cards(draft, who, verb.count):
        rules.schedule(draft, ("verbs", who, source, index, path, k + 1))
        return True
    return None


@REGISTRY.bind(Coin, "acts")
def coin(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int, verb: Coin) -> bool:
    """The flow stops for the coin (phase ``effect-coin``); its side's branch, then the rest, wait in the queue."""
    draft.phase = "effect-coin"
    rules.schedule(draft, ("coin", who, source, index, path, k), ("verbs", who, source, index, path, k + 1))
    return True


@REGISTRY.bind(ExtraAction, "acts")
def extra_action(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int,
                 verb: ExtraAction) -> str | None:
    """Another action for ``who`` this turn, when it is their turn (a card used in defence gives its user
    none: the turn is someone else's). How it is granted depends on where the turn is: see ``_resume``."""
    if who != draft.current:
        return None
    draft.phase = "turn"
    return GRANTED


@REGISTRY.bind(Win, "acts")
def win(rules: VerbContext, draft: Draft, who: int, source: Any, index: int, path: str, k: int, verb: Win) -> bool:
    """``who`` wins at once: the game is over."""
    draft.phase, draft.winner, draft.reason = "over", who, "effect-win"
    draft.log.append(("ended", source))
    return True
