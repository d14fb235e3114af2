"""The screen before the language detector: it accepts only texts that plainly show their own language, never a
text in another language (Spanish in the Catalan file above all), and never one the detector would flag."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cardworks.i18n.qa import detect_languages, plainly_in_locale, wrong_language, wrong_language_message
from cardworks.i18n.screen import DISTINCTIVE, FUNCTION_WORDS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from phrases import flavour, rules  # noqa: E402

LOCALES = ("en", "ca", "es", "fr")
SAMPLE = [(rules(i, language), language) for i in range(0, 10_000, 37) for language in LOCALES]
SAMPLE += [(flavour(i, language), language) for i in range(0, 10_000, 37) for language in LOCALES]

# Spanish that looks Catalan: shared words (de, la, el, al, a, en, no, es, cada), words that differ by an accent
# (mas/més, despues/després, tambien/també), Valencian-looking demonstratives, and Catalan card names.
NEAR_MISSES = [
    "Roba una carta del mazo al final de la ronda, y luego pasa el turno al jugador de la izquierda.",
    "Es la carta mas fuerte de la partida: cada jugador la puede usar una vez al final de su turno.",
    "Esta carta es para ti: la pones delante de ti y la guardas hasta el final de la partida.",
    "Despues de la batalla, el jugador que pierde da una moneda a cada rival y roba una carta.",
    "Si no tienes tesoros, mira las tres primeras cartas del mazo y elige una de ellas.",
    "Tambien puedes jugar esta carta en el turno de otro jugador, pero solo una vez por partida.",
    "El Rei Jaume y la Mare de Déu dels Desemparats llegan a la plaza con la banda de música.",
    "Cada vez que un rival juega una carta especial, ganas un punto y el rival pierde su turno.",
]
CATALAN_NAMES = ("Rei Jaume", "Mare de Déu dels Desemparats")


def test_distinctive_words_belong_to_one_language() -> None:
    assert len(DISTINCTIVE) >= 2 and FUNCTION_WORDS
    for language, words in DISTINCTIVE.items():
        for other, listed in FUNCTION_WORDS.items():
            if other != language:
                assert not words & set(listed.split()), (language, other, words & set(listed.split()))


def test_text_in_another_language_never_passes() -> None:
    assert SAMPLE and len(LOCALES) >= 2
    for text, language in SAMPLE:
        for locale in LOCALES:
            if locale != language:
                assert not plainly_in_locale(text, locale), (text, locale)


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_spanish_never_passes_as_catalan(text: str) -> None:
    assert not plainly_in_locale(text, "ca", CATALAN_NAMES)
    assert not plainly_in_locale(text, "ca-valencia", CATALAN_NAMES)
    assert wrong_language(text, "ca", ("en", "ca", "es"), CATALAN_NAMES) is not None  # and the detector flags it


def test_mixed_texts_go_to_the_detector() -> None:
    catalan = "Agafa dues cartes del mall i després passa el torn al jugador de la teua esquerra."
    assert plainly_in_locale(catalan, "ca")
    assert not plainly_in_locale(catalan + " Then draw a card.", "ca")
    assert not plainly_in_locale(catalan + " Y luego baraja el mazo.", "ca")


def test_what_passes_is_what_the_detector_accepts() -> None:
    """Every text the screen accepts is one the detector would not flag; most good texts are accepted."""
    passed = [(text, language) for text, language in SAMPLE if plainly_in_locale(text, language)]
    verdicts = detect_languages([(text, (language, *LOCALES)) for text, language in passed])
    assert not [(t, v) for (t, language), v in zip(passed, verdicts) if wrong_language_message(v, language)]
    assert len(passed) > 0.8 * len(SAMPLE), len(passed)
