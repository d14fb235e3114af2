"""Wrong-language warnings, judged apart from the other checks.

Judging the language of every text (the screen of :mod:`..i18n.screen`, then the detector) is most of a cold
validation's work. It runs in a forked child process while the parent goes on with every other check: in a
thread, the screen's Python would hold the interpreter's lock the other checks need. A process that cannot fork
safely (another thread is running, whose locks and work the child would not have, or the system has no
``fork``) judges in a worker thread instead. Either way the verdicts, and so the warnings, are the same.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import Future, ThreadPoolExecutor

from ..i18n.qa import VERDICTS, is_name_field, language_request, proper_names, wrong_language_message
from ..i18n.strings import SourceString
from ..loading.records import Index
from ..problems import Problem, ProblemList

Request = tuple[str, tuple[str, ...]]
Strings = dict[str, dict[str, SourceString]]
Judged = tuple[dict, dict[int, tuple[str, float]]]
"""The verdict-cache entries made new, and the verdict on each request that has one, by its position."""
MAX_CHILDREN = 4


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


def judge(index: Index, strings: Strings, requests: list[Request]) -> Judged:
    """The detector's verdicts on ``requests`` (see :data:`Judged`)."""
    verdicts = VERDICTS.prefetch(requests, proper_names(index.db, strings))
    found = {}
    for position, request in enumerate(requests):
        verdict = verdicts[request]
        if verdict:
            found[position] = verdict
    return VERDICTS.take_fresh(), found


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


class _Forked:
    """:func:`judge` in forked children, a share of the requests each: a child has the parent's data without
    copying it, and sends its answer back through a pipe."""

    def __init__(self, index: Index, strings: Strings, requests: list[Request]) -> None:
        context = multiprocessing.get_context("fork")
        count = max(1, min(MAX_CHILDREN, len(os.sched_getaffinity(0)), len(requests)))
        self.shares = [(index, strings, requests[start::count]) for start in range(count)]
        self.children = []
        for share in self.shares:
            receive, send = context.Pipe(duplex=False)
            child = context.Process(target=_answer, args=(send, share), daemon=True, name="cardworks-languages")
            child.start()
            send.close()
            self.children.append((receive, child))

    def result(self) -> Judged:
        fresh, found = {}, {}
        count = len(self.shares)
        for start, (share, (receive, child)) in enumerate(zip(self.shares, self.children)):
            try:
                ok, value = receive.recv()
            except EOFError:  # the child died without answering (killed, out of memory): judge here instead
                ok, value = True, judge(*share)
            finally:
                receive.close()
                child.join()
            if not ok:
                raise value
            fresh.update(value[0])
            found.update((start + position * count, verdict) for position, verdict in value[1].items())
        return fresh, found


def _answer(send, share: tuple) -> None:
    try:
        send.send((True, judge(*share)))
    except Exception as exc:  # noqa: BLE001 - it is raised again in the parent
        try:
            send.send((False, exc))
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled
            send.send((False, RuntimeError(f"judging languages failed: {exc!r}")))


class LanguageChecks:
    """Wrong-language warnings, kept in the order the checks ask for them while the texts are judged apart."""

    def __init__(self, index: Index, strings: Strings) -> None:
        self.out = ProblemList()
        self.candidates = tuple(index.game.locales)
        self.asked: list[tuple[int, str, str, str, str]] = []
        self.requests = language_requests(index, strings)
        if may_fork():
            VERDICTS.load()  # once, here: the children have it then
            self.pending: _Forked | Future = _Forked(index, strings, self.requests)
        else:
            pool = ThreadPoolExecutor(max_workers=1)
            self.pending = pool.submit(judge, index, strings, self.requests)
            pool.shutdown(wait=False)

    def check(self, text: str, locale: str, file: str, pointer: str) -> None:
        """Ask about ``text`` here; the warning, if any, is put in this place when :meth:`finish` runs."""
        self.asked.append((len(self.out.items), text, locale, file, pointer))

    def finish(self) -> None:
        fresh, found = self.pending.result()  # re-raises what failed while judging
        VERDICTS.absorb(fresh)
        VERDICTS.flush()
        verdicts = {self.requests[position]: verdict for position, verdict in found.items()}
        items, merged, done = self.out.items, [], 0
        for position, text, locale, file, pointer in self.asked:
            wrong = wrong_language_message(verdicts.get(language_request(text, locale, self.candidates)), locale)
            if wrong:
                merged += items[done:position]
                merged.append(Problem(file, pointer, "wrong-language", wrong, "warning"))
                done = position
        self.out.items[:] = merged + items[done:]
