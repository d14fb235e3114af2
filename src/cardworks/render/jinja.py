"""The one Jinja environment: sandboxed, autoescape on, StrictUndefined, filters registered here.

A game or pack may bring its own ``templates/`` folder; its files override the
shipped ones of the same path (``cards/face.html.j2``, ``cards/face-<type>.html.j2``,
``cards/back.html.j2``, ``cards/cards.css``, ``<game>/cards.css``). Its templates run
in the same sandbox, may read only inside their own folder and the shipped
templates, and a template that fails is reported by file and line.
"""

from __future__ import annotations

import re
import traceback
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError, pass_context, select_autoescape
from markupsafe import Markup, escape

from ..errors import CardworksError
from ..loading.database import display_path
from ..loading.paths import is_inside
from ..markup import Text, parse
from ..problems import Problem
from ..resources import data_dir
from .sandbox import BudgetedSandbox
from .typography import component_mid_sentence, label_span, name_span


def templates_dir() -> Path:
    """The shipped ``templates/`` folder (package data in an install, the checkout's in development)."""
    return data_dir("templates")


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


def proper_name(value: str) -> Markup:
    """A card or component name as a span that is never hyphenated (class ``proper-name``, styled in the CSS).

    Print every name through this filter (``{{ card.name | proper_name }}``), so no reader meets "Buto-ni" at a
    line end; a short name also stays on one line (class ``short``).
    """
    return Markup(name_span(str(escape(value))))


@pass_context
def subtitle(context: Any, value: str) -> Markup:
    """The part of a piece's title after the game's name and colon: the sentence goes on, so its first letter
    follows the locale's rule after a colon (``typography.component_mid_sentence``: a capital in English, none in
    French, Catalan, Spanish or Dutch), whether it is a label or a component's name; a proof's fallback span
    keeps its tags."""
    text = str(escape(value))
    first = re.search(r"(?:^|>)([^<]+)", text)
    if first is None:
        return Markup(text)
    at = first.start(1)
    return Markup(text[:at] + component_mid_sentence(text[at:], str(context.get("lang") or "")))


def label_name(value: str) -> Markup:
    """A name printed as the label of a narrow box (``{{ face.name | label_name }}``): like
    :func:`proper_name`, but a short name may still wrap between words, and a bracketed gloss stays whole."""
    return Markup(label_span(str(escape(value))))


def mm(value: float) -> str:
    """A length in millimetres for CSS, without float noise."""
    return f"{value:.3f}".rstrip("0").rstrip(".") + "mm"


class TemplateEscape(CardworksError, TemplateError):
    """A template file whose real path (through a symbolic link) lies outside its templates folder."""


class InsideLoader(FileSystemLoader):
    """A file loader that refuses any template whose real path (symlinks followed) leaves its folder."""

    def get_source(self, environment, template):  # type: ignore[override]
        source, filename, uptodate = super().get_source(environment, template)
        if not any(is_inside(Path(root), Path(filename)) for root in self.searchpath):
            raise TemplateEscape(f"{filename} leads outside its templates folder (symbolic link); it is not read")
        return source, filename, uptodate


@lru_cache(maxsize=8)
def environment(overrides: tuple[str, ...] = ()) -> BudgetedSandbox:
    """The environment; ``overrides`` are a game's or pack's template folders, searched before the shipped one.

    A missing variable fails the build instead of printing a blank card; runaway templates meet the limits of
    :mod:`.sandbox`.
    """
    env = BudgetedSandbox(
        loader=InsideLoader([*overrides, str(templates_dir())]),
        autoescape=select_autoescape(["html", "j2", "svg"], default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["markup_html"] = markup_html  # ours: trusted, and called once per text
    env.filters["mm"] = mm
    env.filters["proper_name"] = proper_name
    env.filters["subtitle"] = subtitle
    env.filters["label_name"] = label_name
    return env


def template_file(relative: str, overrides: tuple[str, ...] = ()) -> Path:
    """The file a template path resolves to: the first override folder that has it, else the shipped one."""
    for root in overrides:
        candidate = Path(root) / relative
        if candidate.is_file() and is_inside(Path(root), candidate):
            return candidate
    return templates_dir() / relative


def template_problem(exc: Exception) -> Problem:
    """``file:line: [template-error] message`` for a template that failed to load, compile or render."""
    if isinstance(exc, TemplateSyntaxError) and exc.filename:
        return Problem(display_path(Path(exc.filename)), str(exc.lineno), "template-error", exc.message or str(exc))
    if isinstance(exc, RecursionError):
        message = "RecursionError: the template calls itself without end (a macro, or an include of itself)"
    else:
        message = f"{type(exc).__name__}: {exc}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith((".j2", ".html", ".css"))]
    if frames:
        frame = frames[-1]
        return Problem(display_path(Path(frame.filename)), str(frame.lineno), "template-error", message)
    return Problem("templates", "", "template-error", message)


TEMPLATE_FAILURES = (TemplateError, TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError,
                     RecursionError, OverflowError, MemoryError)
"""What a template may raise while rendering (the sandbox raises SecurityError and TemplateBudgetError, both
TemplateErrors; a macro or include that calls itself ends in RecursionError)."""
