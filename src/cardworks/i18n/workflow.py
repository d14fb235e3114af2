"""The translator's round trip: export a locale to PO or XLIFF, import it back, and report status."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import DataError, UsageError
from ..fileio import MAX_TEXT_BYTES, OS_ERROR_CODES, UnsafeFile, folder_locks, read_limited, read_text_limited
from ..journal import anchor_for, recover, write_journaled
from ..loading.jsonfile import MAX_FILE_BYTES
from ..models.cards import CARD_TEXT_LIMITS
from ..models.translations import MAX_TRANSLATION_CHARS
from ..loading.database import Database, display_path, load_game
from ..markup import MarkupError, tokens
from ..markup.invisible import describe, invisible_characters
from ..problems import Problem
from .catalog import Entry, build_catalog, parse_context
from .files import merged_translations
from .formats import ImportedFile, from_po, from_xliff, state_refusal, to_po, to_xliff
from .locales import known_locale, resolve_locale
from .pseudo import PSEUDO_LOCALE, pseudo_text
from .merge import LEGACY_WARNING, check_base, conflict_message, decide
from .strings import source_hash
from .rules import section_with_blocks, split_blocks, translated_blocks

FORMATS = {"po": ".po", "xliff": ".xlf"}


def _check_locale(db: Database, locale: str) -> str:
    """The game's locale for the tag ``locale`` (an alias resolved), refused when it is the source locale."""
    game = db.game_doc
    locale = resolve_locale(game, locale)
    if locale == game.source_locale:
        raise UsageError(f"{locale!r} is the source locale of {game.id}; it has nothing to translate")
    return locale


def export_catalog(db: Database, locale: str, fmt: str) -> bytes:
    """Every translatable string of the game for ``locale``, as a PO or XLIFF file.

    For the pseudo-locale every string comes translated into its pseudo text: a file to try a translation
    tool's round trip, or a PO-reading tool, on text 40% longer than the source (it cannot be imported).
    """
    locale = _check_locale(db, locale)
    entries = build_catalog(db, locale)
    if locale == PSEUDO_LOCALE:
        entries = [replace(e, translation=pseudo_text(e.source, markup=e.markup), state="translated") for e in entries]
    game = db.game_doc
    if fmt == "po":
        return to_po(entries, game.id, locale).encode("utf-8")
    return to_xliff(entries, game.id, locale, game.source_locale)


@dataclass
class ImportResult:
    path: Path
    changed: int
    unchanged: int
    skipped: int
    """Entries left untranslated or fuzzy without a known previous source."""
    warnings: list[str] = field(default_factory=list)
    """Said once to the user: a file without base hashes, an interrupted import finished first."""


MAX_RULES_BLOCK_CHARS = 20_000
"""Longest translated rulebook block (a paragraph, heading or list item); the longest source block has under 2,000."""


def read_translator_file(path: Path) -> ImportedFile:
    """Read a PO or XLIFF file (by its extension); DataError when unreadable, too large or not a regular file."""
    reader = from_xliff if path.suffix.lower() in {".xlf", ".xliff"} else from_po
    shown = display_path(path)
    try:
        return reader(read_limited(path, MAX_TEXT_BYTES))
    except UnsafeFile as exc:
        raise DataError(f"{shown} refused; nothing written", [Problem(shown, "", exc.code, str(exc))]) from None
    except ValueError as exc:
        raise DataError(str(exc), [Problem(shown, "", "i18n-unreadable", str(exc))]) from None


