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
        "playing a special card from the hand, as the turn's action or at the moment its text names (on any "
        "turn), with its target, and a paella protectora's chance to cancel it by rank (fallera-base lines 40-51)",
        ()),
    "stated-battle-values": (
        "the attack and defence of the battle cards a worked example names: the example of the revolta de les "
        "Germanies (fallera-2 line 40) says which defences the Tombatossals beats, but no rulebook states the "
        "values of the Tombatossals, the xicona de Xixona, the cagalló or the cuca fera, so no scenario can replay "
        "it without inventing them (the revolta's own rulings are checked with example cards)",
        ("discordia-revolta-example",)),
    "attachments": (
        "a special card attached to a battle card or to an ingredient, changing it while attached "
        "(fallera-2 lines 37-38; fallera-3 line 211)",
        ()),
    "counter-specials": (
        "a special card placed on a counter as the turn's action, acting while it lies there",
        ()),
    "several-battles": (
        "several battles from one play: one attack against several rivals, a battle for several treasures, or a "
        "second battle in the same turn",
        ()),
    "battle-diversion": (
        "diverting a declared battle onto another player's treasure, with the cards used in it",
        ()),
    "queen-moved-by-card": (
        "a card moving the Calavera Queen outside the move action, changing how far the move action goes, or "
        "cancelling a movement",
        ()),
    "hand-discards": (
        "a player discarding cards of their own choosing from their hand as a card's cost or effect "
        "(fallera-3 lines 131-134)",
        ()),
    "borrowed-hand": (
        "a player making their play with another player's hand cards",
        ()),
    "counter-treasure-use": (
        "discarding a treasure from the counter as the turn's action for what its text gives, and taking a map "
        "card without moving the Queen",
        ()),
    "stat-against-card": (
        "a battle card whose value depends on the card it faces, or on what the battle is fought for",
        ()),
}
"""Feature id → (what is missing, rulings that need it)."""
