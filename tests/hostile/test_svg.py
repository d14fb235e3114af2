"""Hostile images: SVGs that expand without end, a raster icon too large to draw; refused by ``validate``
(naming the icon file) and again by the renderer's fetcher, never hanging or silently dropped."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from corpus import cardworks, judge, mini  # noqa: F401  (fixtures)

FAMILY = "templates/svg"


def nested_use_svg(levels: int = 11, fan_out: int = 10) -> str:
    """The 2 KB "billion laughs" of SVG: each group draws the previous one ``fan_out`` times."""
    groups = ['<g id="g0"><circle r="1"/></g>']
    for level in range(1, levels):
        uses = "".join(f'<use href="#g{level - 1}"/>' for _ in range(fan_out))
        groups.append(f'<g id="g{level}">{uses}</g>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs>' + "".join(groups) +
            f'</defs><use href="#g{levels - 1}"/></svg>')


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` × ``height`` pixels (the size a renderer would allocate)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


CASES = {
    "nested <use> 11 levels of 10": ("icons/treasure.svg", nested_use_svg().encode(), "svg-too-complex"),
    "<use> referring to itself": ("icons/treasure.svg",
                                  b'<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#a"/></g></svg>',
                                  "svg-too-complex"),
    "SVG with an external entity": ("icons/treasure.svg",
                                    b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                                    b'<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>', "svg-entity"),
    "20000 x 20000 PNG icon": ("icons/treasure.svg", png_header(20000, 20000), "image-too-large"),
    "icon that is not an image": ("icons/treasure.svg", b"\x00\x01 not an image", "svg-syntax"),
    "truncated PNG icon": ("icons/treasure.svg", b"\x89PNG\r\n\x1a\n\x00", "image-unreadable"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_icon_is_refused_by_validate(mini, case: str) -> None:
    relative, data, code = CASES[case]
    (mini.root / relative).write_bytes(data)
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=20)
    judge(case, FAMILY, result, refuse=True, names="treasure.svg", code=code)


def test_fetcher_refuses_a_hostile_svg_swapped_in_after_validation(tmp_path: Path) -> None:
    from cardworks.render.fetcher import refusal_error, safe_fetcher

    icon = tmp_path / "bomb.svg"
    icon.write_text(nested_use_svg())
    fetcher = safe_fetcher([tmp_path])
    with pytest.raises(ValueError):
        fetcher.fetch(icon.as_uri())
    error = refusal_error(fetcher.refused, "mini en cards")
    assert [(p.file, p.code) for p in error.problems] == [(str(icon), "svg-too-complex")]
    outside = safe_fetcher([tmp_path / "elsewhere"])
    with pytest.raises(ValueError):
        outside.fetch("file:///etc/passwd")
    assert refusal_error(outside.refused, "a rulebook").problems[0].file == "/etc/passwd"
