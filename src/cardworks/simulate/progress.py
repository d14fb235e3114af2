"""Progress of simulations on stderr: a bar on a terminal (games done, games/s, the time left); elsewhere (a
pipe, a log file, CI) one plain line per finished chunk of games, with the speed so far, so a long run
shows it is alive without control characters in the log.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable


class GamesPerSecond:
    """A rich column: the task's speed in games per second."""

    def __new__(cls) -> Any:
        from rich.progress import ProgressColumn
        from rich.text import Text

        class _Column(ProgressColumn):
            def render(self, task: Any) -> Text:
                speed = task.finished_speed or task.speed
                return Text(f"{speed:,.1f} games/s" if speed else "- games/s")

        return _Column()


class SimulationProgress:
    """``with SimulationProgress() as start: tell = start(label, games); tell(done_now)``."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.bar = None

    def __enter__(self) -> Callable[[str, int], Callable[[int], None]]:
        if self.stream.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), GamesPerSecond(),
                                TextColumn("ETA"), TimeRemainingColumn(), console=Console(file=self.stream), transient=False)
            self.bar.start()
        return self.start

    def start(self, label: str, total: int) -> Callable[[int], None]:
        if self.bar is None:
            return self._lines(label, total)
        task = self.bar.add_task(label, total=total)
        return lambda done: self.bar.advance(task, done)

    def _lines(self, label: str, total: int) -> Callable[[int], None]:
        began, done = time.monotonic(), 0

        def tell(more: int) -> None:
            nonlocal done
            done += more
            elapsed = time.monotonic() - began
            speed = f"{done / elapsed:,.1f} games/s" if elapsed > 0 else "- games/s"
            print(f"{label}: {done}/{total} games, {speed}", file=self.stream, flush=True)

        return tell

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            self.bar.stop()
