"""PO and XLIFF files for translators' tools (Poedit, Weblate, Lokalize), written and read
with maintained libraries: polib for PO, translate-toolkit for XLIFF."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

from ..markup.parser import MarkupError, Token, parse
from .catalog import Entry
from .merge import BASE_LABEL, value_hash

GAME_HEADER = "X-Cardworks-Game"
_BRACE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A field name gettext's ``python-brace-format`` check understands (it gives up silently on ``{set-2}``)."""


def po_flags(entry: Entry) -> list[str]:
    """The ``#,`` flags of an entry, for msgfmt, pofilter and Weblate.

    ``python-brace-format`` makes ``msgfmt --check`` and ``pofilter -t pythonbraceformat``
    refuse a renamed or dropped ``{token}``; ``placeholders:`` makes Weblate check them too;
    ``max-length:`` is the room the text has on the card; ``md-text`` marks rulebook Markdown.
    """
    flags = []
    found = entry.tokens
    if found and all(_BRACE_NAME.fullmatch(name) for name in found):
        flags.append("python-brace-format")
    if found:
        flags.append("placeholders:" + ":".join(f'"{{{name}}}"' for name in dict.fromkeys(found)))
    if entry.max_length is not None:
        flags.append(f"max-length:{entry.max_length}")
    if entry.kind == "rules":
        flags.append("md-text")
    return flags


@dataclass(frozen=True)
class ImportedEntry:
    """One entry read back from a translator's file."""

    context: str
    source: str
    text: str
    fuzzy: bool
    previous_source: str | None
    where: str
    """Location in the file for messages: ``line N`` in a PO file, the unit id in XLIFF."""
    base: str | None = None
    """The base hash the export recorded (the text found, checked by the import), None when the entry has none."""
    state: str | None = None
    """An XLIFF target's ``state`` as its tool wrote it (None: no state, or a PO entry)."""
    plural: bool = False
    """A PO entry with plural forms (``msgid_plural``, ``msgstr[n]``), which no string of a game has."""


@dataclass(frozen=True)
class ImportedFile:
    game: str | None
    locale: str | None
    entries: list[ImportedEntry]


PREVIOUS_NOTE = "previous source: "
"""How an XLIFF unit's developer note gives the source a stale translation was made from."""
TRANSLATED_STATES = frozenset({"translated", "needs-review-translation", "needs-review-adaptation",
                               "needs-review-l10n", "signed-off", "final"})
"""XLIFF 1.2 target states saying the target is a translation (some still to be reviewed): imported."""
DRAFT_STATES = frozenset({"new", "needs-translation", "needs-adaptation", "needs-l10n"})
"""States saying the target is not a translation yet: the export writes ``needs-translation`` on stale units."""


def xliff_is_draft(state: str | None, approved: bool) -> bool:
    """True when a unit's target is not to be imported as it is: a draft state (or one XLIFF 1.2 does not define).

    Tools differ in what they write on a string the translator typed: ``translated``, ``final`` or
    ``signed-off``, a ``needs-review-*`` state for one to be checked, ``approved="yes"``, or no state at all.
    Each of those is a translation, so each is imported (translate-toolkit's ``isfuzzy`` would skip every unit
    not approved, which is what made edited targets vanish).
    """
    return not approved and state is not None and state not in TRANSLATED_STATES


def state_refusal(entry: ImportedEntry, stored: str | None) -> str | None:
    """Why an XLIFF target in a draft or unknown state is refused, or None when it is imported or skipped.

    A stale unit's target (one with a previous source) is imported as a translation of that previous source, so
    it stays stale until a state says it is done: as a fuzzy PO entry with ``#|``, and some tools cannot change
    a unit's state at all. Any other draft target equal to the stored translation is skipped; one the translator
    changed while its state still says "not translated" is refused, never dropped in silence.
    """
    if entry.state is None or entry.state in TRANSLATED_STATES:
        return None
    if entry.state not in DRAFT_STATES:
        return (f"state {entry.state!r} is not an XLIFF 1.2 state; imported are no state, "
                f"{', '.join(sorted(TRANSLATED_STATES))}, or approved=\"yes\"")
    if entry.previous_source:
        return None
    if entry.text != (stored or ""):
        return (f"the target was changed but its state {entry.state!r} says it is not translated yet; mark it "
                "translated (or final) in your tool, or undo the change")
    return None


def to_po(entries: list[Entry], game: str, locale: str) -> str:
    """A PO file of ``entries``; stale translations are fuzzy with the previous source as ``#|``."""
    import polib

    po = polib.POFile(wrapwidth=0)
    po.metadata = {
        "Project-Id-Version": f"cardworks {game}",
        "PO-Revision-Date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M+0000"),
        "Last-Translator": "cardworks export <>",
        "Language-Team": f"{game} {locale}",
        "Language": locale,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
        GAME_HEADER: game,
    }
    for entry in entries:
        item = polib.POEntry(msgctxt=entry.context, msgid=entry.source, msgstr=entry.translation or "",
                             comment="\n".join([*entry.comments, f"{BASE_LABEL}: {value_hash(entry.stored)}"]))
        if entry.state == "stale":
            item.flags.append("fuzzy")
        item.flags.extend(po_flags(entry))
        if entry.state == "stale":
            if entry.previous_source is not None:
                item.previous_msgctxt = entry.context
                item.previous_msgid = entry.previous_source
        po.append(item)
    return po.__unicode__()


