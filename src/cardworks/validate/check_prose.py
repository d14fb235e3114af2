"""Prose checks on the rulebook and FAQ sources (``rules/<locale>/*.md``), and English left in any text of
another locale: translations, rulebook sources and document labels (see :mod:`..i18n.prose`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..i18n.prose import english_warnings, kept_pattern, prose_warnings
from ..i18n.qa import is_name_field, name_texts
from ..i18n.strings import source_index
from ..loading.database import display_path
from ..loading.records import Index
from ..problems import ProblemList
from .check_glossary import _labels
from .check_labels import labels_folder


def rules_lines(root: Path, locale: str) -> Iterator[tuple[str, int, str]]:
    """(shown path, line number, line) of each rulebook source of ``locale`` under the game folder ``root``,
    through the checked reader: a FIFO, a device, a huge file or a link out of the folder is not read here
    (the file checks report it), so a text check can never hang on one."""
    from ..fileio import UnsafeFile
    from ..loading.paths import read_text_inside

    for path in sorted((root / "rules" / locale).glob("*.md")):
        try:
            text = read_text_inside(root, path)
        except (UnsafeFile, UnicodeDecodeError, OSError):
            continue
        shown = display_path(path)
        for number, line in enumerate(text.splitlines(), start=1):
            yield shown, number, line


def check_prose(index: Index, out: ProblemList, labels: Path | None = None) -> None:
    """Warn, line by line, about a rulebook source against its locale's prose rules, and wherever English is
    left in a text of another locale (the game's names and the glossary's ``kept_english`` aside)."""
    db = index.db
    game = db.game_doc
    strings = source_index(index)
    names = name_texts(db, strings)
    for record in index.records:  # the source texts: the same prose rules as their translations
        for string in strings.get(record.id, {}).values():
            if not is_name_field(string.field):
                for code, message in prose_warnings(string.text, game.source_locale):
                    out.warning(record.file.display, f"{record.pointer}{string.pointer}", code, message)
    kept_by_locale = {}
    for _, doc in db.docs("glossary"):
        kept_by_locale.setdefault(doc.locale, set()).update(doc.kept_english)
    for locale in game.locales:
        kept = kept_pattern(names | kept_by_locale.get(locale, set()))
        for shown, number, line in rules_lines(db.game.root, locale):
            for code, message in prose_warnings(line, locale) + english_warnings(line, locale, kept):
                out.warning(shown, f"{number}", code, message)
        for loaded, doc in db.docs("translations"):
            if doc.locale != locale:
                continue
            for record_id, fields in doc.entries.items():
                for field, translated in fields.items():
                    if is_name_field(field):
                        continue
                    for code, message in english_warnings(translated.text, locale, kept):
                        out.warning(loaded.display, f"/entries/{record_id}/{field}/text", code, message)
        label_file = (labels or labels_folder()) / f"{locale}.json"
        shown = display_path(label_file)
        said = {(p.location, p.message) for p in out.items if p.file == shown}
        for key, text in _labels(label_file).items():
            for code, message in english_warnings(text, locale, kept):
                if (f"/{key}", message) not in said:  # the labels are shared: once, whichever game asks first
                    out.warning(shown, f"/{key}", code, message)
