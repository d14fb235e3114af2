"""Translation QA: checks that catch a broken translation before it reaches a card.

Token checks live with the validator (they are errors); these are warnings:
a copy of the source, a sentence cut short, a text far shorter than its
source, text in the wrong language, and the locale's typography.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from ..fileio import read_cache_table, write_cache_table
from .prose import prose_warnings
from .screen import plainly_in

#: Languages the detector knows, by locale (its primary subtag).
LANGUAGES = {"en": "ENGLISH", "ca": "CATALAN", "es": "SPANISH", "fr": "FRENCH", "nl": "DUTCH"}
MIN_DETECT_CHARS = 30
"""Texts with fewer letters (once names are removed) say too little for a reliable language guess."""
DETECT_CONFIDENCE = 0.75

_SENTENCE_ENDS = ".!?…:;"
_CLOSERS = "'\"»”’)]"


def _ends_sentence(text: str) -> bool:
    """True when ``text`` ends a sentence: its last mark, before closing quotes or brackets and white space, is
    one of :data:`_SENTENCE_ENDS` (read from the end: a right-anchored regular expression is tried at every
    position of the text)."""
    bare = text.rstrip().rstrip(_CLOSERS)
    return bool(bare) and bare[-1] in _SENTENCE_ENDS


_FRENCH_SPACE = re.compile(r"(?<![\u202f\u00a0])[:;!?](?:\s|$)")
"""``: ; ! ?`` closing a phrase without the (narrow) no-break space French puts before them."""
_BAD_MIDDLE_DOT = re.compile(r"[lL][.•∙⋅][lL]|[ŀĿ][lL]")  # as fast again as the same with re.IGNORECASE
_PLACEHOLDER = re.compile(r"\{[a-z0-9-]+\}")
_LETTER_RUNS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4096)  # asked 360,000 times for a few field paths at 10,000 cards
def is_name_field(field: str) -> bool:
    """Names, alternative names, listed items and the titles and sections of cited documents are proper
    names: a copy of the source is fine."""
    leaf = field.split("/")
    return leaf[-1] == "name" or (len(leaf) > 1 and leaf[-2] in {"alt_names", "items"}) or leaf[0] == "documents"


@lru_cache(maxsize=16)
def _detector(languages: tuple[str, ...], quick: bool):
    from lingua import Language, LanguageDetectorBuilder

    builder = LanguageDetectorBuilder.from_languages(*(getattr(Language, LANGUAGES[code]) for code in languages))
    return (builder.with_low_accuracy_mode() if quick else builder).build()


_WORDS = re.compile(r"\w+|\W+")
_WORD = re.compile(r"\w+")
MAX_NAME_PARTS = 15
"""Longest name matched, in words and the separators between them."""


class ProperNames(tuple):
    """Names (longest first) with a lookup set, so removing them from a text costs its length, not the
    number of names (20,000 cards in 3 locales made the old scan over every name quadratic)."""

    def __new__(cls, names) -> "ProperNames":
        made = super().__new__(cls, names)
        made.lookup = frozenset(name.lower() for name in made)
        parts = [_WORDS.findall(name) for name in made.lookup]
        made.span = min(MAX_NAME_PARTS, max(map(len, parts), default=0))
        made.first = frozenset(words[0] for words in parts if words)
        """The first word of every name: a word that begins none is kept without trying longer matches."""
        runs = [_LETTER_RUNS.findall(word) for word in made.first if _starts_word(word)]  # others never match
        made.first_runs = frozenset(found[0] for found in runs if found)
        """The first letter run of each first word: a text with none of them among its own letter runs names
        nothing, which one regular-expression pass over it shows."""
        made.letterless = any(not found for found in runs)
        """Some name begins with a word without letters (a number): every text is then matched word by word."""
        return made


def _starts_word(part: str) -> bool:
    """True for a word of :data:`_WORDS`' split (a name is matched from a word, never from a separator)."""
    return part[0].isalnum() or part[0] == "_"