def import_catalog(db: Database, path: Path, locale: str | None = None) -> ImportResult:
    """Write a translator's file back into the locale's files, or refuse it whole (nothing written).

    The game folder is locked while the import reads and writes it, and only entries the file changed
    (relative to the base hash its export recorded) are applied, so two imports never lose each other's
    strings; an entry changed in both, differently, is an ``import-conflict``. The files are written as one
    journaled change (:mod:`cardworks.journal`): all of them or, after kill -9, finished by the next import.
    """
    imported = read_translator_file(path)
    with folder_locks([db.game.root, *(pack.root for pack in db.packs)], "import"):
        recovered = recover_imports(db)
        fresh = Database(game=load_game(db.game.root), packs=db.packs)  # as it is now, under the lock
        broken = [p for p in fresh.game.problems if p.severity == "error"]
        if broken or fresh.game_doc is None:
            raise DataError(f"game {db.game.label} has unusable files; run 'cardworks validate'", broken)
        result = _import(fresh, imported, path, locale)
        result.warnings[:0] = recovered
        return result


def recover_imports(db: Database) -> list[str]:
    """Finish (or sweep) an import interrupted in the game or its packs; call with the game folder locked."""
    try:
        return recover(db.roots)
    except (OSError, ValueError) as exc:
        shown = display_path(db.game.root)
        raise DataError(f"{shown}: an interrupted import cannot be finished; nothing imported",
                        [Problem(shown, "", "import-half-applied", str(exc))]) from None


def _import(db: Database, imported: ImportedFile, path: Path, locale: str | None) -> ImportResult:
    shown = display_path(path)
    game = db.game_doc
    problems: list[Problem] = []
    if imported.game != game.id:
        problems.append(Problem(shown, "", "wrong-game", f"the file is for game {imported.game!r}, not {game.id!r}"))
    # the file's own language as the game's locale; a tag the game lacks stays as written (reported below)
    declared = (known_locale(game, imported.locale) or imported.locale) if imported.locale else None
    locale = resolve_locale(game, locale) if locale else None
    target = locale or declared
    if locale and declared and declared != locale:
        problems.append(Problem(shown, "", "wrong-locale", f"the file is for locale {imported.locale!r}, not {locale!r}"))
    if not target:
        problems.append(Problem(shown, "", "wrong-locale", "the file names no language; give --locale"))
    if problems:
        raise DataError(f"{shown} refused; nothing written", problems)
    _check_locale(db, target)
    if target == PSEUDO_LOCALE:
        raise UsageError(f"{PSEUDO_LOCALE} is the pseudo-locale, made from the source at each build; "
                         "there is nothing to import into it")
    current = {e.context: e for e in build_catalog(db, target)}
    registered = {icon for _, doc in db.docs("icons") for icon in (i.id for i in doc.icons)}
    items: list[tuple[str, str, str, str]] = []
    rule_updates: dict[str, dict[int, str]] = {}
    skipped = 0
    problems += _duplicate_problems(shown, imported.entries)
    based = any(entry.base is not None for entry in imported.entries)
    kept = 0
    for entry in imported.entries:
        if entry.plural:
            problems.append(Problem(shown, entry.where, "i18n-plural", f"{entry.context or entry.source!r}: a plural "
                                    "entry (msgid_plural, msgstr[0]…); no string of a game has plural forms: "
                                    "give its translation as msgstr"))
            continue
        if not entry.text:
            skipped += 1
            continue
        source = current.get(entry.context)
        if source is None:
            try:
                parse_context(entry.context)
                reason = f"no string {entry.context!r} in {game.id} (removed or renamed?)"
            except ValueError as exc:
                reason = str(exc)
            problems.append(Problem(shown, entry.where, "dangling-ref", reason))
            continue
        if based and check_base(entry.base) is None:
            problems.append(Problem(shown, entry.where, "import-base", f"{entry.context}: the "
                                    f"{'base hash is not one an export writes' if entry.base else 'entry has no base hash'}"
                                    "; the other entries have one, so this one cannot be merged safely; export again"))
            continue
        translated_from = entry.source
        if entry.fuzzy:
            refusal = state_refusal(entry, source.translation)
            if refusal:
                problems.append(Problem(shown, entry.where, "xliff-state", f"{entry.context}: {refusal}"))
                continue
            if not entry.previous_source:
                skipped += 1
                continue
            translated_from = entry.previous_source
        if based:
            stamp = "" if source.kind == "rules" else source_hash(translated_from)
            decision = decide(check_base(entry.base), [entry.text, stamp], source.stored)
            if decision in ("keep", "same"):
                kept += 1
                continue  # not this file's change (or already made): the stored value stays as it is now
            if decision == "conflict":
                problems.append(Problem(shown, entry.where, "import-conflict", conflict_message(
                    entry.context, source.translation, entry.text, check_base(entry.base))))
                continue
        found = _text_problems(shown, entry.where, entry.context, source, entry.text)
        # Tokens are checked against the database's source as it is now, never the file's own msgid.
        found = found or _token_problems(shown, entry.where, entry.context, source, entry.text, registered)
        problems += found
        if found:
            continue
        if source.record.startswith("rules/"):
            rule_updates.setdefault(source.record.removeprefix("rules/"), {})[int(source.field)] = entry.text
        else:
            items.append((source.record, source.field, entry.text, translated_from))
    problems += _rule_shape_problems(db, target, rule_updates, shown)
    if problems:
        raise DataError(f"{shown} refused: {len(problems)} bad entr{'y' if len(problems) == 1 else 'ies'}; nothing written",
                        problems)
    before = {(e.record, e.field): e.translation for e in current.values()}
    contents = _new_contents(db, target, items, rule_updates, before)
    json_path = db.game.root / "i18n" / f"{target}.json"
    if len(contents.get(json_path, b"")) > MAX_FILE_BYTES:
        raise DataError(f"{shown} refused; nothing written", [Problem(shown, "", "file-too-large",
                        f"the import would make {display_path(json_path)} larger than {MAX_FILE_BYTES:,} bytes")])
    try:
        write_journaled(anchor_for(db.roots, list(contents)), contents)
    except OSError as exc:
        code = OS_ERROR_CODES.get(exc.errno or 0, "write-failed")
        where = display_path(Path(exc.filename)) if exc.filename else display_path(json_path)
        raise DataError(f"{shown}: not imported; every file of {target} is as it was",
                        [Problem(where, "", code, f"cannot write: {exc.strerror}")]) from None
    applied = items + [(f"rules/{s}", str(n), t, "") for s, u in rule_updates.items() for n, t in u.items()]
    changed = sum(1 for record, field_, text, _ in applied if before.get((record, field_)) != text)
    return ImportResult(json_path, changed, kept + len(applied) - changed, skipped,
                        [] if based else [f"{shown}: {LEGACY_WARNING}"])


