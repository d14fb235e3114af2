"""Typography applied to printed HTML at render time, never to the data: curly quotes and apostrophes in each
locale's style, and card and component names kept whole (never hyphenated) wherever running text names them.

The data keeps straight ``'`` and ``"`` (what translators type); the reader sees ’ and the locale's quotes. The
conventions are documented in ``docs/typography.md``.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..loading.database import Database

QUOTES: dict[str, tuple[str, str, str, str]] = {
    "en": ("“", "”", "‘", "’"),
    "fr": ("«\u202f", "\u202f»", "“", "”"),
    "ca": ("«", "»", "“", "”"),
    "es": ("«", "»", "“", "”"),
    "nl": ("„", "”", "‚", "’"),
}
"""Per language: double open, double close, single open, single close. French sets its guillemets off with a
narrow no-break space (as it does its colons); Catalan and Spanish use them tight; Dutch uses low-high quotes."""

APOSTROPHE = "’"

_TAG = re.compile(r"(<[^>]*>)")
_RAW = re.compile(r"<(style|script|title|svg)\b", re.IGNORECASE)
_OPENS_AFTER = set(" \t\n\u00a0([{«„“‘—–-/") | {""}


def quotes_for(locale: str) -> tuple[str, str, str, str]:
    """The quotes of ``locale`` (``ca-valencia`` and ``ca@valencia`` take ``ca``'s); English's for a language the
    table does not know."""
    return QUOTES.get(_language(locale), QUOTES["en"])


def _language(locale: str) -> str:
    return re.split(r"[-_@]", locale, maxsplit=1)[0].lower()


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
            if char == d_open and char.endswith("\u202f") and text[i + 1:i + 2] == " ":
                char = char.rstrip("\u202f")
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


ARTICLES: dict[str, tuple[str, ...]] = {
    "ca": ("el", "la", "l'", "l’", "els", "les"),
    "es": ("el", "la", "los", "las"),
    "fr": ("le", "la", "l'", "l’", "les"),
    "en": ("the",),
    "nl": ("de", "het"),
}
"""Articles a card name may begin with; mid-sentence they are written in lower case (docs/typography.md)."""


@dataclass(frozen=True)
class Names:
    """The names running text may mention: a pattern matching any of them, and each card name's database form
    (keyed by :func:`_key`), which the text is given wherever it names that card."""

    pattern: re.Pattern[str] | None
    forms: dict[str, str]
    every: tuple[str, ...] = ()
    """Every name, as the database writes it."""
    words: re.Pattern[str] | None = None
    """Words of names that running text also uses alone ("la revolta", "the Queen", "Moixent"): kept whole, never
    hyphenated, wherever they stand (:func:`name_words`)."""


def _key(name: str) -> str:
    return re.sub("[“”„«»]", '"', html_lib.unescape(name).replace("’", "'")).casefold()


def name_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern matching any of ``names`` as whole words, longest first, in any case, with straight or curly
    apostrophes, in escaped HTML text (running text writes "el capità moro" for the card "El Capità Moro")."""
    words = sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True)
    if not words:
        return None
    alternatives = [re.sub('"', '["“”„«»]', re.sub("['’]", "['’]", re.escape(_escape(w)))) for w in words]
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


def names_of(cards: Iterable[str], others: Iterable[str] = ()) -> Names:
    """:class:`Names` of card names ``cards`` (earlier forms win) and other names ``others`` (components,
    boards), which are kept whole but keep the case the text gives them (a "score pad" is also a common noun)."""
    cards = list(cards)
    forms: dict[str, str] = {}
    for name in cards:
        forms.setdefault(_key(name), name.strip())
    every = tuple(dict.fromkeys(n.strip() for n in [*cards, *others] if n.strip()))
    return Names(name_pattern(every), forms, every)


