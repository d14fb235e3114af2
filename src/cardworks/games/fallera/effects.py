"""La Fallera Calavera's card behaviour as data: an effect is *when* × *while* × *do*.

``when`` is the trigger (the moment the effect acts), ``while`` the conditions
that must all hold then, ``do`` the verbs played in order. A terreta's bonuses
on the board's expert side are effects too, holding only while the Queen stands
there. Each member below is a pydantic model tagged by ``event``, ``is`` or
``verb``: an unknown name is a validation error. Each member is bound to the
code that handles it, and says where it is read, in ``registry.REGISTRY``; a
member with no handler leaves the card out of play with that reason instead of
playing it blank, and an effect placed where its trigger is never read is
refused by ``validate`` (``effect-never-fires``). ``docs/effects.md`` is generated from these
docstrings (``python -m cardworks.games.fallera.effects_doc``).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from ...models.base import Model, Ref

Count = Annotated[int, Field(ge=1, le=10)]


# --- when: triggers ---------------------------------------------------------------------------------
class Always(Model):
    """A standing effect: it holds at every moment its conditions hold (a count, a stat, a view). It plays no
    verb that acts (a draw, a coin): those need a trigger."""

    event: Literal["always"] = "always"


class TurnStart(Model):
    """At the start of the holder's turn (after the expert burn), before the turn's action. Effects of one
    turn start resolve in the order of the counter, except that an effect resolves after those of the cards its
    ``after`` names."""

    event: Literal["turn-start"]


class DeckRunsOut(Model):
    """At the instant the deck runs out, when that ends the game (with expansion 2)."""

    event: Literal["deck-runs-out"]


class CardUsed(Model):
    """Whenever one of ``cards`` is used: played in a battle (attack or defence) or sold. The verbs act for
    the player who used it, on or off turn. The card being used reads its own such effect when its own design
    is among ``cards`` (first, before the terreta's and the counters'); a card on any counter and the Queen's
    terreta read theirs whoever uses the card."""

    event: Literal["card-used"]
    cards: list[Ref] = Field(min_length=1)
    """The designs whose use triggers it."""


class MoveEndsTurn(Model):
    """When moving the Queen is the last thing of a turn (and no Realm card grants another action)."""

    event: Literal["move-ends-turn"]


class Played(Model):
    """A special card played from its holder's hand as the turn's whole action (fallera-base line 51: special
    cards are used on your turn and take the entire turn). The card goes to the cemetery (single use, line 58)
    and its verbs act for the player who played it, once every player offered the chance has let it through
    (a ``card-played`` window)."""

    event: Literal["played"]


class BattleCalled(Model):
    """A response: when a battle is called, before the defence is chosen, the players after the attacker in
    seat order who hold a special with this trigger (its conditions holding) are offered to play it, each in
    turn, or to pass. Played this way it takes no action (fallera-base line 51, cards with their own moment of
    use)."""

    event: Literal["battle-called"]


class CardPlayed(Model):
    """A response: when a special card is played from the hand (as an action or as a response), the other
    players in seat order from its player's left who hold a special with this trigger are offered to play it,
    or to pass. Its ``cancel`` may answer only a card of its own rank or lower (fallera-base line 39)."""

    event: Literal["card-played"]


class BattleResolving(Model):
    """A response: when a battle is about to resolve, once the defence is chosen (or none) and the attack is
    revealed (fallera-base line 28), before the cards are compared. Both cards are then public. The players
    after the attacker in seat order (the defender among them) who hold a special with this trigger are offered
    to play it, or to pass. Its ``cancel`` ends the battle unresolved: both battle cards go to the cemetery, the
    treasure stays, the attacker's action ends."""

    event: Literal["battle-resolving"]


class TreasureChangingHands(Model):
    """A response: when a treasure is about to leave one counter for another (a battle won, a ``steal``), the
    players after the one taking it, in seat order, who hold a special with this trigger are offered to play
    it, or to pass. Its ``cancel`` keeps the treasure where it is; the rest of the action goes on."""

    event: Literal["treasure-changing-hands"]


