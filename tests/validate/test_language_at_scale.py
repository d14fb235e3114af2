"""The language check at scale: texts are judged in one batch, apart from the other checks, each distinct wording once;
a translation in the wrong language is still found, in its place, among hundreds of good ones."""

from __future__ import annotations

from pathlib import Path

from conftest import GameDir
from cardworks.i18n import source_hash
from cardworks.i18n.qa import _detector, detect_language, detect_languages
from cardworks.validate import validate

PARTS = {
    "en": (["Draw a card", "Steal a coin from a rival", "Discard two cards", "Move one space forward",
            "Look at the top card of the deck", "Give a coin to the player on your left"],
           ["at the start of your turn", "when a battle begins", "after you lose a fight", "before the dice are rolled",
            "at the end of the round", "while the bonfire is burning"],
           ["and then shuffle the deck", "unless someone stops you", "but only once per game",
            "and tell everyone what you chose", "and keep this card in front of you", "even if you have already attacked",
            "and no one may answer", "and put this card under the deck", "then everybody draws a card"]),
    "ca": (["Agafa una carta", "Roba una moneda a un rival", "Descarta dues cartes", "Avança una casella",
            "Mira la primera carta del mall", "Dona una moneda al jugador de la teua esquerra"],
           ["al començament del teu torn", "quan comença una batalla", "després de perdre una lluita",
            "abans de tirar els daus", "al final de la ronda", "mentre crema la foguera"],
           ["i després barreja el mall", "tret que algú t'ho impedisca", "però només una vegada per partida",
            "i digues a tothom què has triat", "i guarda aquesta carta davant teu", "encara que ja hages atacat",
            "i ningú no pot respondre", "i posa aquesta carta sota el mall", "i després tothom agafa una carta"]),
    "es": (["Roba una carta", "Quita una moneda a un rival", "Descarta dos cartas", "Avanza una casilla",
            "Mira la primera carta del mazo", "Da una moneda al jugador de tu izquierda"],
           ["al comienzo de tu turno", "cuando empieza una batalla", "después de perder una pelea",
            "antes de lanzar los dados", "al final de la ronda", "mientras arde la hoguera"],
           ["y luego baraja el mazo", "a menos que alguien te lo impida", "pero solo una vez por partida",
            "y di a todos qué has elegido", "y guarda esta carta delante de ti", "aunque ya hayas atacado",
            "y nadie puede responder", "y pon esta carta debajo del mazo", "y luego todos roban una carta"]),
}
CARDS = 320
WRONG_CARD = 137
FRENCH = "Piochez une carte au début de votre tour, puis mélangez la pioche et passez votre tour."


def text(i: int, locale: str) -> str:
    first, second, third = PARTS[locale]
    return f"{first[i % 6]} {second[i // 6 % 6]}, {third[i // 36 % 9]}."


def write_big_game(game: GameDir) -> None:
    """Hundreds of cards translated into Catalan and Spanish; three texts in the wrong language."""
    game.files["game.json"]["locales"] = ["en", "ca", "es"]
    cards = [{"id": f"big-{i:04d}", "quantity": 1, "types": ["battle"], "stats": {"attack": 1, "defence": 1},
              "name": f"Big {i}", "rules": text(i, "en"), "sources": game.files["sets/base.json"]["cards"][1]["sources"]}
             for i in range(CARDS)]
    cards[250]["rules"] = text(250, "es")  # the source itself in Spanish
    game.files["sets/big.json"] = {"$schema": "../../../schema/set.schema.json", "id": "big", "name": "Big",
                                   "totals": {"designs": CARDS}, "cards": cards}
    for locale in ("ca", "es"):
        entries = game.files.setdefault(f"i18n/{locale}.json", {"$schema": "../../../schema/translations.schema.json",
                                                                "game": "mini", "locale": locale, "entries": {}})["entries"]
        for i, card in enumerate(cards):
            translated = text(i, locale)
            if i == WRONG_CARD:
                translated = text(i, "es" if locale == "ca" else "en")  # Spanish in the Catalan file, English in the Spanish one
            entries[card["id"]] = {"rules": {"text": translated, "source_hash": source_hash(card["rules"])}}
    game.write()


EXPECTED_WRONG = [("big.json", "/cards/250/rules"), ("ca.json", f"/entries/big-{WRONG_CARD:04d}/rules/text"),
                  ("es.json", f"/entries/big-{WRONG_CARD:04d}/rules/text")]


def test_wrong_language_is_found_among_hundreds_of_cards(game: GameDir) -> None:
    write_big_game(game)
    report = validate(game.cards_root)
    wrong = [(Path(p.file).name, p.location) for p in report.warnings if p.code == "wrong-language"]
    assert wrong == EXPECTED_WRONG, wrong
    assert not report.errors, [p.text() for p in report.errors]
    # Each warning sits where the check that found it ran (the Catalan one before the Spanish file's problems),
    # not all at the end.
    files = [(Path(p.file).name, p.code) for p in report.items]
    assert files.index(("ca.json", "wrong-language")) < min(i for i, (name, _) in enumerate(files) if name == "es.json")


def test_batch_verdicts_are_the_detectors_own() -> None:
    """Judging many texts at once, each distinct wording once, gives what the detector says of each text alone."""
    candidates = ("ca", "en", "ca", "es")
    texts = [text(i, locale) for i in range(0, 60, 7) for locale in ("en", "ca", "es")]
    texts += [texts[1].upper(), texts[1].replace(",", " 12,"), "Ok.", FRENCH]
    batch = detect_languages([(t, candidates) for t in texts])
    alone = [detect_language(t, candidates) for t in texts]

    def same(a, b) -> bool:  # the detector's sums may differ in the last bits from one call to the next
        return a == b or (a is not None and b is not None and a[0] == b[0] and abs(a[1] - b[1]) < 1e-9)

    assert all(same(a, b) for a, b in zip(batch, alone)), list(zip(batch, alone))
    assert batch[-2] is None  # too short to guess
    assert same(batch[-4], batch[1]) and same(batch[-3], batch[1])  # case, digits and punctuation change nothing
    assert {verdict[0] for verdict in batch[:-4]} == {"en", "ca", "es"}
    quick = _detector(("ca", "en", "es"), True)
    for t, verdict in zip(texts[:-4], batch):
        if verdict[0] == "ca":  # the quick screen's own verdict on the whole text, unnormalised
            alone = quick.compute_language_confidence_values(t)[0]
            assert alone.language.name == "CATALAN" and abs(alone.value - verdict[1]) < 1e-9, (t, verdict, alone)
