"""Text checks: markup syntax, registered tokens, and translations against their sources."""

from __future__ import annotations

from ..i18n.qa import is_name_field, translation_warnings
from ..i18n.strings import SourceString, source_hash, source_index
from ..loading.jsonfile import pointer_escape
from ..markup import MarkupError, tokens
from ..problems import ProblemList
from ..loading.records import Index
from .check_invisible import report_invisible
from .check_language import Judge, LanguageChecks


def _tokens_or_report(text: str, registered: set[str], out: ProblemList, file: str, pointer: str) -> list[str] | None:
    try:
        found = tokens(text)
    except MarkupError as exc:
        out.error(file, pointer, "markup-syntax", str(exc))
        return None
    for name in sorted(set(found) - registered):
        out.error(file, pointer, "unknown-token", f"token {{{name}}} is not in the icon registry")
    return found


class TextChecks:
    """The source strings of a database, and its texts' languages being judged meanwhile: :func:`start_text_checks`
    starts judging early, so it runs while the other checks go on."""

    def __init__(self, index: Index, judge: Judge | None = None) -> None:
        self.strings = source_index(index)
        self.language = LanguageChecks(index, self.strings, judge)


def start_text_checks(index: Index, judge: Judge | None = None) -> TextChecks:
    """Start the text checks; ``judge``, a child already loading the language detector, judges the texts."""
    return TextChecks(index, judge)


def check_text(index: Index, out: ProblemList, started: TextChecks | None = None) -> dict[str, dict[str, SourceString]]:
    """Check markup in source strings and every translation file; return the source index."""
    started = started or TextChecks(index)
    registered = index.ids_of("icon")
    strings, language = started.strings, started.language
    language.out = out
    game = index.game
    for record in index.records:
        for string in strings.get(record.id, {}).values():
            where = f"{record.pointer}{string.pointer}"
            report_invisible(string.text, out, record.file.display, where)
            if string.markup:
                _tokens_or_report(string.text, registered, out, record.file.display, where)
            if not is_name_field(string.field):
                language.check(string.text, game.source_locale, record.file.display, where)
    for loaded, doc in index.db.docs("translations"):
        stem = loaded.path.stem
        if stem != doc.locale:
            out.error(loaded.display, "/locale", "bad-value", f"file {loaded.path.name} must hold locale {stem!r}, found {doc.locale!r}")
        if doc.game != game.id:
            out.error(loaded.display, "/game", "wrong-game", f"translations are for game {doc.game!r}, not {game.id!r}")
            continue
        if doc.locale not in game.locales:
            out.warning(loaded.display, "/locale", "unknown-locale",
                        f"locale {doc.locale!r} is not among the game's locales ({', '.join(game.locales)})")
        for record_id, fields in doc.entries.items():
            record_pointer = f"/entries/{pointer_escape(record_id)}"
            if record_id not in strings:
                out.error(loaded.display, record_pointer, "dangling-ref", f"no record has id {record_id!r}")
                continue
            for field, translated in fields.items():
                here = f"{record_pointer}/{pointer_escape(field)}"
                source = strings[record_id].get(field)
                if source is None:
                    out.error(loaded.display, here, "dangling-ref", f"{record_id!r} has no translatable field {field!r}")
                    continue
                report_invisible(translated.text, out, loaded.display, f"{here}/text")
                if not translated.text.strip():
                    out.error(loaded.display, f"{here}/text", "empty-translation",
                              "the translation is empty; remove the entry to mark it missing")
                    continue
                if translated.source_hash != source_hash(source.text):
                    out.warning(loaded.display, f"{here}/source_hash", "stale-translation",
                                f"the source text of {record_id}/{field} changed since this was translated")
                for code, message in translation_warnings(source.text, translated.text, doc.locale, field):
                    out.warning(loaded.display, f"{here}/text", code, message)
                if not is_name_field(field):
                    language.check(translated.text, doc.locale, loaded.display, f"{here}/text")
                if not source.markup:
                    continue
                found = _tokens_or_report(translated.text, registered, out, loaded.display, f"{here}/text")
                if found is None:
                    continue
                expected = tokens(source.text) if _is_valid(source.text) else None
                if expected is not None and sorted(found) != sorted(expected):
                    out.error(loaded.display, f"{here}/text", "token-mismatch",
                              f"tokens {_show(found)} differ from the source's {_show(expected)}")
    language.finish()
    return strings


def _is_valid(text: str) -> bool:
    try:
        tokens(text)
    except MarkupError:
        return False
    return True


def _show(names: list[str]) -> str:
    return " ".join(f"{{{n}}}" for n in sorted(names)) or "(none)"
