"""What Fallera's engine cannot play yet: the features cards and rulings wait on.

Each feature is named by an id with what is missing and the rulings that need it
(rulings that state behaviour no scenario can check yet although all their cards
are modelled). A card whose stated behaviour needs a feature names it in its
``needs`` (``{"feature": …, "behaviour": …}``); ``validate`` refuses an id not
declared here, and the card is left out of play with the behaviour and the
feature named. ``cardworks check`` counts, per feature, the cards it would free.
"""

from __future__ import annotations

FEATURES: dict[str, tuple[str, tuple[str, ...]]] = {
    "reveal-territorial-food": (
        "no modelled card makes a player reveal their territorial food (only a territorial win reveals it), "
        "so no scenario can reveal one and then see that it stays revealed",
        ("mes-enlla-territorial-food-stays-revealed",)),
    "coin-symbol-cards": (
        "no card in the data carries the humour-coin symbol; apart from the seafood ingredients, the Interior "
        "bonus and the effects' coin verb, coin tosses asked for by cards are not modelled",
        ("discordia-humour-coin-symbol",)),
    "special-play": (
        "a special whose play changes the shape of the turn: several actions from one card, with rules for how "
        "other extra plays combine with them (playing a special as the action or in one of the six response "
        "windows, with its targets and the rank table's cancels, is played)",
        ()),
    "stated-battle-values": (
        "the attack and defence of the battle cards a worked example names: the example of the revolta de les "
        "Germanies (fallera-2 line 40) says which defences the Tombatossals beats, but no rulebook states the "
        "values of the Tombatossals, the xicona de Xixona, the cagalló or the cuca fera, so no scenario can replay "
        "it without inventing them (the revolta's own rulings are checked with example cards)",
        ("discordia-revolta-example",)),
    "attachments": (
        "a special card attached face down to a battle card, changing that battle while attached "
        "(fallera-2 lines 37-38; one attached to an ingredient, fallera-3 line 211, is played: ``attach``)",
        ()),
    "counter-specials": (
        "a special card placed on a counter as the turn's action, acting while it lies there",
        ()),
    "several-battles": (
        "a battle against one rival for several treasures that may change hands either way (one attack against "
        "several rivals is played: ``several-battles``)",
        ()),
    "battle-diversion": (
        "diverting a declared battle onto another player's treasure, with the cards used in it",
        ()),
    "queen-moved-by-card": (
        "an ability moving the Calavera Queen in the middle of a battle, a card changing how far the move action "
        "goes or making another player move it, or cancelling a card's movement of it (a special that moves it, "
        "``move-queen``, and cancelling the move action in the ``queen-moving`` window are played)",
        ()),
    "hand-discards": (
        "hand cards discarded as a card's cost, a player keeping cards a rival discards, or a discard set off by "
        "a battle declared against a counter card's holder (fallera-3 lines 131-134; a discard as an effect, of "
        "the player's own choosing, at random or by the acting player's pick, is played: ``discard``)",
        ()),
    "borrowed-hand": (
        "a player making their play with another player's hand cards",
        ()),
    "counter-treasure-use": (
        "discarding a treasure from the counter as the turn's action for what its text gives (taking a map card "
        "without moving the Queen is played: ``take-from-map``)",
        ()),
    "stat-against-card": (
        "a battle card whose value depends on the card it faces, or on what the battle is fought for",
        ()),
}
"""Feature id → (what is missing, rulings that need it)."""
