"""PO and XLIFF files for translators' tools (Poedit, Weblate, Lokalize), written and read
with maintained libraries: polib for PO, translate-toolkit for XLIFF."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from .catalog import Entry

GAME_HEADER = "X-Cardworks-Game"


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


@dataclass(frozen=True)
class ImportedFile:
    game: str | None
    locale: str | None
    entries: list[ImportedEntry]


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
                             comment="\n".join(entry.comments))
        if entry.state == "stale":
            item.flags.append("fuzzy")
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
                             f"line {e.linenum}") for e in po if not e.obsolete]
    return ImportedFile(po.metadata.get(GAME_HEADER), po.metadata.get("Language"), entries)


def to_xliff(entries: list[Entry], game: str, locale: str, source_locale: str) -> bytes:
    """An XLIFF 1.2 file of ``entries``; stale translations are marked ``needs-review``."""
    from translate.storage import xliff

    store = xliff.xlifffile(sourcelanguage=source_locale, targetlanguage=locale)
    name = f"{game}.{locale}"
    for entry in entries:
        unit = store.addsourceunit(entry.source, filename=name, createifmissing=True)
        unit.setid(entry.context)
        if entry.translation is not None:
            unit.target = entry.translation
        for note in entry.comments:
            unit.addnote(note, origin="developer")
        if entry.previous_source is not None:
            unit.addnote(f"previous source: {entry.previous_source}", origin="developer")
        if entry.state == "stale":
            unit.markfuzzy(True)
    return bytes(store)


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
        entries.append(ImportedEntry(unit_id, unit.source, unit.target or "", unit.isfuzzy(), None, f"unit {unit_id}"))
    return ImportedFile(game or None, store.gettargetlanguage() or locale or None, entries)
