"""Rulebook paragraphs as translatable strings.

A rulebook section is a Markdown file per locale; its blocks (paragraphs,
headings, list items, separated by blank lines) are translated one by one,
addressed by section and block number. ``::: generated`` lines are not text
and stay where they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..fileio import read_text_limited

DIRECTIVE = re.compile(r"^::: generated [a-z-]+(?: [a-z0-9+-]+)?\s*$")


@dataclass(frozen=True)
class Block:
    section: str
    number: int
    text: str


def split_blocks(markdown: str) -> list[str]:
    """The blocks of a Markdown text, in order (blank lines separate them)."""
    return [block.strip("\n") for block in re.split(r"\n\s*\n", markdown.strip("\n")) if block.strip()]


def is_text(block: str) -> bool:
    return not DIRECTIVE.match(block.strip())


def source_blocks(rules_root: Path, source_locale: str) -> list[Block]:
    """Every translatable block of the source rulebook."""
    found = []
    for path in sorted((rules_root / source_locale).glob("*.md")):
        for number, block in enumerate(split_blocks(read_text_limited(path))):
            if is_text(block):
                found.append(Block(path.stem, number, block))
    return found


def translated_blocks(rules_root: Path, locale: str, section: str, source_count: int) -> list[str] | None:
    """The blocks of a section in ``locale``, or None when missing or shaped unlike the source."""
    path = rules_root / locale / f"{section}.md"
    if not path.is_file():
        return None
    blocks = split_blocks(read_text_limited(path))
    return blocks if len(blocks) == source_count else None


def section_with_blocks(rules_root: Path, source_locale: str, locale: str, section: str,
                        updates: dict[int, str]) -> tuple[Path, str]:
    """The text of ``rules/<locale>/<section>.md`` with ``updates`` applied; untouched blocks keep their text.

    A section not translated before starts from the source, so the layout
    (and every ``::: generated`` line) follows it. Raises ValueError when the
    locale's file no longer has the source's shape.
    """
    source = split_blocks(read_text_limited(rules_root / source_locale / f"{section}.md"))
    current = translated_blocks(rules_root, locale, section, len(source))
    target = rules_root / locale / f"{section}.md"
    if current is None and target.exists():
        raise ValueError(f"{target} has a different number of blocks than its source; align it by hand first")
    blocks = list(current or source)
    for number, text in updates.items():
        blocks[number] = text
    return target, "\n\n".join(blocks) + "\n"