def strip_names(text: str, names: tuple[str, ...]) -> str:
    """``text`` without the game's proper names, matched as whole words (Valencian card names read as Catalan
    in any language)."""
    lowered = text.lower()
    index = names if isinstance(names, ProperNames) else ProperNames(names)
    if not index.lookup:
        return lowered
    if index.first.isdisjoint(_WORD.findall(lowered)):  # most texts name nothing (a name is only tried at a word)
        return lowered
    parts = _WORDS.findall(lowered)
    kept: list[str] = []
    i = 0
    while i < len(parts):
        if parts[i] in index.first and _starts_word(parts[i]):
            for n in range(min(index.span, len(parts) - i), 0, -1):
                if "".join(parts[i:i + n]) in index.lookup:
                    kept.append(" ")
                    i += n
                    break
            else:
                kept.append(parts[i])
                i += 1
        else:
            kept.append(parts[i])
            i += 1
    return "".join(kept)


def detect_language(text: str, candidates: tuple[str, ...], names: tuple[str, ...] = ()) -> tuple[str, float] | None:
    """The most likely locale of ``text`` among ``candidates`` and its confidence, or None if unsure."""
    return detect_languages([(text, candidates)], names)[0]


def detect_languages(requests: list[tuple[str, tuple[str, ...]]],
                     names: tuple[str, ...] = ()) -> list[tuple[str, float] | None]:
    """:func:`detect_language` for many ``(text, candidates)`` at once, with the same verdicts: the detector
    takes each batch in one call and spreads it over the cores (a pack of 10,000 cards has 80,000 texts)."""
    index = names if isinstance(names, ProperNames) else ProperNames(names)
    found: list[tuple[str, float] | None] = [None] * len(requests)
    # Texts by the words the detector reads: it ignores case, digits and punctuation, so "Draw 2 cards."
    # and "Draw 3 cards!" are judged once.
    screen: dict[tuple[str, ...], dict[str, list[int]]] = {}
    for i, (text, candidates) in enumerate(requests):
        known = _known(candidates)
        words = detector_words(text, index) if len(known) >= 2 else None
        if words is not None:
            screen.setdefault(known, {}).setdefault(words, []).append(i)
    # The quick model screens; the full models of the two languages in question confirm what it flags.
    confirm: dict[tuple[str, ...], dict[str, list[int]]] = {}
    for known, batch in screen.items():
        for (words, asking), values in zip(batch.items(), _confidences(_detector(known, True), list(batch))):
            if not values:
                continue
            guess = _code(values[0].language.name), values[0].value
            for i in asking:
                expected = requests[i][1][0].split("-")[0]
                if guess[0] == expected or expected not in known:
                    found[i] = guess
                else:
                    confirm.setdefault(tuple(sorted({expected, guess[0]})), {}).setdefault(words, []).append(i)
    for pair, batch in confirm.items():
        for (words, asking), values in zip(batch.items(), _confidences(_detector(pair, False), list(batch))):
            for i in asking:
                found[i] = (_code(values[0].language.name), values[0].value) if values else None
    return found


def _detector_runs(text: str, names: ProperNames) -> list[str] | None:
    """The letter runs the detector reads of ``text`` (lower case, tokens and proper names left out), or None
    when they have too few letters to guess from."""
    if len(text) < MIN_DETECT_CHARS:  # it has fewer letters still; removing tokens and names only removes letters
        return None
    if "{" in text:
        text = _PLACEHOLDER.sub(" ", text)
    lowered = text.lower()
    runs = _LETTER_RUNS.findall(lowered)
    # A name in the text puts its first word's first letter run among the text's runs; only then is it matched
    # word by word (one regular-expression pass is most of a text's screening cost).
    if names.lookup and (names.letterless or not names.first_runs.isdisjoint(runs)):
        runs = _LETTER_RUNS.findall(strip_names(lowered, names))
    return runs if sum(map(len, runs)) >= MIN_DETECT_CHARS else None


def detector_words(text: str, names: ProperNames) -> str | None:
    """What the detector reads of ``text``: its words in lower case, tokens and proper names left out, or None
    when they have too few letters to guess from."""
    runs = _detector_runs(text, names)
    return None if runs is None else " ".join(runs)