class QueenMoving(Model):
    """A response: when the Calavera Queen is about to move (the move action, expansion 3), before she leaves
    her terreta, the players after the mover in seat order who hold a special with this trigger are offered to
    play it, or to pass. Its ``cancel`` keeps her where she is: no card is taken, the mover's action is spent."""

    event: Literal["queen-moving"]


class CardBeingUsed(Model):
    """A response: when a card is about to be used, that is sold (before it leaves its counter) or played in
    defence (before the battle resolves), the players after its user in seat order who hold a special with this
    trigger are offered to play it, or to pass. Its ``cancel`` leaves the card where it was and it does nothing:
    a sale sells nothing (the seller's action is spent, the treasure stays on the counter), a defence goes back
    to the defender's hand and the battle resolves as if undefended. The attack's moment is ``battle-called``."""

    event: Literal["card-being-used"]


Trigger = Annotated[Union[Always, TurnStart, DeckRunsOut, CardUsed, MoveEndsTurn, Played, BattleCalled, CardPlayed,
                          BattleResolving, TreasureChangingHands, QueenMoving, CardBeingUsed],
                    Field(discriminator="event")]
RESPONSES = ("battle-called", "card-played", "battle-resolving", "treasure-changing-hands", "queen-moving",
             "card-being-used")
"""The triggers that open a response window (played from the hand on any player's turn, without an action)."""
RESPONSE_ORDER = """Who is asked, and in what order responses resolve. A window is offered to the players after
the acting player, in seat order from their left, each holding a special that may answer it being asked in turn
(respond or pass). A response resolves at once, before the next player is asked: first its own ``card-played``
window (a response to the response), then its verbs, so of two stacked responses the later one resolves first
and may cancel the earlier. A ``cancel`` closes its window: the players not yet asked are not asked. What a
``cancel`` in a ``card-played`` window may answer follows the rank table (fallera-base lines 39-50): a card of
lower rank, never one of higher rank (a paella protectora, n2, cannot cancel la riuà, n6). Of two specials of the
same rank the rulebooks say nothing, except that a paella protectora may cancel another (official FAQ): a deck
in which a ``card-played`` cancel could meet a special of another design and its own rank is refused by
``validate`` (``cancel-same-rank``), and the engine stops with an error if one is ever played. The seat order
of a window and that a cancel closes it are this engine's reading of the rulebooks, which give no order for
responses on another player's turn (fallera-base line 51 says only that such cards have their own moment)."""


# --- while: conditions ------------------------------------------------------------------------------
class OnYourCounter(Model):
    """The card is on its holder's counter (a treasure in play)."""

    is_: Literal["on-your-counter"] = Field(alias="is")


class WithCard(Model):
    """A card of design ``card`` is on the same counter."""

    is_: Literal["with-card"] = Field(alias="is")
    card: Ref
    """The design that must be on the same counter."""


class WithoutCard(Model):
    """No card of design ``card`` is on the same counter."""

    is_: Literal["without-card"] = Field(alias="is")
    card: Ref
    """The design that must not be on the same counter."""


class PlayerCount(Model):
    """The game has one of ``counts`` players."""

    is_: Literal["player-count"] = Field(alias="is")
    counts: list[Annotated[int, Field(ge=1, le=20)]] = Field(min_length=1)
    """The player counts at which it holds."""


class QueenIn(Model):
    """The Calavera Queen stands in ``terreta``."""

    is_: Literal["queen-in"] = Field(alias="is")
    terreta: Ref
    """The terreta (a board space)."""


class AgainstYou(Model):
    """The battle being called targets the card's holder (for a ``battle-called`` response)."""

    is_: Literal["against-you"] = Field(alias="is")


class Yours(Model):
    """What the response window is about is on the holder's counter: the treasure about to change hands or
    fought over, the card about to be sold (for a response: "when a treasure of yours would be stolen")."""

    is_: Literal["yours"] = Field(alias="is")


Condition = Annotated[Union[OnYourCounter, WithCard, WithoutCard, PlayerCount, QueenIn, AgainstYou, Yours],
                      Field(discriminator="is_")]


