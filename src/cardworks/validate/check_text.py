"""Text checks: markup syntax, registered tokens, and translations against their sources."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from ..i18n.qa import (VERDICTS, is_name_field, language_request, proper_names, translation_warnings,
                       wrong_language_message)
from ..i18n.strings import SourceString, source_hash, source_index
from ..loading.jsonfile import pointer_escape
from ..markup import MarkupError, tokens
from ..problems import Problem, ProblemList
from ..loading.records import Index


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
    """The source strings and proper names of a database, and its texts' languages being judged meanwhile:
    :func:`start_text_checks` starts the detector early, so it runs while the other checks go on."""

    def __init__(self, index: Index) -> None:
        self.strings = source_index(index)
        game = index.game
        self.language = _LanguageChecks(tuple(game.locales), proper_names(index.db, self.strings))
        self.language.start(_language_requests(index, self.strings, game.source_locale, tuple(game.locales)))


def start_text_checks(index: Index) -> TextChecks:
    return TextChecks(index)


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


def _language_requests(index: Index, strings: dict[str, dict[str, SourceString]], source_locale: str,
                       candidates: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    """Every text whose language :func:`check_text` will check (a few more, for entries it will refuse)."""
    requests = [language_request(s.text, source_locale, candidates)
                for fields in strings.values() for s in fields.values() if not is_name_field(s.field)]
    for _, doc in index.db.docs("translations"):
        requests += [language_request(t.text, doc.locale, candidates)
                     for fields in doc.entries.values() for f, t in fields.items() if not is_name_field(f)]
    return requests


class _LanguageChecks:
    """Wrong-language warnings, in the order the checks ask for them, while the texts are judged in a worker
    thread: the detector works outside Python's lock, so it runs while the other checks go on."""

    def __init__(self, candidates: tuple[str, ...], names: tuple[str, ...]) -> None:
        self.out = ProblemList()
        self.candidates, self.names = candidates, names
        self.asked: list[tuple[int, str, str, str, str]] = []
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.judged = None

    def start(self, requests: list[tuple[str, tuple[str, ...]]]) -> None:
        self.judged = self.pool.submit(VERDICTS.prefetch, requests, self.names)

    def check(self, text: str, locale: str, file: str, pointer: str) -> None:
        """Ask about ``text`` here; the warning, if any, is put in this place when :meth:`finish` runs."""
        self.asked.append((len(self.out.items), text, locale, file, pointer))

    def finish(self) -> None:
        try:
            verdicts = self.judged.result()  # re-raises what failed in the worker
        finally:
            self.pool.shutdown()
        items, merged, done = self.out.items, [], 0
        for position, text, locale, file, pointer in self.asked:
            request = language_request(text, locale, self.candidates)
            found = verdicts[request] if request in verdicts else VERDICTS.get(*request, self.names)
            wrong = wrong_language_message(found, locale)
            if wrong:
                merged += items[done:position]
                merged.append(Problem(file, pointer, "wrong-language", wrong, "warning"))
                done = position
        self.out.items[:] = merged + items[done:]
        VERDICTS.flush()


def _is_valid(text: str) -> bool:
    try:
        tokens(text)
    except MarkupError:
        return False
    return True


def _show(names: list[str]) -> str:
    return " ".join(f"{{{n}}}" for n in sorted(names)) or "(none)"
