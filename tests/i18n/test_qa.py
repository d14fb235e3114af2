"""Translation QA catches what breaks a card: copies, cut sentences, short texts, wrong language, typography."""

from __future__ import annotations

import pytest

from cardworks.i18n.qa import detect_language, translation_warnings, typography_warnings, wrong_language

SOURCE = "Steal one treasure from a rival's counter, then draw two cards from the deck."


@pytest.mark.parametrize("text, code", [
    (SOURCE, "same-as-source"),
    ("Roba un tresor del mostrador d'un rival i després", "truncated"),
    ("Roba un tresor.", "too-short"),
])
def test_broken_translations_are_flagged(text: str, code: str) -> None:
    assert code in [c for c, _ in translation_warnings(SOURCE, text, "ca", "rules")]


def test_names_may_equal_their_source() -> None:
    assert translation_warnings("el capità moro", "el capità moro", "ca", "name") == []
    assert translation_warnings("Batalla de Almansa", "Batalla de Almansa", "es", "alt_names/0") == []


def test_a_good_translation_passes() -> None:
    good = "Roba un tresor del mostrador d'un rival i després agafa dues cartes del mall."
    assert translation_warnings(SOURCE, good, "ca", "rules") == []
    assert wrong_language(good, "ca", ("en", "ca", "es")) is None


@pytest.mark.parametrize("text, locale", [
    ("Roba un tresor del mostrador d'un altre jugador i posa'l al teu mostrador.", "es"),
    ("Steal one treasure from another player's counter and keep it for yourself.", "ca"),
    ("Roba un tesoro del mostrador de otro jugador y quédatelo para ti.", "ca"),
])
def test_wrong_language_is_caught(text: str, locale: str) -> None:
    assert wrong_language(text, locale, ("en", "ca", "es")) is not None


def test_dutch_paragraph_in_french_is_caught() -> None:
    dutch = "De actieve speler gooit de dobbelstenen maximaal drie keer en legt de schedels meteen opzij."
    french = "Le joueur actif lance les dés jusqu'à trois fois et met aussitôt les crânes de côté."
    assert wrong_language(dutch, "fr", ("fr", "nl")) is not None
    assert wrong_language(french, "fr", ("fr", "nl")) is None


def test_names_are_ignored_when_guessing() -> None:
    text = "Can the sobresalt! ability of Queixalets be used in a Batalla d'Almansa or a revolta de les Germanies?"
    assert wrong_language(text, "en", ("en", "ca", "es"), ("revolta de les Germanies", "Batalla d'Almansa", "Queixalets")) is None


def test_short_texts_are_not_guessed() -> None:
    assert detect_language("Sí.", ("ca", "es")) is None


@pytest.mark.parametrize("text, locale, flagged", [
    ("Attention: lancez les dés!", "fr", True),
    ("Attention\u202f: lancez les dés\u202f!", "fr", False),
    ("Una col.lecció de cartes", "ca", True),
    ("Una col·lecció de cartes", "ca", False),
    ('Diu "hola"', "ca", True),
    ("Diu «hola»", "ca", False),
    ('He said "hello"', "en", False),
])
def test_typography(text: str, locale: str, flagged: bool) -> None:
    assert bool(typography_warnings(text, locale)) is flagged


def test_the_dutch_paragraphs_of_the_calavera_rulebook_are_flagged() -> None:
    """The French Calavera rulebook mixes in Dutch paragraphs: the language check finds exactly those."""
    from pathlib import Path

    source = Path(__file__).resolve().parents[3] / "shared" / "rulebooks" / "calavera.fr.txt"
    if not source.is_file():
        pytest.skip("the shared rulebooks are not beside this checkout")
    flagged, clean = [], []
    for line in source.read_text(encoding="utf-8").splitlines():
        text = line.strip("• ").strip()
        if len(text) < 60:
            continue
        (flagged if wrong_language(text, "fr", ("fr", "nl")) else clean).append(text)
    dutch = ("Calavera's opnieuw", "Minder kruisjes", "Verkeerde volgorde", "Jokers vergeten", "Berg het spelmateriaal")
    assert sorted(next(d for d in dutch if t.startswith(d)) for t in flagged) == sorted(dutch)
    assert len(clean) >= 7 and any(t.startswith("Le but de Calavera") for t in clean)