# --- do: verbs --------------------------------------------------------------------------------------
class AsItsType(Model):
    """Nothing beyond its type: the text only restates what the card's type and kind do (sell for its value,
    battle with its A/D, count as its ingredient category)."""

    verb: Literal["as-its-type"]


class RestatesTerretaBonus(Model):
    """Nothing of its own: the text restates a bonus of ``terreta`` on the board's expert side, which names
    this card and which the board's effects play."""

    verb: Literal["restates-terreta-bonus"]
    terreta: Ref
    """The terreta whose bonus names this card."""


class PartOf(Model):
    """Nothing of its own: what the text says is played by ``card``'s effects (which name this card in a
    condition)."""

    verb: Literal["part-of"]
    card: Ref
    """The design whose effects play this card's text."""


class CountAsIngredients(Model):
    """The ingredient counts as ``value`` valid ingredients (0 makes it count for nothing). On a special
    attached to an ingredient (``attach``), the ingredient counts as at least ``value``: one already worth as
    much is not raised (fallera-3 line 211)."""

    verb: Literal["count-as-ingredients"]
    value: Annotated[int, Field(ge=0, le=5)]
    """How many valid ingredients it counts as."""


class ValidIngredient(Model):
    """Ingredients of ``cards`` count as valid ingredients (a forbidden one no longer blocks a win)."""

    verb: Literal["valid-ingredient"]
    cards: list[Ref] = Field(min_length=1)
    """The ingredient designs made valid."""


class ModifyStat(Model):
    """Battle cards of ``cards`` add ``attack`` and ``defence`` (negative values take away)."""

    verb: Literal["modify-stat"]
    cards: list[Ref] = Field(min_length=1)
    """The battle card designs changed (a card's own effect: when its holder uses them)."""
    attack: int = 0
    """Added to the attack."""
    defence: int = 0
    """Added to the defence."""


class FaceUpAttacks(Model):
    """Battle cards used against the holder are played face up (every player sees them)."""

    verb: Literal["face-up-attacks"]


class Draw(Model):
    """The acting player draws ``count`` cards from the deck, one at a time (a win is looked for as each
    arrives)."""

    verb: Literal["draw"]
    count: Count
    """How many cards."""


class Coin(Model):
    """Toss the humour coin (a chance outcome, scripted in scenarios); then play the verbs of the side it
    lands on, then the rest."""

    verb: Literal["coin"]
    heads: list["Verb"] = Field(default_factory=list)
    """The verbs played on heads (the Fallera is pleased)."""
    tails: list["Verb"] = Field(default_factory=list)
    """The verbs played on tails (the Fallera is angry)."""


class ExtraAction(Model):
    """The acting player takes another action this turn: after the action that set it off, or, granted as
    the turn starts, one action more than the turn allows. It gives nothing to a player whose turn it is not
    (a card used in defence)."""

    verb: Literal["extra-action"]


class ActionsPerTurn(Model):
    """The holder may take ``count`` actions on their turn instead of one, while the effect's conditions hold
    at the end of each action (the allioli persistent). The Realm symbol's extra action comes only when taking
    the Realm card was the last of them (fallera-3 line 116). As with the Realm's extra action, the engine has
    the player take every action they may (an almoina is always possible)."""

    verb: Literal["actions-per-turn"]
    count: Annotated[int, Field(ge=2, le=5)]
    """How many actions the holder takes on their turn."""


class ReturnToHand(Model):
    """A battle card: after a battle it was used in, won or lost, it goes back to the hand of the player who
    used it instead of to the cemetery, while the effect's conditions hold then (the capità cristià)."""

    verb: Literal["return-to-hand"]


class BattleAgain(Model):
    """A battle card: after a battle it attacked in, won or lost, the attacker may call one more battle
    against the same player in the same turn, or pass (Queixalets' sobresalt!, fallera-3 lines 190-193). The
    second battle is part of the same action; with nothing to battle with or for, the action just ends."""

    verb: Literal["battle-again"]