NAME_WORD = 4
"""Shortest word of a name kept whole on its own (shorter ones, "de", "les", are not names)."""
_NAME_WORDS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def name_words(every_form: Iterable[Iterable[str]]) -> re.Pattern[str] | None:
    """The words running text may use alone to name a piece, from each piece's names in every locale: each word
    after the first written with a capital in a name (the Queen of "the Red Queen"), matched with its capital, and every word
    of a name kept the same in every locale (revolta, terreta: untranslated, so a proper name in any language),
    matched in any case; a word of :data:`NAME_WORD` letters or more."""
    capital: set[str] = set()
    kept: set[str] = set()
    for forms in every_form:
        forms = [f for f in forms if f and f.strip()]
        for form in forms:
            later = _NAME_WORDS.findall(form)[1:]  # a first word's capital may be the sentence's, not a name's
            capital.update(w for w in later if len(w) >= NAME_WORD and w[:1].isupper())
        if len(forms) > 1 and len({f.strip().casefold() for f in forms}) == 1:
            kept.update(w.casefold() for w in _NAME_WORDS.findall(forms[0]) if len(w) >= NAME_WORD)
    capital = {w for w in capital if w.casefold() not in kept}
    parts = [re.escape(w) for w in sorted(capital, key=len, reverse=True)]
    parts += [f"(?i:{re.escape(w)})" for w in sorted(kept, key=len, reverse=True)]
    if not parts:
        return None
    return re.compile(r"(?<![\w&])(?:" + "|".join(parts) + r")(?!\w)")


