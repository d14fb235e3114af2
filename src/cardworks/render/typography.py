"""Typography applied to printed HTML at render time, never to the data: curly quotes and apostrophes in each
locale's style, and card and component names kept whole (never hyphenated) wherever running text names them.

The data keeps straight ``'`` and ``"`` (what translators type); the reader sees ’ and the locale's quotes. The
conventions are documented in ``docs/typography.md``.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..loading.database import Database

QUOTES: dict[str, tuple[str, str, str, str]] = {
    "en": ("“", "”", "‘", "’"),
    "fr": ("«\u00a0", "\u00a0»", "“", "”"),
    "ca": ("«", "»", "“", "”"),
    "es": ("«", "»", "“", "”"),
    "nl": ("„", "”", "‚", "’"),
}
"""Per language: double open, double close, single open, single close. French sets its guillemets off with a
no-break space; Catalan and Spanish use them tight; Dutch uses low-high quotes."""

APOSTROPHE = "’"

_TAG = re.compile(r"(<[^>]*>)")
_RAW = re.compile(r"<(style|script|title|svg)\b", re.IGNORECASE)
_OPENS_AFTER = set(" \t\n\u00a0([{«„“‘—–-/") | {""}


def quotes_for(locale: str) -> tuple[str, str, str, str]:
    """The quotes of ``locale`` (``ca-valencia`` and ``ca@valencia`` take ``ca``'s); English's for a language the
    table does not know."""
    return QUOTES.get(re.split(r"[-_@]", locale, maxsplit=1)[0].lower(), QUOTES["en"])


def curly(text: str, locale: str, before: str = "") -> str:
    """``text`` with straight quotes and apostrophes made typographic for ``locale``.

    ``before`` is the character printed just before ``text`` (the end of the previous piece of text), so that a
    quote right after an inline element still knows whether it opens or closes.
    """
    if "'" not in text and '"' not in text:
        return text
    d_open, d_close, s_open, s_close = quotes_for(locale)
    out: list[str] = []
    previous = before[-1:] if before else ""
    for i, char in enumerate(text):
        if char == '"':
            char = d_open if previous in _OPENS_AFTER else d_close
            if char == d_open and char.endswith("\u00a0") and text[i + 1:i + 2] == " ":
                char = char.rstrip("\u00a0")
        elif char == "'":
            following = text[i + 1:i + 2]
            if previous.isalnum():
                char = APOSTROPHE  # l’, d’, it’s (English and Dutch close single quotes with the same ’)
            elif previous in {".", ",", "!", "?", "…"}:
                char = s_close
            elif following.isalpha() and _elision(text[i + 1:]):
                char = APOSTROPHE  # ’s avonds, ’t
            else:
                char = s_open if previous in _OPENS_AFTER else s_close
        out.append(char)
        previous = char[-1]
    return "".join(out)


def _elision(rest: str) -> bool:
    """Whether a word-initial apostrophe stands for dropped letters (Dutch ’s, ’t, ’n; English ’til)."""
    return re.match(r"(s|t|n|til|em|cause)\b", rest, re.IGNORECASE) is not None


def name_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern matching any of ``names`` as whole words, longest first, in any case, with straight or curly
    apostrophes (running text writes "el capità moro" for the card "El Capità Moro")."""
    words = sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True)
    if not words:
        return None
    alternatives = [re.sub("['’]", "['’]", re.escape(_escape(w))) for w in words]
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


def _escape(text: str) -> str:
    """Text escaped for an HTML text node (quotes stay as they are: they are the point)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def database_names(db: Database) -> list[str]:
    """Every card, component and board name of ``db`` in every locale, alternative names included."""
    from ..loading.records import Index

    kinds = {"card", "component", "board"}
    found: list[str] = []
    ids = set()
    for record in Index(db).records:
        if record.kind in kinds and isinstance(getattr(record.model, "name", None), str):
            ids.add(record.id)
            found.append(record.model.name)
            found += [alt for alt in getattr(record.model, "alt_names", None) or [] if isinstance(alt, str)]
    for _, doc in db.docs("translations"):
        for record_id, fields in doc.entries.items():
            if record_id in ids:
                found += [entry.text for field, entry in fields.items()
                          if field == "name" or field.startswith("alt_names/")]
    return found


SHORT_NAME = 22
"""A name of at most this many characters stays on one line; a longer one may break between its words only."""


_HYPHENATED = re.compile(r"\S+-\S+")


def name_span(name: str) -> str:
    """``name`` (escaped) in a ``proper-name`` span: never hyphenated, a short one never broken; in a long one a
    word with its own hyphen (Xúquer-Túria) is kept on one line too, so no line ends inside a name with a hyphen."""
    if len(html_lib.unescape(name)) <= SHORT_NAME:
        return f'<span class="proper-name short">{name}</span>'
    inner = _HYPHENATED.sub(lambda word: f'<span class="proper-name short">{word.group(0)}</span>', name)
    return f'<span class="proper-name">{inner}</span>'


def _name_span(match: re.Match[str]) -> str:
    return name_span(match.group(0))


def typeset(document: str, locale: str, names: re.Pattern[str] | None = None) -> str:
    """``document`` (HTML we generated) with its text typeset: curly quotes for ``locale``, and every match of
    ``names`` wrapped in a never-hyphenated ``proper-name`` span. Tags, attributes and the contents of
    ``<style>``, ``<script>``, ``<title>`` and inline ``<svg>`` are left as they are."""
    pieces = _TAG.split(document)
    out: list[str] = []
    raw_until: str | None = None
    previous = ""
    for piece in pieces:
        if piece.startswith("<"):
            out.append(piece)
            if raw_until is None:
                opened = _RAW.match(piece)
                if opened:
                    raw_until = f"</{opened.group(1).lower()}"
            elif piece.lower().startswith(raw_until):
                raw_until = None
            continue
        if raw_until is not None or not piece:
            out.append(piece)
            continue
        text = curly(html_lib.unescape(piece), locale, previous)
        if text.strip():
            previous = text[-1]
        escaped = _escape(text)
        out.append(names.sub(_name_span, escaped) if names is not None else escaped)
    return "".join(out)