def plainly_in_locale(text: str, locale: str, names: tuple[str, ...] = ()) -> bool:
    """True when ``text`` plainly shows ``locale``'s language (:mod:`.screen`): the detector could not judge it
    to be in another language, so it need not be asked."""
    runs = _detector_runs(text, names if isinstance(names, ProperNames) else ProperNames(names))
    return runs is not None and plainly_in(runs, locale.split("-")[0])


@lru_cache(maxsize=64)
def _known(candidates: tuple[str, ...]) -> tuple[str, ...]:
    """The languages among ``candidates`` that the detector knows, sorted."""
    return tuple(sorted({c.split("-")[0] for c in candidates if c.split("-")[0] in LANGUAGES}))


def _confidences(detector, texts: list[str]) -> list:
    if len(texts) == 1:
        return [detector.compute_language_confidence_values(texts[0])]
    return detector.compute_language_confidence_values_in_parallel(texts)


def _code(language_name: str) -> str:
    return next(code for code, name in LANGUAGES.items() if name == language_name)


TABLE = "language.json"
"""Where language verdicts are remembered between runs, in :func:`~cardworks.fileio.user_cache_folder`."""


def _is_verdict(value: object) -> bool:
    """A cached verdict is None (no guess) or ``[locale, confidence]``; anything else is recomputed."""
    return value is None or (isinstance(value, list) and len(value) == 2 and value[0] in LANGUAGES
                             and isinstance(value[1], (int, float)) and not isinstance(value[1], bool))


@lru_cache(maxsize=64)
def _verdict_key(candidates: tuple[str, ...], names: int) -> bytes:
    return hashlib.sha256(repr((candidates, names)).encode()).digest()


class _Verdicts:
    """Language guesses by hash of (text, candidates): the detector's models take half a second to load,
    so a text already judged is not judged again. A text that plainly shows its locale (:func:`plainly_in_locale`,
    the first of its candidates) is not given to the detector: its verdict is None, as for a text too short to
    guess, since no warning can come of it; a cached verdict costs less than the screen."""

    def __init__(self) -> None:
        self.table: dict[str, list | None] | None = None
        self.fresh: dict[str, list | None] = {}
        """Entries judged since the last :meth:`flush`."""

    def load(self) -> dict:
        if self.table is None:
            table = read_cache_table(TABLE)
            self.table = table if isinstance(table, dict) else {}  # none yet or damaged: started afresh
        return self.table

    @staticmethod
    def key(text: str, candidates: tuple[str, ...], names: tuple[str, ...]) -> str:
        """The text's hash, keyed by what else the verdict depends on (a ``repr`` of the whole, hashed, cost three
        times as much)."""
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12,
                               key=_verdict_key(candidates, len(names))).hexdigest()

    def get(self, text: str, candidates: tuple[str, ...], names: tuple[str, ...]) -> tuple[str, float] | None:
        return self.prefetch([(text, candidates)], names)[(text, candidates)]

    def prefetch(self, requests: list[tuple[str, tuple[str, ...]]], names: tuple[str, ...]) -> dict:
        """The verdict on every distinct ``(text, candidates)``; those not known yet are judged in one batch."""
        table = self.load()
        keys = {request: self.key(*request, names) for request in dict.fromkeys(requests)}
        missing = {key: request for request, key in keys.items() if not _is_verdict(table.get(key, 0))}
        index = names if isinstance(names, ProperNames) else ProperNames(names)
        plain = {key for key, (text, candidates) in missing.items() if plainly_in_locale(text, candidates[0], index)}
        fresh = dict.fromkeys(plain)
        judge = {key: request for key, request in missing.items() if key not in plain}
        for key, verdict in zip(judge, detect_languages(list(judge.values()), index)):
            fresh[key] = list(verdict or []) or None
        table.update(fresh)
        self.fresh.update(fresh)
        return {request: (table[key][0], table[key][1]) if table[key] else None for request, key in keys.items()}

    def absorb(self, fresh: dict[str, list | None], unsaved: bool = False) -> None:
        """Take in verdicts another process judged: saved by it, when this process has read the cache already;
        else (``unsaved``) to be saved by :meth:`flush`."""
        if unsaved:
            self.load().update(fresh)
            self.fresh.update(fresh)
        elif self.table is not None:
            self.table.update(fresh)

    def flush(self) -> None:
        """Save new verdicts; a cache that cannot be written is simply not kept."""
        fresh, self.fresh = self.fresh, {}
        if not fresh or self.table is None:
            return
        write_cache_table(TABLE, self.table)


