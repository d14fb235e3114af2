"""The progress bar shows games done, games/s and the time left on a terminal, and nothing elsewhere."""

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


def test_progress_is_silent_when_not_a_terminal() -> None:
    quiet = io.StringIO()
    with SimulationProgress(quiet) as start:
        start("x", 3)(3)
    assert quiet.getvalue() == ""
