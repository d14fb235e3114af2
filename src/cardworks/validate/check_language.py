"""Wrong-language warnings, judged apart from the other checks.

Judging the language of every text (the screen of :mod:`..i18n.screen`, then the detector, whose models take a
second or more to load) is most of a cold validation's work. It runs in a forked child process: started before
the database is read, the child loads the detector's models while the parent reads; it is then sent the texts
and judges them while the parent runs every other check. (In a thread, the screen's Python would hold the
interpreter's lock the other checks need.) A small database (:data:`FORK_MIN_BYTES`), or a process that cannot
fork safely (another thread is running, whose locks and work the child would not have, or the system has no
``fork``), is judged in a worker thread instead. Either way the verdicts, and so the warnings, are the same.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path

from ..i18n.qa import (VERDICTS, ProperNames, is_name_field, language_request, name_index, name_texts,
                       warm_detector, wrong_language_message)
from ..i18n.strings import SourceString
from ..loading.database import unsafe_entry
from ..loading.jsonfile import read_json
from ..loading.records import Index
from ..problems import Problem, ProblemList

Request = tuple[str, tuple[str, ...]]
Strings = dict[str, dict[str, SourceString]]
Judged = tuple[dict, dict[int, tuple[str, float]]]
"""The verdict-cache entries made new, and the verdict on each request that has one, by its position."""

FORK_MIN_BYTES = 4_000_000
"""Data (bytes of JSON in a game and its packs, about 2,000 designs in four languages) from which the texts are
judged by a forked :class:`Judge`. Below it the other checks end before the child has loaded the detector's
models (which a cache that knows every verdict does not need at all), so a worker thread judges, at no cost
when every verdict is cached."""
SHARE_MIN = 2000
"""Fewest texts worth sharing with a second process (:func:`_judge_shared`)."""


def language_requests(index: Index, strings: Strings) -> list[Request]:
    """Every text whose language :func:`.check_text.check_text` asks about (and a few more: entries it refuses)."""
    game = index.game
    candidates = tuple(game.locales)
    requests = [language_request(s.text, game.source_locale, candidates)
                for fields in strings.values() for s in fields.values() if not is_name_field(s.field)]
    for _, doc in index.db.docs("translations"):
        requests += [language_request(t.text, doc.locale, candidates)
                     for fields in doc.entries.values() for f, t in fields.items() if not is_name_field(f)]
    return requests


def judge(requests: list[Request], names: set[str] | ProperNames, keep: bool = True) -> Judged:
    """The detector's verdicts on ``requests`` (see :data:`Judged`), saved in the verdict cache; the new cache
    entries are returned only when ``keep`` (the asking process holds the cache too)."""
    fresh, found = _judge_share(requests, names)
    VERDICTS.flush()
    return (fresh if keep else {}), found


def _judge_share(requests: list[Request], names: set[str] | ProperNames) -> Judged:
    """:data:`Judged` for ``requests``, its new cache entries left for the caller to save."""
    verdicts = VERDICTS.prefetch(requests, names if isinstance(names, ProperNames) else name_index(names))
    found = {}
    for position, request in enumerate(requests):
        verdict = verdicts[request]
        if verdict:
            found[position] = verdict
    return dict(VERDICTS.fresh), found


def _judge_shared(requests: list[Request], names: ProperNames, keep: bool) -> Judged:
    """:func:`judge`, every second text judged by a forked sibling (the detector's models already loaded, so
    it has them too) while this process judges the others: the screen is Python, one core each."""
    if len(requests) < SHARE_MIN or not may_fork():
        return judge(requests, names, keep)
    sibling = ForkedCall(_judge_share, requests[1::2], names)
    fresh, mine = _judge_share(requests[0::2], names)
    theirs_fresh, theirs = sibling.result()
    VERDICTS.absorb(theirs_fresh, unsaved=True)
    VERDICTS.flush()
    found = {2 * position: verdict for position, verdict in mine.items()}
    found.update((2 * position + 1, verdict) for position, verdict in theirs.items())
    return ({**fresh, **theirs_fresh} if keep else {}), found


def may_fork() -> bool:
    """True where a child can be forked safely: on Linux, by a process with no other thread, its own or a
    library's (a fork copies only the calling thread: the detector's thread pool, once started, would be missing
    in the child, which would wait for it forever)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


class ForkedCall:
    """``function(*args)`` in a forked child, which has this process's data without copying it; its value (or
    exception) comes back through a pipe. If the child dies without answering, the call is made here."""

    def __init__(self, function, *args) -> None:
        self.function, self.args = function, args
        context = multiprocessing.get_context("fork")
        self.answer, send = context.Pipe(duplex=False)
        self.child = context.Process(target=_call, args=(send, function, args), daemon=True,
                                     name="cardworks-languages")
        self.child.start()
        send.close()

    def result(self):
        try:
            return _receive(self.answer, lambda: self.function(*self.args))
        finally:
            self.answer.close()
            self.child.join()


def _receive(pipe, fallback):
    """The answer a child sends on ``pipe`` (:func:`_call`; its exception is raised here), or ``fallback()``
    when the child died without answering (killed, out of memory)."""
    try:
        ok, value = pipe.recv()
    except (EOFError, OSError):
        ok, value = True, fallback()
    if not ok:
        raise value
    return value


def _call(send, function, args: tuple) -> None:
    try:
        answer = (True, function(*args))
    except Exception as exc:  # noqa: BLE001 - it is raised again in the parent
        answer = (False, exc)
    try:
        send.send(answer)
    except Exception as exc:  # noqa: BLE001 - an exception that cannot be pickled
        send.send((False, RuntimeError(f"judging languages failed: {exc!r}")))