def _escape(text: str) -> str:
    """Text escaped for an HTML text node (quotes stay as they are: they are the point)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def database_names(db: Database, locale: str | None = None) -> Names:
    """Every card, component and board name of ``db`` in every locale, alternative names included; a card
    name's form is ``locale``'s first, then the source's, then the other locales'."""
    from ..loading.records import Index

    kinds = {"card", "component", "board"}
    by_locale: dict[str | None, list[str]] = {}
    others: list[str] = []
    ids: dict[str, str] = {}
    forms: dict[str, list[str]] = {}  # the name of each piece in every locale
    for record in Index(db).records:
        if record.kind in kinds and isinstance(getattr(record.model, "name", None), str):
            ids[record.id] = record.kind
            names = [record.model.name, *(a for a in getattr(record.model, "alt_names", None) or [] if isinstance(a, str))]
            (by_locale.setdefault(None, []) if record.kind == "card" else others).extend(names)
            forms[record.id] = [record.model.name]
    for _, doc in db.docs("translations"):
        for record_id, fields in doc.entries.items():
            if record_id in ids:
                names = [entry.text for field, entry in fields.items() if field == "name" or field.startswith("alt_names/")]
                (by_locale.setdefault(doc.locale, []) if ids[record_id] == "card" else others).extend(names)
                if "name" in fields:
                    forms[record_id].append(fields["name"].text)
    order = [locale, None, *sorted(k for k in by_locale if k not in (locale, None))]
    made = names_of([n for code in order for n in by_locale.get(code, [])], others)
    # names the locale keeps in English on purpose (the glossary's kept_english: Firebot) are names too
    kept = [[word, word] for _, doc in db.docs("glossary") if doc.locale == locale for word in doc.kept_english]
    return Names(made.pattern, made.forms, made.every, name_words([*forms.values(), *kept]))


SHORT_NAME = 22
"""A name of at most this many characters stays on one line; a longer one may break between its words only."""


_KEPT_WHOLE = re.compile(r"\([^()]{1,%d}\)|\S+-\S+" % SHORT_NAME)
"""Parts of a long name that stay on one line: a short gloss in brackets, a word with its own hyphen."""


def _keep_parts_whole(name: str) -> str:
    return _KEPT_WHOLE.sub(lambda part: f'<span class="proper-name short">{part.group(0)}</span>', name)


def name_span(name: str) -> str:
    """``name`` (escaped) in a ``proper-name`` span: never hyphenated, a short one never broken; in a long one a
    word with its own hyphen (Xúquer-Túria) or a short gloss in brackets ("(tête de mort)") is kept on one line
    too, so no line ends inside a hyphenated word or a bracketed gloss."""
    if len(html_lib.unescape(name)) <= SHORT_NAME:
        return f'<span class="proper-name short">{name}</span>'
    return f'<span class="proper-name">{_keep_parts_whole(name)}</span>'


def label_span(name: str) -> str:
    """``name`` (escaped) as the label of a box too narrow for some names (a die face): never hyphenated and
    free to wrap between words whatever its length, but with its hyphenated words and bracketed gloss kept
    whole, so "Skull (tête de mort)" breaks before the bracket, never inside it."""
    return f'<span class="proper-name">{_keep_parts_whole(name)}</span>'


def component_mid_sentence(name: str, locale: str = "") -> str:
    """A name where a sentence goes on, as after the colon of a piece title ("Game: score pad"): in French,
    Catalan, Spanish and Dutch no capital follows a colon, so the first letter follows the sentence
    (docs/typography.md); English titles capitalise the word after a colon ("Game: Score pad"). A first word
    written in capitals (an abbreviation) is kept as it is."""
    if len(name) < 2 or name[1].isupper():
        return name
    if locale.split("-")[0] == "en":
        return name[:1].upper() + name[1:]
    return name[:1].lower() + name[1:] if name[:1].isupper() else name


_BLOCKS = re.compile(r"</?(p|li|h[1-6]|td|th|div|section|figcaption|br|dt|dd|caption|blockquote|tr|ul|ol|nav|body)\b",
                     re.IGNORECASE)
_SENTENCE_ENDS = set(".!?")


def _as_written(name: str, forms: dict[str, str], locale: str, sentence_start: bool) -> str:
    """A card name found in running text, given its database form (escaped); a leading article in lower case
    mid-sentence, the first letter in capitals at a sentence's start. A name that is not a card's is kept."""
    form = forms.get(_key(name))
    if form is None:
        return name
    written = _escape(curly(form, locale, " "))
    first = re.match(r"(\w+['’]?)", written)
    if sentence_start:
        return written[:1].upper() + written[1:]
    if first and first.group(1).casefold() in ARTICLES.get(_language(locale), ()):
        return written[:1].lower() + written[1:]
    return written


def _wrap_names(escaped: str, names: Names, wrap) -> str:
    """``escaped`` with each name wrapped by ``wrap`` and, between them, each word of :attr:`Names.words` in a
    span that is never hyphenated."""
    if names.words is None:
        return names.pattern.sub(wrap, escaped)
    out, done = [], 0
    for match in names.pattern.finditer(escaped):
        out += [_keep_words(escaped[done:match.start()], names.words), wrap(match)]
        done = match.end()
    out.append(_keep_words(escaped[done:], names.words))
    return "".join(out)


def _keep_words(escaped: str, words: re.Pattern[str]) -> str:
    return words.sub(lambda m: f'<span class="name-word">{m.group(0)}</span>', escaped)


def typeset(document: str, locale: str, names: Names | None = None) -> str:
    """``document`` (HTML we generated) with its text typeset: curly quotes for ``locale``, and every name of
    ``names`` in running text wrapped in a never-hyphenated ``proper-name`` span, a card's in its database form
    (see :func:`_as_written`); a name a template printed through ``proper_name`` (a heading, a table cell, an
    index entry) is kept as printed, but for a capital first letter when it begins its block and ``names`` is
    given (documents; a card face prints its title as the database writes it). Tags, attributes and the contents of ``<style>``, ``<script>``, ``<title>`` and
    inline ``<svg>`` are left as they are."""
    pieces = _TAG.split(document)
    out: list[str] = []
    raw_until: str | None = None
    previous = ""  # the last character printed in this block ("" at a block's start)
    seen = ""  # the last character other than a space printed in this block
    depth = 0  # of <svg> elements inside the one being skipped
    kept = 0  # spans open inside a name a template printed through ``proper_name``: kept as printed
    capital = False  # such a name begins its block (a table cell, an index entry): its first letter is a capital
    for piece in pieces:
        if piece.startswith("<"):
            out.append(piece)
            if not kept and piece.startswith('<span class="proper-name'):
                capital = names is not None and seen == ""
            if kept or piece.startswith('<span class="proper-name'):
                kept += 1 if piece.startswith("<span") else -1 if piece.startswith("</span") else 0
            if raw_until is None:
                opened = _RAW.match(piece)
                if opened and not piece.endswith("/>"):
                    raw_until = f"</{opened.group(1).lower()}"
                elif _BLOCKS.match(piece):
                    previous = seen = ""
            elif raw_until == "</svg" and piece.lower().startswith("<svg") and not piece.endswith("/>"):
                depth += 1
            elif piece.lower().startswith(raw_until):
                if depth:
                    depth -= 1
                else:
                    raw_until = None
            continue
        if raw_until is not None or not piece:
            out.append(piece)
            continue
        text = curly(html_lib.unescape(piece), locale, previous)
        if capital and kept and text.strip():
            text, capital = text[:1].upper() + text[1:], False
        escaped = _escape(text)
        if names is not None and names.pattern is not None and not kept:
            def wrap(match: re.Match[str], escaped: str = escaped, before: str = seen) -> str:
                ahead = html_lib.unescape(escaped[:match.start()]).rstrip()
                last = ahead[-1:] if ahead else before
                start = last == "" or last in _SENTENCE_ENDS
                return name_span(_as_written(match.group(0), names.forms, locale, start))

            escaped = _wrap_names(escaped, names, wrap)
        if text:
            previous = text[-1]
        if text.strip():
            seen = text.rstrip()[-1]
        out.append(escaped)
    return "".join(out)
