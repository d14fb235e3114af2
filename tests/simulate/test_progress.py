"""The progress bar shows games done, games/s and the time left on a terminal; a pipe gets a line per chunk."""

from __future__ import annotations

import io
import time

from cardworks.simulate.progress import SimulationProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_shows_speed_and_eta() -> None:
    screen = Terminal()
    with SimulationProgress(screen) as start:
        tell = start("fallera base, 4 players", 10)
        for _ in range(5):
            time.sleep(0.02)
            tell(2)
    shown = screen.getvalue()
    assert "10/10" in shown and "games/s" in shown and "ETA" in shown and "- games/s" not in shown.split("10/10")[-1]


def test_progress_on_a_pipe_prints_one_line_per_finished_chunk_with_its_speed() -> None:
    pipe = io.StringIO()
    with SimulationProgress(pipe) as start:
        tell = start("fallera base, 4 players", 5)
        time.sleep(0.01)
        tell(3)
        tell(2)
    lines = pipe.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].startswith("fallera base, 4 players: 3/5 games, ")
    assert lines[1].startswith("fallera base, 4 players: 5/5 games, ") and all(line.endswith(" games/s") for line in lines)
    assert "\x1b" not in pipe.getvalue()  # no control characters in a log
