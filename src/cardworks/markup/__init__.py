"""Card-text markup: parsing and rendering of ``{token}`` text."""

from .parser import MarkupError, Part, Text, Token, parse, plain_text, render, tokens

__all__ = ["MarkupError", "Part", "Text", "Token", "parse", "plain_text", "render", "tokens"]
