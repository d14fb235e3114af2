"""The capitalisation check of card and component names in running text (typeset_checks.name_case_errors,
docs/typography.md "Card names in running text"), on small texts: it passes the convention and fails on a
planted wrong-case name. The built rulebooks and FAQs are checked in test_documents.py."""

from __future__ import annotations

from typeset_checks import name_case_errors

from cardworks.render.typography import ARTICLES

CARDS = {"el butoni": "El Butoni", "conill": "conill", "paella": "Paella", "l'avi": "L’Avi"}
OTHERS = ["Score pad", "Calavera Queen pawn"]


def errors(text: str, locale: str = "ca") -> list[str]:
    return [seen for seen, _, _ in name_case_errors(text, CARDS, OTHERS, ARTICLES[locale])]


def test_names_as_the_database_writes_them_pass() -> None:
    text = ("El Butoni guanya. Després juga el Butoni i la Paella,\nconill fuig; l’Avi mira.\n"
            "Conill: una carta.\n• El Butoni\n3 Paella\nUn score pad i el Calavera Queen pawn.\nScore pad")
    assert errors(text) == []


def test_a_planted_wrong_case_card_name_fails() -> None:
    assert errors("Després juga El Butoni.") == ["El Butoni"]  # an article capitalised mid-sentence
    assert errors("Ell juga la paella.") == ["paella"]  # a name the database capitalises, in lower case
    assert errors("Ell juga el Conill.") == ["Conill"]  # a name the database writes in lower case, capitalised
    assert errors("Ell juga L'Avi.") == ["L'Avi"]  # an elided article
    assert errors("Ell juga EL BUTONI.") == ["EL BUTONI"]


def test_a_planted_wrong_case_component_name_fails() -> None:
    assert errors("Un score Pad.") == ["score Pad"]
    assert errors("El calavera queen pawn.") == ["calavera queen pawn"]


def test_a_shorter_name_inside_a_longer_one_is_not_looked_at_again() -> None:
    cards = {"calavera": "Calavera", "la calavera reina": "la Calavera Reina"}
    assert name_case_errors("Juga la Calavera Reina.", cards, [], ARTICLES["ca"]) == []


def test_english_titles_may_capitalise_every_word_of_a_name() -> None:
    text = "Source: rulebook 2, The Humour Coin, line 32. Toss the humour coin; a Humour Coin is wrong."
    found = name_case_errors(text, {}, ["Humour coin"], ARTICLES["en"], title_case=True)
    assert [seen for seen, _, _ in found] == ["Humour Coin"]  # the second: "a" is no word of a title
    assert len(name_case_errors(text, {}, ["Humour coin"], ARTICLES["en"])) == 2  # other languages: sentence case
