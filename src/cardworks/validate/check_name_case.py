"""Card names keep one case, the rulebooks' (docs/data-brief.md): a name is written as the rulebooks print it
mid-sentence (``conill`` lower case, ``Jaume I`` and ``Bufanúvols`` with their capitals), but for a leading
article, which follows the sentence. The database holds that form; this checks that the rulebook and FAQ
sources (``rules/<locale>/*.md``) write every card name mid-sentence in the database's case, and that a name a
locale keeps untranslated keeps the source's case."""

from __future__ import annotations

import re
from functools import lru_cache

from ..i18n.qa import is_name_field
from ..loading.jsonfile import pointer_escape
from ..loading.records import Index
from ..problems import ProblemList
from .check_prose import rules_lines

ARTICLES = {"el", "la", "l'", "l’", "els", "les", "los", "las", "le", "the", "de", "het"}
_MID_SENTENCE = re.compile(r"[\w,;)»”’]\s+$")
"""What stands before a name in the middle of a sentence: a word, a comma or a closed bracket or quote."""


def comparable(name: str) -> str:
    """``name`` with a leading article in lower case: the article follows the sentence, the rest is the name's."""
    first = re.match(r"(\w+['’]?)", name)
    if first and first.group(1).casefold() in ARTICLES:
        return name[: len(first.group(1))].lower() + name[len(first.group(1)):]
    return name


def _plain_word(written: str, want: str) -> bool:
    """True when a one-word name with a capital (``Three``, ``Tirisiti``) stands in lower case: it may be the
    ordinary word ("ranks one, two and three"), so only the other way round (``Conill`` for ``conill``) is sure."""
    return " " not in want.strip() and want[:1].isupper() and written[:1].islower() and written[1:] == want[1:]


def check_name_case(index: Index, out: ProblemList) -> None:
    """Warn (``name-case``) at a source line writing a card name mid-sentence in another case than the
    database's, and at a translated name that is the source's but for its case."""
    db = index.db
    game = db.game_doc
    cards = {r.id: r.model.name for r in index.of_kind("card")}
    names: dict[str, dict[str, str]] = {game.source_locale: {cid: n for cid, n in cards.items()}}
    for loaded, doc in db.docs("translations"):
        for card_id, fields in doc.entries.items():
            if card_id in cards and "name" in fields:
                text = fields["name"].text
                names.setdefault(doc.locale, {})[card_id] = text
                if text != cards[card_id] and text.casefold() == cards[card_id].casefold():
                    out.warning(loaded.display, f"/entries/{pointer_escape(card_id)}/name/text", "name-case",
                                f"{text!r} is the source's name {cards[card_id]!r} in another case: a name kept "
                                "untranslated keeps the rulebooks' case")
    for locale, by_id in names.items():
        forms = {comparable(n).casefold(): comparable(n) for n in by_id.values() if len(n) > 3}
        if not forms:
            continue
        pattern = re.compile(r"(?<![\w'’])(?:" + "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
                             + r")(?![\w])", re.IGNORECASE)
        for shown, number, line in rules_lines(db.game.root, locale):
            if line.lstrip().startswith(("#", "|")):
                continue  # headings and table cells begin a block: their capital is the block's
            for found in _mid_sentence(pattern, line):
                written, want = comparable(found), forms[found.casefold()]
                if written != want and not _plain_word(written, want):
                    out.warning(shown, f"{number}", "name-case",
                                f"{found!r} mid-sentence; the database writes {want!r} (card names are "
                                "written as the rulebooks print them: docs/data-brief.md)")


@lru_cache(maxsize=1 << 16)
def _mid_sentence(names: re.Pattern[str], line: str) -> tuple[str, ...]:
    """The names in ``line`` that stand mid-sentence, as written. Kept per line: a process that validates again
    and again (``build --watch``) scans only the lines that changed."""
    return tuple(match.group(0) for match in names.finditer(line) if _MID_SENTENCE.search(line[: match.start()]))