def from_po(data: bytes) -> ImportedFile:
    """Read a PO file's bytes; raises ValueError with the reason when they cannot be parsed."""
    import polib

    try:
        text = data.decode("utf-8")
        if not text.strip():
            raise ValueError("the file is empty")
        po = polib.pofile(text, wrapwidth=0)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"not a readable PO file: {exc}") from None
    entries = [ImportedEntry(e.msgctxt or "", e.msgid, e.msgstr, "fuzzy" in e.flags, e.previous_msgid,
                             f"line {e.linenum}", _po_base(e.comment), plural=bool(e.msgid_plural or e.msgstr_plural))
               for e in po if not e.obsolete]
    return ImportedFile(po.metadata.get(GAME_HEADER), po.metadata.get("Language"), entries)


def _po_base(comment: str | None) -> str | None:
    """The base hash of a ``#. cardworks-base: …`` line (translators' tools keep extracted comments as they are)."""
    for line in (comment or "").splitlines():
        label, colon, value = line.partition(":")
        if colon and label.strip() == BASE_LABEL:
            return value.strip()
    return None


def _rich(text: str, markup: bool) -> list:
    """``text`` as XLIFF content: each ``{token}`` a ``<ph>`` that editors show as one locked code."""
    from translate.storage.placeables import StringElem
    from translate.storage.placeables.xliff import Ph

    try:
        found = [part for part in parse(text) if isinstance(part, Token)] if markup else []
    except MarkupError:
        found = []  # shown as typed; the import names the syntax error
    parts: list = []
    position = 0
    for number, token in enumerate(found, start=1):
        if token.offset > position:
            parts.append(text[position:token.offset])
        position = token.offset + len(token.name) + 2
        parts.append(Ph(id=str(number), sub=[text[token.offset:position]]))
    if position < len(text) or not parts:
        parts.append(text[position:])
    return [StringElem(parts)]


def to_xliff(entries: list[Entry], game: str, locale: str, source_locale: str) -> bytes:
    """An XLIFF 1.2 file of ``entries``; translations are ``state="translated"``, stale ones ``needs-translation``.

    Tokens are ``<ph>`` placeholders and card fields carry ``maxwidth`` in characters
    (``size-unit="char"``), so CAT tools check both while the translator types.
    """
    from translate.storage import xliff

    store = xliff.xlifffile(sourcelanguage=source_locale, targetlanguage=locale)
    name = f"{game}.{locale}"
    for entry in entries:
        unit = store.addsourceunit(entry.source, filename=name, createifmissing=True)
        unit.setid(entry.context)
        unit.rich_source = _rich(entry.source, entry.markup)
        if entry.translation is not None:
            unit.rich_target = _rich(entry.translation, entry.markup)
            # Written here: the toolkit writes no state on a target (its markfuzzy writes nothing on a unit that
            # was never approved), and a tool shows a stale target as needing work only when its state says so.
            state = "needs-translation" if entry.state == "stale" else "translated"
            unit.getlanguageNode(lang=None, index=1).set("state", state)
        if entry.max_length is not None:
            unit.xmlelement.set("maxwidth", str(entry.max_length))
            unit.xmlelement.set("size-unit", "char")
        for note in entry.comments:
            unit.addnote(note, origin="developer")
        if entry.previous_source is not None:
            unit.addnote(PREVIOUS_NOTE + entry.previous_source, origin="developer")
        unit.addnote(value_hash(entry.stored), origin=BASE_LABEL)  # CAT tools keep notes; most drop foreign attributes
    return bytes(store)


def _previous_source(unit) -> str | None:
    """The source a stale unit's translation was made from, as the export's note gives it (XLIFF 1.2 has no
    field for it; PO has ``#|``)."""
    for note in unit.xmlelement.iterdescendants(unit.namespaced("note")):
        if note.get("from") == "developer" and (note.text or "").startswith(PREVIOUS_NOTE):
            return note.text.removeprefix(PREVIOUS_NOTE)
    return None


def from_xliff(data: bytes) -> ImportedFile:
    """Read an XLIFF file's bytes; raises ValueError with the reason when they cannot be parsed."""
    from translate.storage import xliff

    try:
        store = xliff.xlifffile.parsestring(data)
    except Exception as exc:  # lxml raises several kinds for broken XML
        raise ValueError(f"not a readable XLIFF file: {exc}") from None
    original = store.getfilenames()[0] if store.getfilenames() else ""
    game, _, locale = original.partition(".")
    entries = []
    for unit in store.units:
        if unit.isheader():
            continue
        unit_id = unit.getid().rpartition("\x04")[2]  # the toolkit prefixes the file name
        base = unit.getnotes(origin=BASE_LABEL) if unit.getnotes(origin=BASE_LABEL) else None
        target = unit.getlanguageNode(lang=None, index=1)
        state = target.get("state") if target is not None else None
        # Not unit.isfuzzy(): the toolkit calls every unit without approved="yes" fuzzy, whatever its state.
        draft = xliff_is_draft(state, unit.isapproved())
        previous = _previous_source(unit) if draft else None
        entries.append(ImportedEntry(unit_id, unit.source, unit.target or "", draft, previous, f"unit {unit_id}",
                                     base=base, state=state))
    return ImportedFile(game or None, store.gettargetlanguage() or locale or None, entries)
