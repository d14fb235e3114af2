"""Exceptions raised by cardworks.

    CardworksError(Exception)
     ├── UsageError(ValueError)       wrong use of a command (exit 2)
     ├── DataError(ValueError)        the input is wrong (exit 1); carries problems
     ├── DeveloperError               a mistake in code: a game plugin, a verb's binding (exit 70); has a code
     └── the errors of one module, each also a subclass of the built-in error it has always been:
         UnsafeFile (fileio), PathEscape (loading.paths), MarkupError (markup), LayoutError (models.sheets),
         StateLoadError (engine.codec), ScriptError (engine.scripted), IllegalActionError and SetupRefused
         (engine.core), TemplateEscape (render.jinja), TemplateBudgetError (render.sandbox), RenderTimeout
         (serve.worker), SkeletonError (render.dxfreference, a DeveloperError); most are turned into a DataError with the file and place before a user sees them.

A user never sees a traceback for any of them: the command line prints one line
(and every problem) and exits with the code above; an error of the last group that
reaches it unconverted is printed as one line with its class as the code (exit 70),
since reaching the command line unconverted is itself a defect.
"""

from __future__ import annotations

from .problems import Problem


class CardworksError(Exception):
    """Base of every error cardworks raises on purpose."""


class UsageError(CardworksError, ValueError):
    """A command was called wrongly: a missing folder, an unknown game or locale."""


class DeveloperError(CardworksError):
    """A mistake in code, not in the user's data (a game plugin that breaks its contract, a verb model bound to
    no handler): the command line prints it as one line with ``code`` and exits 70 (EX_SOFTWARE)."""

    code = "developer-error"


class DataError(CardworksError, ValueError):
    """The input data is wrong; ``problems`` says where and why."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []

    def __reduce__(self):  # keep the problems when raised in a worker process
        return (type(self), (str(self), self.problems))
