"""Options in titled sections: a command with many options (``build``) lists them by what they decide.

``options(...)`` applies a group of click options in order; ``SectionedCommand`` prints each group under its
title in ``--help`` (mkdocs-click's generated reference lists the same options).
"""

from __future__ import annotations

from typing import Any, Callable

import click


def options(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """One decorator applying ``decorators`` so that the options appear in the order written."""
    def apply(command: Any) -> Any:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command
    return apply


class SectionedCommand(click.Command):
    """A command whose help lists its options under titles: ``sections`` maps a title to parameter names;
    options in no section follow under "Other options"."""

    def __init__(self, *args: Any, sections: dict[str, tuple[str, ...]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sections = sections
        named = {p.name for p in self.params}
        unknown = [n for names in sections.values() for n in names if n not in named]
        if unknown:  # a section naming an option the command lacks is a bug in the command's definition
            raise ValueError(f"sections of {self.name!r} name unknown options: {', '.join(unknown)}")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        records = {p.name: p.get_help_record(ctx) for p in self.get_params(ctx)}
        placed = {n for names in self.sections.values() for n in names}
        groups = [*self.sections.items(), ("Other options", tuple(n for n in records if n not in placed))]
        for title, names in groups:
            rows = [records[n] for n in names if records.get(n)]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