def _new_contents(db: Database, locale: str, items: list[tuple[str, str, str, str]],
                  rule_updates: dict[str, dict[int, str]], before: dict) -> dict[Path, bytes]:
    """Every file the import writes, with its new bytes (the locale file first, then rulebook sections)."""
    path, data = merged_translations(db, locale, items)
    contents = {} if data is None else {path: data}
    rules_root = db.game.root / "rules"
    for section, updates in rule_updates.items():
        changed_blocks = {n: text for n, text in updates.items() if before.get((f"rules/{section}", str(n))) != text}
        if changed_blocks:
            target, text = section_with_blocks(rules_root, db.game_doc.source_locale, locale, section, changed_blocks)
            contents[target] = text.encode("utf-8")
    return contents


def _duplicate_problems(file: str, entries: list) -> list[Problem]:
    """The same context twice with different translations: which one is meant cannot be known."""
    first: dict[str, object] = {}
    problems = []
    for entry in entries:
        seen = first.setdefault(entry.context, entry)
        if seen is not entry and seen.text != entry.text:
            problems.append(Problem(file, entry.where, "duplicate-context",
                                    f"{entry.context} is translated twice, differently ({seen.where} and {entry.where})"))
    return problems


def _text_problems(file: str, where: str, context: str, source: Entry, text: str) -> list[Problem]:
    """Whitespace-only texts, texts over their limit, invisible or bidirectional characters, rulebook blocks that
    would split into several."""
    if not text.strip():
        return [Problem(file, where, "empty-translation", f"{context}: the translation is only whitespace")]
    is_rules = source.record.startswith("rules/")
    field = "name" if source.field.startswith("alt_names/") else source.field
    if is_rules:
        limit = MAX_RULES_BLOCK_CHARS
    elif source.set_id is not None and field in CARD_TEXT_LIMITS:  # a card: what its box holds
        limit = CARD_TEXT_LIMITS[field]
    else:
        limit = MAX_TRANSLATION_CHARS
    if len(text) > limit:
        return [Problem(file, where, "text-too-long", f"{context}: the translation has {len(text):,} characters; "
                        f"at most {limit:,} fit")]
    found = invisible_characters(text)
    if found:  # validate refuses them after; refused here, nothing is written
        return [Problem(file, where, "invisible-character", f"{context}: {describe(found)}: characters that print "
                        "nothing or reorder the text are not allowed (the printed text would differ from the one "
                        "reviewed); remove them")]
    if is_rules and len(split_blocks(text)) != 1:
        return [Problem(file, where, "rules-block-split", f"{context}: a rulebook block holds no blank line; "
                        "a blank line would split it and shift every block after it")]
    return []