class Win(Model):
    """The holder wins the game at once (whatever else holds)."""

    verb: Literal["win"]


class Steal(Model):
    """The acting player chooses a treasure on a rival's counter (a decision: ``pN target pM card#n``) and it
    moves onto their own counter (a win is looked for at once). With no treasure on any rival's counter it does
    nothing."""

    verb: Literal["steal"]


class Discard(Model):
    """Each player ``players`` names, in seat order from the acting player's left (``you``: the acting player
    alone; ``chosen``: the player a ``choose-player`` of the same effect chose, asked for here if none was),
    discards ``count`` cards from their hand to the cemetery; a player with fewer cards discards them all.
    ``half`` is half the hand rounded down: with an odd number of cards, half of them minus one (fallera-3 line
    134). Who picks the cards (``chosen_by``): the discarding player (``own``, the rule for one's own hand,
    fallera-3 line 133: ``pN discard card#n``), chance (``random``, drawn with the step's random generator), or
    the acting player, blind, by position in the rival's hand (``acting-player``: ``pN pick pM k``; for the
    acting player's own discards it is their own choice)."""

    verb: Literal["discard"]
    count: Count | Literal["half"]
    """How many cards each of them discards, or ``half`` their hand (rounded down)."""
    players: Literal["rivals", "you", "chosen"] = "rivals"
    """Who discards: every rival of the acting player, the acting player, or the player chosen."""
    chosen_by: Literal["own", "random", "acting-player"] = "own"
    """Who picks the cards discarded: the discarding player, chance, or the acting player (blind)."""


class Cancel(Model):
    """In a response: cancels what the response window answers. A battle called is cancelled: the attack card
    goes to the cemetery, the treasure stays, and the attacker's action ends. A special played is cancelled:
    its verbs are not played (it stays in the cemetery). Only a card of the canceller's rank or lower can be
    answered (fallera-base lines 39-50; a special without a printed rank is n1). What it does in the other
    windows is said with their triggers."""

    verb: Literal["cancel"]


class Protect(Model):
    """The acting player chooses a treasure on their own counter (``pN treasure pN card#n``): until ``until``,
    it cannot be stolen or battled for (no ``steal`` may choose it, no battle may be called for it). With no
    treasure on their counter it does nothing."""

    verb: Literal["protect"]
    until: Literal["your-next-turn-start", "end-of-turn"] = "your-next-turn-start"
    """When the protection ends: as the acting player's next turn starts, or as the current turn ends."""


class SetStat(Model):
    """The acting player chooses the battle in progress (``pN target-battle card#n``, named by its treasure):
    in it, the attack card's attack (``stat: attack``) or the defence card's defence (``stat: defence``) is
    ``value``, whatever is printed or added. With no battle in progress it does nothing."""

    verb: Literal["set-stat"]
    stat: Literal["attack", "defence"]
    """Which value is set: the attack card's attack, or the defence card's defence."""
    value: Annotated[int, Field(ge=0, le=20)]
    """The value it takes in this battle."""


class SwapStats(Model):
    """The acting player chooses the battle in progress (``pN target-battle card#n``): in it, the attack card
    fights with its defence and the defence card with its attack. With no battle in progress it does nothing."""

    verb: Literal["swap-stats"]


class LookAtHand(Model):
    """The acting player looks at the hand of the player a ``choose-player`` of the same effect chose (asked
    for here if none was): until the turn ends, that hand is in the acting player's observation (``looked``),
    and in nobody else's."""

    verb: Literal["look-at-hand"]


class TakeFromMap(Model):
    """The acting player chooses a card on the Kingdom map (``pN target-map card#n``) and takes it, as the
    Queen would (a treasure onto their counter, a win looked for at once); the Queen does not move. An emptied
    map is refilled at once, the acting player laying the cards drawn (fallera-3 lines 106-108). With no card on
    the map (or no map) it does nothing."""

    verb: Literal["take-from-map"]


