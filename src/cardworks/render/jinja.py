"""The one Jinja environment: autoescape on, StrictUndefined, filters registered here."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from ..markup import Text, parse


def templates_dir() -> Path:
    """The project's ``templates/`` folder (beside ``src/``)."""
    return Path(__file__).resolve().parents[3] / "templates"


_WRAPPED = re.compile(r"(<span class=\"fallback\"[^>]*>)(.*)(</span>)", re.DOTALL)


def markup_html(text: str, icons: dict[str, tuple[str, str]]) -> Markup:
    """Card-text markup as HTML: text escaped, each ``{token}`` an inline icon (``icons``: token → (url, alt)).

    A text already marked up as a proof fallback (``Markup`` of a ``fallback`` span around escaped text) keeps
    its span and has its inside rendered, instead of being escaped a second time.
    """
    if isinstance(text, Markup):
        wrapped = _WRAPPED.fullmatch(str(text))
        if wrapped:
            inner = markup_html(Markup(wrapped.group(2)).unescape(), icons)
            return Markup(wrapped.group(1)) + inner + Markup(wrapped.group(3))
        text = text.unescape()
    out = []
    for part in parse(text):
        if isinstance(part, Text):
            out.append(str(escape(part.value)))
        else:
            url, alt = icons[part.name]
            out.append(f'<img class="icon" src="{escape(url)}" alt="{escape(alt)}">')
    return Markup("".join(out))


def mm(value: float) -> str:
    """A length in millimetres for CSS, without float noise."""
    return f"{value:.3f}".rstrip("0").rstrip(".") + "mm"


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The shared environment; a missing variable fails the build instead of printing a blank card."""
    env = Environment(
        loader=FileSystemLoader(templates_dir()),
        autoescape=select_autoescape(["html", "j2", "svg"], default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["markup_html"] = markup_html
    env.filters["mm"] = mm
    return env