class Judge:
    """A forked child that judges languages: it loads the detector's models for ``locales`` at once, then waits
    for the texts (:meth:`ask`) and sends back :data:`Judged`."""

    def __init__(self, locales: tuple[str, ...]) -> None:
        context = multiprocessing.get_context("fork")
        self.pipe, theirs = context.Pipe()
        # Not a daemon: it may fork a sibling of its own (_judge_shared); close() always ends it.
        self.child = context.Process(target=_serve, args=(theirs, locales), name="cardworks-languages")
        self.child.start()
        theirs.close()
        self.asked: tuple[list[Request], set[str]] | None = None
        self.sender: threading.Thread | None = None
        self.answered = False

    def ask(self, requests: list[Request], names: set[str]) -> None:
        """Send the texts; a thread writes them, so this process goes on while the child is still loading."""
        self.asked = (requests, names)
        self.sender = threading.Thread(target=self._send, daemon=True, name="cardworks-languages-send")
        self.sender.start()

    def _send(self) -> None:
        try:
            self.pipe.send((*self.asked, VERDICTS.table is not None))
        except OSError:  # the child is gone: result() judges here
            pass

    def result(self) -> Judged:
        try:
            return _receive(self.pipe, lambda: judge(*self.asked))
        finally:
            self.answered = True
            self.close()

    def close(self) -> None:
        """End the child (it has answered, or is no longer needed: validation stopped short) and wait for it."""
        if not self.answered:
            self.child.terminate()
        if self.sender is not None:
            self.sender.join()
        self.pipe.close()
        self.child.join()


def _serve(pipe, locales: tuple[str, ...]) -> None:
    try:
        warm_detector(locales, stop=pipe.poll)  # until the texts come
        requests, names, keep = pipe.recv()
    except Exception:  # noqa: BLE001 - nothing to judge after all, or no detector: the parent judges for itself
        return
    _call(pipe, _judge_shared, (requests, name_index(names), keep))


@contextmanager
def judge_for(game_folder: Path, pack_folders: list[Path]) -> Iterator[Judge | None]:
    """A :class:`Judge` for the game in ``game_folder`` (its models loading while the database is read), or None
    for a small database or where this process may not fork; ended on leaving."""
    if not may_fork() or _json_bytes([game_folder, *pack_folders]) < FORK_MIN_BYTES:
        yield None
        return
    found = Judge(_locales(game_folder))
    try:
        yield found
    finally:
        found.close()


def _json_bytes(folders: list[Path]) -> int:
    """Bytes of the ``.json`` files under ``folders`` (links not followed), stopping at :data:`FORK_MIN_BYTES`."""
    total = 0
    for folder in folders:
        for parent, _, files in os.walk(folder):
            for name in files:
                if name.endswith(".json"):
                    try:
                        total += os.lstat(os.path.join(parent, name)).st_size
                    except OSError:
                        continue
                    if total >= FORK_MIN_BYTES:
                        return total
    return total


def _locales(game_folder: Path) -> tuple[str, ...]:
    """The locales ``game.json`` names, read ahead of the loader (nothing when it cannot say)."""
    path = game_folder / "game.json"
    if unsafe_entry(game_folder, path) is not None:
        return ()
    data, _ = read_json(path, str(path))
    locales = data.get("locales") if isinstance(data, dict) else None
    return tuple(x for x in locales if isinstance(x, str)) if isinstance(locales, list) else ()


def in_background(function, *args) -> Future:
    """``function(*args)`` on a daemon thread. A thread pool's workers are joined when the interpreter exits, so a
    command stopped with Ctrl-C went on waiting, for up to half a minute on a loaded machine, while the detector
    loaded its models for texts no one would see judged; a daemon thread ends with the command."""
    future: Future = Future()

    def run() -> None:
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(function(*args))
            except BaseException as exc:  # noqa: BLE001 - raised again by result() in the asking thread
                future.set_exception(exc)

    threading.Thread(target=run, daemon=True, name="cardworks-languages-judge").start()
    return future


class LanguageChecks:
    """Wrong-language warnings, kept in the order the checks ask for them while the texts are judged apart."""

    def __init__(self, index: Index, strings: Strings, child: Judge | None = None) -> None:
        self.out = ProblemList()
        self.candidates = tuple(index.game.locales)
        self.asked: list[tuple[int, str, str, str, str]] = []
        self.requests = language_requests(index, strings)
        names = name_texts(index.db, strings)
        if child is not None:
            child.ask(self.requests, names)
            self.pending: Judge | Future = child
        else:
            self.pending = in_background(judge, self.requests, names)

    def check(self, text: str, locale: str, file: str, pointer: str) -> None:
        """Ask about ``text`` here; the warning, if any, is put in this place when :meth:`finish` runs."""
        self.asked.append((len(self.out.items), text, locale, file, pointer))

    def finish(self) -> None:
        fresh, found = self.pending.result()  # re-raises what failed while judging
        VERDICTS.absorb(fresh)
        verdicts = {self.requests[position]: verdict for position, verdict in found.items()}
        items, merged, done = self.out.items, [], 0
        for position, text, locale, file, pointer in self.asked:
            wrong = wrong_language_message(verdicts.get(language_request(text, locale, self.candidates)), locale)
            if wrong:
                merged += items[done:position]
                merged.append(Problem(file, pointer, "wrong-language", wrong, "warning"))
                done = position
        self.out.items[:] = merged + items[done:]
