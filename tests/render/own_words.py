"""Finding text copied from the rulebooks: runs of 12 or more words that a generated document shares with a source.

The sources (``../shared/rulebooks/`` beside the project) are not part of the
repository, so the tests compare against fingerprints of them: a 6-byte hash of
every run of ``RUN`` consecutive words, kept in ``source_shingles.json``. A
fresh clone can run the check; :func:`fingerprints` makes the file again where
the sources are present, and a test fails when it is stale.

Words are compared after normalising case, punctuation and whitespace: a word is
a run of letters or digits, lower-cased (``Leo's`` is ``leo`` ``s``).

A list of names is not prose: a shared run made only of words of the
database's names (cards, components, sets, icons, in the document's locale and
the game's source locale), numbers and a few joining words is allowed, e.g. a
components list ("21 like tokens 20 thrilled crowd tokens …").
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

RUN = 12
HASH_BYTES = 6
SHINGLES = Path(__file__).with_name("source_shingles.json")
SOURCES = Path(__file__).resolve().parents[2].parent / "shared" / "rulebooks"
"""Where the project's checkout keeps the rulebooks (``../shared/rulebooks``); absent in a fresh clone."""

DOCUMENTS = {
    # game, locale of the document: the source files it is written from
    ("fallera", "en"): ["fallera-base.en.txt", "fallera-2-discordia.en.txt", "fallera-3-mes-enlla.en.txt"],
    ("diables", "en"): ["diables.en.txt"],
    ("calavera", "fr"): ["calavera.fr.txt"],
}
JOINING = {"and", "or", "of", "the", "a", "x", "de", "du", "des", "et", "ou", "la", "le", "les", "each", "color",
           "colour"}
"""Words a list of names may hold besides the names (``of each color`` in a components list)."""

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The words of ``text``, lower-cased, without punctuation (typographic apostrophes split words too)."""
    return _WORD.findall(text.lower())


def _hash(run: list[str]) -> bytes:
    return hashlib.blake2b(" ".join(run).encode("utf-8"), digest_size=HASH_BYTES).digest()


def _runs(found: list[str]) -> list[bytes]:
    return [_hash(found[i:i + RUN]) for i in range(len(found) - RUN + 1)]


def fingerprints(sources: Path = SOURCES) -> dict[str, str]:
    """Each source file's run hashes, sorted, packed and base64-encoded (the content of ``source_shingles.json``).

    A source line is a paragraph, heading, list item or table row: runs do not cross lines, as a document's
    runs do not cross its blocks (:func:`html_blocks`)."""
    out = {}
    for name in sorted({n for names in DOCUMENTS.values() for n in names}):
        lines = (sources / name).read_text(encoding="utf-8").splitlines()
        hashes = sorted({h for line in lines for h in _runs(words(line))})
        out[name] = base64.b64encode(b"".join(hashes)).decode("ascii")
    return out


def source_runs(names: list[str]) -> set[bytes]:
    """The run hashes of the named sources, from the committed fingerprints."""
    stored = json.loads(SHINGLES.read_text(encoding="utf-8"))
    found: set[bytes] = set()
    for name in names:
        packed = base64.b64decode(stored[name])
        found |= {packed[i:i + HASH_BYTES] for i in range(0, len(packed), HASH_BYTES)}
    return found


def copied_runs(text: str, runs: set[bytes], names: set[str]) -> list[str]:
    """Every maximal run of ``RUN`` or more words of ``text`` (one block) that a source holds, except lists of names."""
    found = words(text)
    hits = [i for i, h in enumerate(_runs(found)) if h in runs]
    spans: list[list[int]] = []
    for i in hits:
        if spans and i <= spans[-1][1]:
            spans[-1][1] = i + RUN
        else:
            spans.append([i, i + RUN])
    allowed = names | JOINING
    return [" ".join(found[a:b]) for a, b in spans
            if not all(w in allowed or w.isdigit() for w in found[a:b])]


BLOCKS = {"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "caption", "figcaption",
          "blockquote", "aside", "div", "section", "tr", "br", "table", "ul", "ol", "dl", "nav"}


class _Blocks(HTMLParser):
    """The text a reader sees in an HTML document, block by block: no head, styles or scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: list[list[str]] = [[]]
        self._skip = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in {"head", "style", "script"}:
            self._skip += 1
        if tag in BLOCKS:
            self.blocks.append([])
        else:
            self.blocks[-1].append(" ")  # a tag inside a block still ends a word

    def handle_endtag(self, tag: str) -> None:
        if tag in {"head", "style", "script"}:
            self._skip = max(0, self._skip - 1)
        if tag in BLOCKS:
            self.blocks.append([])
        else:
            self.blocks[-1].append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.blocks[-1].append(data)


def html_blocks(html: str) -> list[str]:
    """The text of each block (paragraph, list item, table cell, heading …) of ``html`` that has any."""
    parser = _Blocks()
    parser.feed(html)
    return [text for text in ("".join(parts).strip() for parts in parser.blocks) if text]


def name_words(db, locale: str) -> set[str]:
    """Words of every name the database gives (any record's ``name``), in ``locale`` and the source locale."""
    from cardworks.i18n import Localizer
    from cardworks.loading.records import Index

    index = Index(db)
    localizer = Localizer(db, locale)
    found: set[str] = set()
    for record in index.by_id.values():
        name = getattr(record.model, "name", None)
        if not isinstance(name, str):
            continue
        found |= set(words(name))
        text, _ = localizer.text(record.id, "name", name)
        found |= set(words(str(text)))
    return found
