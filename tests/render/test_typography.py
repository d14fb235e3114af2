"""Typography filters: proper names never hyphenate (fast tests; the PDF checks are in test_typography_pdf.py)."""

from __future__ import annotations

import re

from cardworks.render.jinja import environment, proper_name


def test_proper_name_is_a_span_that_escapes_its_text():
    out = str(proper_name("Sal & <pebre>"))
    assert out == '<span class="proper-name short">Sal &amp; &lt;pebre&gt;</span>'


def test_a_long_name_may_break_between_words_only():
    out = str(proper_name("El Tio Sangonera de la fideuà de l'apocalipsi"))
    assert out.startswith('<span class="proper-name">')


def test_the_filter_is_registered_in_the_one_environment():
    rendered = environment().from_string("{{ n | proper_name }}").render(n="Butoni")
    assert rendered == '<span class="proper-name short">Butoni</span>'


def test_quotes_and_apostrophes_follow_the_locale():
    from cardworks.render.typography import curly

    assert curly("L'home diu \"hola\"", "ca") == "L’home diu «hola»"
    assert curly("It's \"done\"", "en") == "It’s “done”"
    assert curly("Il dit \"oui\"", "fr") == "Il dit «\u202foui\u202f»"
    assert curly("'s Avonds \"ja\"", "nl") == "’s Avonds „ja”"
    assert curly("d'Elx", "ca-valencia") == "d’Elx"


def test_typeset_knows_a_quote_after_an_inline_element_closes_it():
    from cardworks.render.typography import typeset

    out = typeset('<p>"<b>Butoni</b>" l\'<i>x</i></p><style>p::after{content:"x"}</style><svg><text>"a"</text></svg>', "ca")
    assert out == '<p>«<b>Butoni</b>» l’<i>x</i></p><style>p::after{content:"x"}</style><svg><text>"a"</text></svg>'


def test_names_in_running_text_are_wrapped_whatever_their_case_and_apostrophe():
    from cardworks.render.typography import names_of, typeset

    names = names_of(["Capità Moro", "fideuà de l'apocalipsi", "conill"])
    out = typeset("<p>el capità moro i la Fideuà de l'apocalipsi; conills no</p>", "ca", names)
    assert out == ('<p>el <span class="proper-name short">Capità Moro</span> i la '
                   '<span class="proper-name short">fideuà de l’apocalipsi</span>; conills no</p>')


def test_a_card_name_in_running_text_takes_its_database_form_and_the_article_rule():
    """One convention per locale (docs/typography.md): the database's form; a leading article in lower case
    mid-sentence; a capital at a sentence's start. A component name keeps the case the text gives it."""
    from cardworks.render.typography import names_of, typeset

    names = names_of(["El Butoni", "la Geperudeta", "conill"], others=["Llapis"])
    printed = '<td><span class="proper-name short">la Geperudeta</span></td>'  # through the filter
    out = typeset(f"<p>Juga EL BUTONI. la geperudeta guanya; Conill i llapis.</p><h2>conill</h2>{printed}", "ca", names)
    words = re.sub(r"<[^>]+>", "", out)
    assert words == "Juga el Butoni. La Geperudeta guanya; conill i llapis.ConillLa Geperudeta"


def test_a_printed_name_that_begins_its_block_takes_a_capital_in_documents_only() -> None:
    """A table cell or an index entry begins with a capital, as a sentence does; further in, or on a card face
    (typeset without names), a name printed through ``proper_name`` is kept as printed."""
    from cardworks.render.typography import names_of, typeset

    names = names_of(["la ponentà", "l'Ofrena"])
    cell = '<td><span class="proper-name short">la ponentà</span></td><td>– <span class="proper-name short">la ponentà</span></td>'
    entry = '<li><span class="proper-name short">l\'Ofrena</span> 4</li>'
    out = re.sub(r"<[^>]+>", "|", typeset(cell + entry, "ca", names))
    assert [w for w in out.split("|") if w.strip()] == ["La ponentà", "– ", "la ponentà", "L’Ofrena", " 4"]
    face = typeset(cell, "ca")
    assert face == cell


def test_a_long_name_keeps_its_own_hyphenated_word_on_one_line():
    out = str(proper_name("Menjars territorials: Xúquer-Túria"))
    assert out == ('<span class="proper-name">Menjars territorials: '
                   '<span class="proper-name short">Xúquer-Túria</span></span>')


def test_the_split_name_check_finds_a_name_cut_at_a_line_end():
    from typeset_checks import split_names, straight_quotes

    names = ["el Tio Sangonera", "Menjars territorials: Xúquer-Túria"]
    assert split_names("parla amb el Tio Sangon‐\nera i", names) == [("el tio sangonera", "Sangon‐\nera")]
    assert split_names("Menjars territorials: Xúquer-\nTúria", names)
    assert split_names("el Tio Sangonera fa mal-\nbé", names) == []
    assert straight_quotes("l'home") and not straight_quotes("l’home")


def test_typeset_leaves_nested_svg_alone():
    from cardworks.render.typography import typeset

    svg = '<svg><svg class="k"><text>"a"</text></svg><text>l\'"b"</text></svg>'
    assert typeset(f'<p>"x"</p>{svg}<p>"y"</p>', "en") == f'<p>“x”</p>{svg}<p>“y”</p>'


def test_typeset_keeps_hostile_text_escaped():
    """Text that spells a tag stays text, in running text and in a name's database form."""
    from cardworks.render.typography import names_of, typeset

    names = names_of(['<img src=x onerror="1">'])
    out = typeset('<p>&lt;script&gt;"x" &lt;IMG SRC=X ONERROR="1"&gt;</p>', "en", names)
    assert "<script" not in out and "<img" not in out.lower()
    assert "&lt;script&gt;”x”" in out and "&lt;img src=x onerror=”1”&gt;" in out


def test_a_component_name_after_a_title_colon_follows_the_sentence():
    from cardworks.render.typography import component_mid_sentence

    assert component_mid_sentence("Bloc de score") == "bloc de score"  # "Calavera : bloc de score"
    assert component_mid_sentence("Scoreblok") == "scoreblok"
    assert component_mid_sentence("score pad") == "score pad"
    assert component_mid_sentence("PDF sheet") == "PDF sheet"  # an abbreviation keeps its capitals
    assert component_mid_sentence("É") == "É"
    assert component_mid_sentence("score pad", "en") == "Score pad"  # English titles capitalise after a colon


def test_a_long_name_keeps_its_bracketed_gloss_on_one_line():
    out = str(proper_name("Calavera (tête de mort) du joueur"))
    assert out == ('<span class="proper-name">Calavera '
                   '<span class="proper-name short">(tête de mort)</span> du joueur</span>')


def test_a_label_name_may_wrap_before_its_gloss_but_never_inside_it():
    """A die-face label: the box is too narrow to keep even a short name on one line, so only the gloss is
    kept whole (the line breaks before the bracket)."""
    from cardworks.render.jinja import label_name

    assert str(label_name("Calavera (doodshoofd)")) == ('<span class="proper-name">Calavera '
                                                        '<span class="proper-name short">(doodshoofd)</span></span>')
    rendered = environment().from_string("{{ n | label_name }}").render(n="Calavera (tête de mort)")
    assert '<span class="proper-name short">(tête de mort)</span>' in rendered
    assert str(label_name("Joker")) == '<span class="proper-name">Joker</span>'