def _rule_shape_problems(db: Database, locale: str, updates: dict[str, dict[int, str]], shown: str) -> list[Problem]:
    """Rulebook files that no longer line up block by block with their source cannot take imported blocks."""
    root = db.game.root / "rules"
    problems = []
    for section in updates:
        source = root / db.game_doc.source_locale / f"{section}.md"
        count = len(split_blocks(read_text_limited(source)))
        target = root / locale / f"{section}.md"
        if target.exists() and translated_blocks(root, locale, section, count) is None:
            problems.append(Problem(shown, "", "rules-shape", f"{display_path(target)} has not the {count} blocks of its "
                                    "source; align it by hand, then import again"))
    return problems


def _token_problems(file: str, where: str, context: str, source: Entry, text: str, registered: set[str]) -> list[Problem]:
    if not source.markup:
        return []
    try:
        found = tokens(text)
    except MarkupError as exc:
        return [Problem(file, where, "markup-syntax", f"{context}: {exc}")]
    problems = [Problem(file, where, "unknown-token", f"{context}: token {{{t}}} is not in the icon registry")
                for t in sorted(set(found) - registered)]
    try:
        expected = tokens(source.source)
    except MarkupError:
        expected = []
    if Counter(found) != Counter(expected):
        shown = " ".join(f"{{{t}}}" for t in sorted(found)) or "(none)"
        wanted = " ".join(f"{{{t}}}" for t in sorted(expected)) or "(none)"
        problems.append(Problem(file, where, "token-mismatch",
                                f"{context}: tokens {shown} differ from the current source's {wanted}"))
    return problems


@dataclass
class StatusRow:
    """Translation state of one locale and group (a set, or a kind of record)."""

    locale: str
    group: str
    translated: int = 0
    stale: int = 0
    missing: int = 0
    overflow: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.translated + self.stale + self.missing


def translation_status(db: Database, overflow: dict[str, list[str]] | None = None) -> list[StatusRow]:
    """Per locale and group: strings translated, stale and missing, and cards that overflow (from the last build)."""
    game = db.game_doc
    rows: dict[tuple[str, str], StatusRow] = {}
    card_sets: dict[str, str] = {}
    for locale in game.locales:
        if locale == game.source_locale:
            continue
        for entry in build_catalog(db, locale):
            group = entry.context.split("/")[1]
            if entry.set_id:
                card_sets[entry.record] = entry.set_id
            row = rows.setdefault((locale, group), StatusRow(locale, group))
            setattr(row, entry.state, getattr(row, entry.state) + 1)
    for locale, cards in (overflow or {}).items():
        for card in cards:
            group = card_sets.get(card)
            if group and (locale, group) in rows:
                rows[(locale, group)].overflow.append(card)
    return sorted(rows.values(), key=lambda r: (r.locale, r.group))
