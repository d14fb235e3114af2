"""Typography filters: proper names never hyphenate (fast tests; the PDF checks are in test_typography_pdf.py)."""

from __future__ import annotations

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
