"""Terminology: each locale's required translation of the game's terms, and the variants it forbids.

A glossary lives in ``i18n/glossary/<locale>.json``. ``validate`` warns where a
translation (cards, rulings, components), the locale's rulebook and FAQ sources or a
document label uses a forbidden variant, or a form the locale's regional standard
(:mod:`.standards`) avoids; ``i18n glossary``
exports the terms for translators' tools as TBX (Weblate, Poedit, Lokalize and
OmegaT read it) or CSV.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from xml.etree import ElementTree as ET

from ..loading.database import Database
from .standards import STANDARDS


@dataclass(frozen=True)
class Hit:
    """A forbidden variant found in a text."""

    found: str
    variant: str
    translation: str
    term: str
    standard: str | None = None
    """The regional standard the variant breaks (``valencian``), or None for a glossary term."""

    @property
    def code(self) -> str:
        """The problem code validate reports it under: ``glossary``, or ``valencian-form`` and the like."""
        return f"{self.standard}-form" if self.standard else "glossary"

    @property
    def message(self) -> str:
        if self.standard:
            return (f"{self.found!r} is not a {self.standard} form ({self.variant}); "
                    f"the {self.standard} standard writes {self.translation!r} for {self.term}")
        return (f"{self.found!r} is a forbidden variant ({self.variant}); "
                f"the glossary says {self.term!r} is {self.translation!r}")


def variant_body(variant: str) -> str:
    """A forbidden variant as the body of a regular expression: ``*`` any letters, ``…`` up to four words,
    words apart by any space (whole words and case are :func:`variant_pattern`'s)."""
    words = []
    for word in variant.split():
        if word == "…":
            words.append(r"(?:\S+\s+){0,4}?")
            continue
        words.append(r"\w*".join(re.escape(part) for part in word.split("*")) + r"\s+")
    body = "".join(words)
    return body[: -len(r"\s+")] if body.endswith(r"\s+") else body


def variant_pattern(variant: str) -> re.Pattern[str]:
    """A forbidden variant as a regular expression: words matched whole and without regard to case,
    ``*`` any letters, ``…`` up to four words."""
    return re.compile(rf"(?<!\w){variant_body(variant)}(?!\w)", re.IGNORECASE)


class Terminology:
    """The glossary terms of one game and locale, ready to search texts."""

    def __init__(self, db: Database, locale: str) -> None:
        self.locale = locale
        docs = [doc for _, doc in db.docs("glossary") if doc.locale == locale]
        self.terms = [term for doc in docs for term in doc.terms]
        self.standards = sorted({doc.standard for doc in docs if doc.standard})
        # The standards' forms, as terms: exported with the glossary, so a translator's tool flags them too.
        self.forms = [term for name in self.standards for term in STANDARDS[name]]
        found = [(term, None) for term in self.terms]
        found += [(term, name) for name in self.standards for term in STANDARDS[name]]
        self._patterns = [(term, standard, variant, variant_pattern(variant))
                          for term, standard in found for variant in term.forbidden]
        # One search for any variant first: most texts hold none, and one pass over them beats one per variant.
        # The word edges stand outside the alternatives: the same matches, found 8 times faster (99 variants).
        self._any = re.compile(rf"(?<!\w)(?:{'|'.join(variant_body(v) for *_, v, _ in self._patterns)})(?!\w)",
                               re.IGNORECASE) if self._patterns else None

    def hits(self, text: str) -> Iterator[Hit]:
        if self._any is None or _holds_none(self._any, text):
            return
        for term, standard, variant, pattern in self._patterns:
            for match in pattern.finditer(text):
                yield Hit(match.group(0), variant, term.translation, term.term, standard)


@lru_cache(maxsize=1 << 16)
def _holds_none(variants: re.Pattern[str], text: str) -> bool:
    """No forbidden variant in ``text``: the one search over every text validated, a fifth of validation after
    an edit, kept for the texts seen before, so a process that validates again and again (``build --watch``)
    searches only the texts that changed."""
    return variants.search(text) is None


def glossary_locales(db: Database) -> list[str]:
    return sorted({doc.locale for _, doc in db.docs("glossary")})


def to_tbx(db: Database, locale: str) -> bytes:
    """The glossary as TBX-Basic (ISO 30042): a concept per term (and per form of the locale's standard), the
    source term, the required translation (``preferredTerm-admn-sts``) and each forbidden variant
    (``deprecatedTerm-admn-sts``)."""
    source = db.game_doc.source_locale
    martif = ET.Element("martif", {"type": "TBX-Basic", "xml:lang": source})
    header = ET.SubElement(ET.SubElement(martif, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = f"cardworks glossary of {db.game_doc.id}, {locale}"
    body = ET.SubElement(ET.SubElement(martif, "text"), "body")
    terms = Terminology(db, locale)
    for number, term in enumerate([*terms.terms, *terms.forms], start=1):
        entry = ET.SubElement(body, "termEntry", {"id": f"{db.game_doc.id}-{locale}-{number}"})
        if term.note:
            ET.SubElement(entry, "descrip", {"type": "definition"}).text = term.note
        for lang, texts in ((source, [(term.term, None)]),
                            (locale, [(term.translation, "preferredTerm-admn-sts"),
                                      *((v, "deprecatedTerm-admn-sts") for v in term.forbidden)])):
            lang_set = ET.SubElement(entry, "langSet", {"xml:lang": lang})
            for text, status in texts:
                tig = ET.SubElement(lang_set, "tig")
                ET.SubElement(tig, "term").text = text
                if status:
                    ET.SubElement(tig, "termNote", {"type": "administrativeStatus"}).text = status
    ET.indent(martif)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">\n' + \
        ET.tostring(martif, encoding="utf-8") + b"\n"


def to_csv(db: Database, locale: str) -> bytes:
    """The glossary as CSV with the columns Weblate imports (``source``, ``target``) plus forbidden variants
    and the note."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["source", "target", "forbidden", "note"])
    terms = Terminology(db, locale)
    for term in [*terms.terms, *terms.forms]:
        writer.writerow([term.term, term.translation, " | ".join(term.forbidden), term.note or ""])
    return out.getvalue().encode("utf-8")
