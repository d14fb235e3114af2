"""Faces are rendered in a child process, under a time limit, so one face cannot stop the server.

A face whose layout never ends (an SVG bomb that validation let through, a runaway template) would hold
the rendering thread and its lock for ever; every page waiting on a new face would hang with it. Here each
batch runs in one long-lived child process; when a batch takes longer than the limit the child is killed
(and started again for the next batch) and the batch fails with :class:`RenderTimeout`, which the preview
shows next to the card like any other rendering error.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from typing import Any

from ..errors import CardworksError
from . import adapter

RENDER_TIMEOUT_S = 60.0
"""Longest one batch of faces (at most 16) may take; real faces take well under a second each."""


STARTUP_S = 300.0
"""Longest the rendering process may take to start (importing the renderer), not counted in a batch's time."""


class RenderTimeout(CardworksError, RuntimeError):
    """A batch of faces did not finish within the time limit; its process was killed."""


def _pause_for_tests(ids: list[str]) -> None:
    """Fault hook for the hostile tests: ``CARDWORKS_PAUSE_AT=serve-render:<card id>`` makes rendering that
    face never finish, as a face whose layout never ends would."""
    wanted = os.environ.get("CARDWORKS_PAUSE_AT", "")
    if wanted.startswith("serve-render:") and wanted.split(":", 1)[1] in ids:
        while True:
            time.sleep(60)


def _serve(connection: Any) -> None:
    """The child's loop: render each batch it is sent and send back the images, or the error's text."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the server stops the child
    connection.send(("ready", None))  # the renderer is imported: from here on a batch's time is its own
    while True:
        try:
            faces, ids = connection.recv()
        except EOFError:  # the server went away
            return
        try:
            _pause_for_tests(ids)
            connection.send(("ok", adapter.render_face_images(faces, ids)))
        except Exception as exc:  # sent back and shown next to the face
            connection.send(("error", f"{type(exc).__name__}: {exc}"))


class RenderWorker:
    """One child process that renders faces; :meth:`render` waits at most ``timeout`` seconds per batch."""

    def __init__(self, timeout: float = RENDER_TIMEOUT_S, start: bool = False) -> None:
        self.timeout = timeout
        self._lock = threading.Lock()
        self._process: Any = None
        self._connection: Any = None
        self._ready = False
        self._stopped = False
        """Set by :meth:`stop` (the server stopping): no process is started any more."""
        if start:  # start now, so the child imports the renderer while the parent reads the data
            self._spawn()

    def warm(self) -> None:
        """Start the child now if it is not running, so it imports the renderer while other work goes on."""
        with self._lock:
            if not self._stopped and (self._process is None or not self._process.is_alive()):
                self._spawn()

    def _spawn(self) -> None:
        # spawn, not fork: the server has threads, and a forked child could inherit a lock another one held
        if self._stopped:
            raise RuntimeError("the server is stopping")
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), daemon=True, name="cardworks-render")
        # Ctrl-C reaches the whole process group, the child too, while it is still importing the renderer: started
        # with SIGINT ignored, it never raises there (Python keeps an ignored SIGINT ignored); the server stops it.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            process.start()
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        theirs.close()
        # kept only once started: close() from another thread never meets a process that is not running yet
        self._process, self._connection, self._ready = process, mine, False

    def _wait_ready(self) -> None:
        try:
            started = self._connection.poll(STARTUP_S) and self._connection.recv()[0] == "ready"
        except (EOFError, OSError):  # it died while starting
            started = False
        if not started:
            self.close()
            raise RuntimeError(f"the rendering process did not start (within {STARTUP_S:g} s)")
        self._ready = True

    def render(self, faces: adapter.FaceSet, ids: list[str]) -> dict[str, adapter.FaceImage]:
        """The images of ``ids``; raises :class:`RenderTimeout` after ``timeout`` s, RuntimeError on a render error."""
        with self._lock:
            if self._process is None or not self._process.is_alive():
                self._spawn()
            if not self._ready:
                self._wait_ready()
            connection = self._connection  # close() (the server stopping) may drop it from another thread
            try:
                connection.send((faces, ids))
                if not connection.poll(self.timeout):
                    self.close()
                    raise RenderTimeout(f"rendering took longer than {self.timeout:g} s; it was stopped")
                kind, value = connection.recv()
            except (EOFError, OSError):  # the child died (killed, out of memory), or the server closed it
                self.close()
                raise RuntimeError("the rendering process ended without an answer") from None
        if kind == "error":
            raise RuntimeError(value)
        return value

    def stop(self) -> None:
        """Stop the child for good (the server stopping): a batch still asked for fails instead of starting one."""
        self._stopped = True
        self.close()

    def close(self) -> None:
        """Stop the child process (killed: it may be stuck in a layout that never ends)."""
        process, connection = self._process, self._connection
        self._process = self._connection = None
        self._ready = False
        if process is not None:
            process.kill()
            process.join(5)
        if connection is not None:
            connection.close()
