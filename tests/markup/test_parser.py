"""Property and example tests of the card-text markup parser."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardworks.markup import MarkupError, Text, Token, parse, plain_text, render, tokens

names = st.from_regex(r"[a-z0-9]+(-[a-z0-9]+)*", fullmatch=True)
plain = st.text(st.characters(blacklist_characters="{}"), max_size=20)
parts = st.lists(st.one_of(plain.map(Text), names.map(lambda n: Token(n, 0))), max_size=12)


@given(st.text(max_size=80))
def test_any_text_parses_or_fails_cleanly(source: str) -> None:
    try:
        result = parse(source)
    except MarkupError as exc:
        assert 0 <= exc.offset < len(source)
        assert source[exc.offset] in "{}"
    else:
        assert all(isinstance(p, (Text, Token)) for p in result)


@given(st.text(max_size=80))
def test_valid_markup_round_trips_exactly(source: str) -> None:
    try:
        result = parse(source)
    except MarkupError:
        return
    assert render(result) == source


@given(parts)
def test_render_then_parse_keeps_tokens_and_text(items: list) -> None:
    source = render(items)
    parsed = parse(source)
    assert [p.name for p in parsed if isinstance(p, Token)] == [p.name for p in items if isinstance(p, Token)]
    assert "".join(p.value for p in parsed if isinstance(p, Text)) == "".join(p.value for p in items if isinstance(p, Text))


@given(plain)
def test_escaped_braces_are_literal(text: str) -> None:
    source = "{{" + text + "}}"
    assert tokens(source) == []
    assert plain_text(parse(source), {}) == "{" + text + "}"


def test_tokens_in_order_with_repeats() -> None:
    assert tokens("Steal a {treasure}, then another {treasure} with {attack} 4") == ["treasure", "treasure", "attack"]


def test_token_offsets_point_at_their_brace() -> None:
    source = "ab {coin} cd"
    token = [p for p in parse(source) if isinstance(p, Token)][0]
    assert source[token.offset:].startswith("{coin}")


@pytest.mark.parametrize("source, offset, reason", [
    ("Steal {treasure", 6, "never closed"),
    ("a } b", 2, "without a matching"),
    ("{}", 0, "empty token"),
    ("{Treasure}", 0, "invalid token name"),
    ("{two words}", 0, "invalid token name"),
])
def test_errors_name_the_place(source: str, offset: int, reason: str) -> None:
    with pytest.raises(MarkupError) as info:
        parse(source)
    assert info.value.offset == offset
    assert reason in str(info.value)


def test_plain_text_uses_alt_text() -> None:
    assert plain_text(parse("Steal one {treasure}."), {"treasure": "treasure card"}) == "Steal one treasure card."