class ReturnFromCemetery(Model):
    """The acting player chooses a card lying in the cemetery, the discard pile (``pN target-cemetery card#n``),
    other than the card whose effect this is, and it comes back to them as a drawn card would: a treasure onto
    their counter (a win looked for at once), any other card into their hand. With no other card in the
    cemetery it does nothing. No shipped card has it: it is for packs (a verb the engine offers, not a fact)."""

    verb: Literal["return-from-cemetery"]


class MoveQueen(Model):
    """The acting player chooses a terreta other than the Queen's (``pN target-terreta <terreta>``) and the
    Calavera Queen goes there, without following the accesses and without taking its card; a player holding 4
    valid ingredients whose territorial foods are there wins at once (fallera-3 lines 122-125). Without a map it
    does nothing."""

    verb: Literal["move-queen"]


class Attach(Model):
    """The special being played does not stay in the cemetery: the acting player chooses a treasure (``to``)
    on any counter (``pN treasure pM card#n``) and the special is attached to it. It follows the treasure from
    counter to counter, and goes to the cemetery when the treasure does (sold). While attached, its standing
    ``count-as-ingredients`` acts on that treasure (the llenya de taronger, fallera-3 line 211); a win is looked
    for as it is attached. With no such treasure on any counter, the special stays in the cemetery."""

    verb: Literal["attach"]
    to: Literal["treasure", "ingredient"] = "treasure"
    """What it may be attached to: any treasure, or an ingredient."""


class ChoosePlayer(Model):
    """The acting player chooses a rival (``pN choose pM``); the verbs after it in the same effect that act on
    a player (``look-at-hand``, ``discard`` with ``players: chosen``) act on that one."""

    verb: Literal["choose-player"]


class SeveralBattles(Model):
    """The acting player calls one battle against one or more rivals at once (the revolta de les Germanies,
    fallera-2 lines 35-40): for each rival chosen, one treasure on their counter (``pN call pM card#n``; a
    protected treasure is not offered, and a rival need not be called), then one battle card from the hand
    face down (``pN attack-with card#n``), which ends the calling. Each rival called, in seat order from the
    acting player's left, presents a defence (``pN defend card#n``; only the attack is face down) or
    surrenders (``pN no-defence``). Then the attack is revealed and compared with each defence in turn, in the same
    order: each battle won moves its treasure onto the acting player's counter (a win looked for as each
    arrives). The attack card is used once: it goes to the cemetery after the last battle (back to the hand,
    when its ``return-to-hand`` holds, only if it lost none of them, line 39); each defence card as in an
    ordinary battle. A ``battle-again`` does not apply (fallera-3 line 192). No response window opens for these
    battles (a battle called or about to resolve, a treasure changing hands, a card about to be used): a
    response acting on one of them is not modelled yet. With no battle card in hand, or no
    treasure on any rival's counter that may be battled for, it does nothing."""

    verb: Literal["several-battles"]


Verb = Annotated[Union[AsItsType, RestatesTerretaBonus, PartOf, CountAsIngredients, ValidIngredient, ModifyStat,
                       FaceUpAttacks, Draw, Coin, ExtraAction, ActionsPerTurn, ReturnToHand, BattleAgain, Win,
                       Steal, Discard, Cancel, Protect, SetStat, SwapStats, LookAtHand, TakeFromMap, MoveQueen,
                       Attach, ChoosePlayer, SeveralBattles, ReturnFromCemetery],
                 Field(discriminator="verb")]
Coin.model_rebuild()


class Effect(Model):
    """One behaviour of a card (or of a terreta): when it acts, while what holds, and what it does."""

    when: Trigger = Field(default_factory=Always)
    """The trigger; a standing effect (``always``) when left out."""
    while_: list[Condition] = Field(default_factory=list, alias="while")
    """Conditions that must all hold when it acts."""
    do: list[Verb] = Field(min_length=1)
    """What it does, in order."""
    after: list[Ref] = Field(default_factory=list)
    """Designs whose effects of the same trigger resolve before this one (e.g. the gamba's card first)."""


PARTS = {"when": Trigger, "while": Condition, "do": Verb}
"""The three parts of the vocabulary, by the key an effect holds them under."""
