"""Rulebook Markdown to HTML: CommonMark without raw HTML, heading ids, icon tokens, generated sections."""

from __future__ import annotations

import re
from collections.abc import Callable

from markupsafe import Markup, escape

from ...ids import slugify

DIRECTIVE = re.compile(r"^::: generated ([a-z-]+(?: [a-z0-9+-]+)?)\s*$", re.MULTILINE)
TOKEN = re.compile(r"\{([a-z0-9]+(?:-[a-z0-9]+)*)\}")


ASIDES = ("example", "note")
"""Boxes a section may hold: ``::: example`` (a worked example) and ``::: note`` (a designer's note), each
closed by ``:::``, rendered as ``<div class="example">`` / ``<div class="note">`` (styled in ``docs.css``)."""


def _parser():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.container import container_plugin

    parser = MarkdownIt("commonmark", {"html": False, "typographer": False})
    for name in ASIDES:
        parser.use(container_plugin, name)
    return parser


def render_markdown(source: str, prefix: str, icons: dict[str, tuple[str, str]],
                    generate: Callable[[str], Markup],
                    images: list[tuple[str, int]] | None = None) -> tuple[Markup, list[tuple[int, str, str]]]:
    """HTML of one section and its headings as (level, id, text).

    ``::: generated NAME`` lines (or ``NAME ARGUMENT``) are replaced by ``generate("NAME[ ARGUMENT]")``; ``{token}``
    becomes the icon's image; heading ids are ``prefix`` plus the heading slug.
    ``images``, when given, receives each image's ``src`` with the line (from 1) that writes it, so a
    refused fetch can name the line that asked for it.
    """
    parser = _parser()

    def icon(match: re.Match) -> str:
        name = match.group(1)
        if name not in icons:
            return match.group(0)
        url, alt = icons[name]
        return f'<img class="icon" src="{escape(url)}" alt="{escape(alt)}">'

    # Tokens become icons in text only: a {token} in a link title or an image's alt text stays as written.
    parser.add_render_rule("text", lambda self, tokens, idx, options, env: TOKEN.sub(icon, str(escape(tokens[idx].content))))
    html: list[str] = []
    headings: list[tuple[int, str, str]] = []
    position = 0
    pieces = []  # (kind, content, lines before it)
    for match in DIRECTIVE.finditer(source):
        pieces.append(("md", source[position : match.start()], source.count("\n", 0, position)))
        pieces.append(("generated", match.group(1), 0))
        position = match.end()
    pieces.append(("md", source[position:], source.count("\n", 0, position)))
    for kind, content, before in pieces:
        if kind == "generated":
            html.append(TOKEN.sub(icon, str(generate(content))))
            continue
        tokens = parser.parse(content)
        if images is not None:
            images += _image_lines(tokens, before)
        for i, token in enumerate(tokens):
            if token.type == "heading_open":
                text = tokens[i + 1].content
                anchor = f"{prefix}-{slugify(text)}" if token.tag != "h1" else prefix
                token.attrSet("id", anchor)
                headings.append((int(token.tag[1]), anchor, text))
        html.append(parser.renderer.render(tokens, parser.options, {}))
    return Markup("".join(html)), headings


def _image_lines(tokens: list, before: int) -> list[tuple[str, int]]:
    """Each image of a parsed piece with its line in the section (``before``: lines above the piece)."""
    found = []
    for token in tokens:
        if token.type != "inline" or not token.children or token.map is None:
            continue
        start = 0
        for child in token.children:
            if child.type != "image":
                continue
            at = token.content.find("![", start)  # the n-th image starts at the n-th "![" of its block
            start = at + 2 if at >= 0 else start
            found.append((str(child.attrs.get("src", "")), before + token.map[0] + 1 + token.content.count("\n", 0, max(at, 0))))
    return found