VERDICTS = _Verdicts()


def language_request(text: str, locale: str, candidates: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """What :func:`wrong_language` asks the detector about ``text``: for :meth:`_Verdicts.prefetch`."""
    return text, (locale.split("-")[0], *candidates)


def wrong_language(text: str, locale: str, candidates: tuple[str, ...], names: tuple[str, ...] = ()) -> str | None:
    """A message when ``text`` is confidently in another of the game's languages than ``locale``.

    ``names`` (longest first) are removed before guessing: proper names say nothing of the language.
    """
    return wrong_language_message(VERDICTS.get(*language_request(text, locale, candidates), names), locale)


def wrong_language_message(found: tuple[str, float] | None, locale: str) -> str | None:
    """The warning for the detector's verdict ``found`` on a text meant to be in ``locale``, if any."""
    expected = locale.split("-")[0]
    if found and found[0] != expected and expected in LANGUAGES and found[1] >= DETECT_CONFIDENCE:
        return f"this reads as {found[0]} ({found[1]:.0%} sure), not {expected}"
    return None


def translation_warnings(source: str, text: str, locale: str, field: str) -> list[tuple[str, str]]:
    """(code, message) warnings about one translation, wrong language aside."""
    found = []
    if text == source and not is_name_field(field):
        found.append(("same-as-source", "the translation is identical to the source"))
    if _ends_sentence(source) and not _ends_sentence(text):
        found.append(("truncated", "the source ends a sentence but the translation stops short"))
    if len(source) >= 40 and len(text) < 0.5 * len(source):
        found.append(("too-short", f"the translation has {len(text)} characters against the source's {len(source)}"))
    found += typography_warnings(text, locale)
    return found


def typography_warnings(text: str, locale: str) -> list[tuple[str, str]]:
    """The locale's typography: French spaces, the Catalan middle dot, quotation marks."""
    language = locale.split("-")[0]
    found = []
    if language == "fr" and _FRENCH_SPACE.search(text):
        found.append(("typography", "French puts a narrow no-break space (U+202F) before : ; ! ?, "
                                    "not a plain space or none"))
    if language == "ca" and _BAD_MIDDLE_DOT.search(text):
        found.append(("typography", "write the geminated l with the middle dot: l·l"))
    if language in {"ca", "es", "fr"} and '"' in text:
        found.append(("typography", "use « » (or “ ”) quotation marks, not straight double quotes"))
    return found + prose_warnings(text, locale)


def name_texts(db, strings: dict) -> set[str]:
    """Every name of the game in every locale (see :func:`proper_names`)."""
    names = {s.text for fields in strings.values() for s in fields.values() if is_name_field(s.field)}
    for _, doc in db.docs("translations"):
        names |= {t.text for fields in doc.entries.values() for f, t in fields.items() if is_name_field(f)}
    return names


def name_index(names: set[str]) -> ProperNames:
    """The names worth removing before guessing a language (over three characters), longest first."""
    return ProperNames(sorted((n for n in names if len(n) > 3), key=lambda n: (-len(n), n)))


def proper_names(db, strings: dict) -> tuple[str, ...]:
    """Every name of the game in every locale, longest first: removed before guessing a language."""
    return name_index(name_texts(db, strings))


def warm_detector(locales: tuple[str, ...], stop=lambda: False) -> None:
    """Load the detector's models for ``locales`` (a second or more, the first time in a process): the quick
    screening models of them all, then the full model of each, which the detectors for pairs share; ``stop()``
    is asked between models (true when there is other work: the models then load when a text needs them)."""
    known = _known(locales)
    if len(known) < 2:
        return
    sample = "the quick brown fox jumps over the lazy dog"
    _detector(known, True).compute_language_confidence_values(sample)
    for i in range(0, len(known), 2):  # pairs that hold every language once (the first twice, if odd)
        if stop():
            return
        pair = known[i:i + 2] if i + 1 < len(known) else (known[0], known[i])
        _detector(pair, False).compute_language_confidence_values(sample)
