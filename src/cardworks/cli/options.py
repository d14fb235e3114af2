"""Option types shared by the commands: every number an option takes is bounded where it is parsed."""

from __future__ import annotations

from typing import Any

import click

SEED_MAX = 2**63 - 1
"""The largest seed (and ``simulate --first``): a seed is a number of at most 19 digits."""


class Bounded(click.IntRange):
    """An integer between two bounds, whose refusal names the option and the bounds in one short line, also for
    a value of thousands of digits (which Python itself refuses to read, and click would print whole)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        digits = len(str(max(abs(self.min or 0), abs(self.max or 0))))
        if isinstance(value, str) and len(value.strip().lstrip("+-").lstrip("0")) > digits:  # before int()
            shown = value if len(value) <= 20 else value[:20] + "…"
            self.fail(f"{shown} is not between {self.min} and {self.max}", param, ctx)
        return super().convert(value, param, ctx)


SEED = Bounded(0, SEED_MAX)
"""A seed: 0 to 2**63 - 1."""
