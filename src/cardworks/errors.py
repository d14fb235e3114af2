"""Exceptions raised by cardworks.

    CardworksError(Exception)
     ├── UsageError(ValueError)       wrong use of a command (exit 2)
     └── DataError(ValueError)        the input is wrong (exit 1); carries problems

A user never sees a traceback for either: the command line prints the message
(and every problem) and exits with the code above.
"""

from __future__ import annotations

from .problems import Problem


class CardworksError(Exception):
    """Base of every error cardworks raises on purpose."""


class UsageError(CardworksError, ValueError):
    """A command was called wrongly: a missing folder, an unknown game or locale."""


class DataError(CardworksError, ValueError):
    """The input data is wrong; ``problems`` says where and why."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []

    def __reduce__(self):  # keep the problems when raised in a worker process
        return (type(self), (str(self), self.problems))
