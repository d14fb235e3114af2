"""Checks of printed typography on text read back from PDFs, shared by the document and face tests."""

from __future__ import annotations

import re
from collections.abc import Iterable

LINE_END_HYPHEN = re.compile(r"(\S*)[-‐\u00ad]\n(\S*)")


def split_names(text: str, names: Iterable[str]) -> list[tuple[str, str]]:
    """Names of ``names`` that ``text`` (lines as extracted) cuts at a line ending in a hyphen, whether the
    hyphen is a hyphenation's or the name's own: (name, the line end)."""
    plain = text.replace("’", "'")
    wanted = sorted({n.casefold().replace("’", "'") for n in names}, key=len, reverse=True)
    found = []
    for match in LINE_END_HYPHEN.finditer(plain):
        before = plain[max(0, match.start() - 80):match.start()] + match.group(1)
        after = match.group(2) + plain[match.end():match.end() + 80]
        for joined in (before + after, before + "-" + after):
            flat = joined.replace("\n", " ").casefold()
            for name in wanted:
                if any(m.start() < len(before) < m.end() for m in re.finditer(re.escape(name), flat)):
                    found.append((name, match.group(0)))
    return found


def straight_quotes(text: str) -> list[str]:
    """Each straight ``'`` or ``"`` in ``text`` with a little context."""
    return [text[max(0, i - 20):i + 20].replace("\n", " ") for i, char in enumerate(text) if char in "'\""]


#: What may stand before a name that begins a block or a sentence in text read back from a PDF: nothing (the
#: start of a line: a heading, a list item, a table's first cell or a wrapped line), a list's bullet or number, or
#: the end of a sentence (a colon opens an explanation, which may begin with a capital too).
_OPENING = re.compile(r"(?:^|[.!?:…»”]\s*|^[\s•–\-\d.)]*)$")


def name_case_errors(text: str, cards: dict[str, str], others: Iterable[str], articles: Iterable[str],
                     title_case: bool = False) -> list[tuple[str, str, str]]:
    """Where ``text`` (lines as extracted) writes a name in another case than the convention of
    docs/typography.md: (as written, the database's form, some context).

    A card name (``cards``: any key → the database's form for the locale) reads as the database writes it, a
    leading article (``articles``) in lower case mid-sentence; at the start of a line or a sentence its first letter
    may also be a capital. A component name (``others``) reads as the database writes it but for its first letter,
    which follows the sentence. With ``title_case`` (English, whose headings and cited section titles capitalise
    every word), a name may also take a capital on each word inside a title: after a word with a capital. Names
    are found in one pass, the longest first where several begin at one place (a name inside a longer one
    follows the longer one)."""
    plain = text.replace("’", "'")
    articles = {a.replace("’", "'").casefold() for a in articles}
    forms: dict[str, tuple[str, bool]] = {}
    for name in others:
        forms.setdefault(_flat(name), (name.replace("’", "'"), False))
    for form in cards.values():
        forms[_flat(form)] = (form.replace("’", "'"), True)  # a card's form wins over a component's
    if not forms:
        return []
    words = sorted((form for form, _ in forms.values()), key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(r"\s+".join(map(re.escape, w.split())) for w in words) + r")(?!\w)",
                         re.IGNORECASE)
    wrong = []
    for match in pattern.finditer(plain):
        seen = " ".join(match.group(0).split())
        form, is_card = forms[_flat(seen)]
        opening = _OPENING.search(plain[plain.rfind("\n", 0, match.start()) + 1:match.start()]) is not None
        first = re.match(r"\w+'?", form)
        lower, upper = form[:1].lower() + form[1:], form[:1].upper() + form[1:]
        if not is_card:
            allowed = {lower, upper}
        elif first is not None and first.group(0).casefold() in articles:
            allowed = {lower, upper} if opening else {lower}
        else:
            allowed = {form, upper} if opening else {form}
        if title_case and re.search(r"(?<!\w)[A-Z]\w*\s+$", plain[max(0, match.start() - 40):match.start()]):
            allowed.add(re.sub(r"(?<!\w)(\w)", lambda letter: letter.group(1).upper(), form))
        if seen not in allowed:
            wrong.append((seen, form, " ".join(plain[max(0, match.start() - 30):match.end() + 10].split())))
    return wrong


def _flat(name: str) -> str:
    return " ".join(name.replace("’", "'").casefold().split())
