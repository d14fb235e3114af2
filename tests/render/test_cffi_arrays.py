"""Font subsetting's glyph arrays made from the open array type (render/cffi_arrays.py): the same arrays, the same
PDF bytes, and no C type parsed again for each new glyph count."""

from __future__ import annotations

import io

import cffi.cparser
import pytest
from weasyprint import HTML
from weasyprint.text.ffi import ffi

from cardworks.render import cffi_arrays
from cardworks.render.fonts import fast_subsetter, font_face_css, shared_font_config

PAGE = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><style>{fonts}\n@page {{ size: 60mm 40mm; }}"
        "body {{ font-family: CardSans; }} b {{ font-family: CardCondensed; }}</style></head>"
        "<body><p>{text} <b>{bold}</b></p></body></html>")


def _pdf(text: str, bold: str) -> bytes:
    out = io.BytesIO()
    HTML(string=PAGE.format(fonts=font_face_css(), text=text, bold=bold)).write_pdf(out, font_config=shared_font_config())
    return out.getvalue()


def test_an_array_is_the_one_cffi_makes_from_its_fixed_type() -> None:
    new = cffi_arrays._new_for(type(ffi).new.__get__(ffi))
    for cdecl, init in [("hb_codepoint_t[5]", [3, 1, 2]), ("hb_codepoint_t[ 3 ]", (7, 8, 9)), ("int[4]", None),
                        ("hb_codepoint_t[0]", [])]:
        made, expected = new(cdecl, init), type(ffi).new(ffi, cdecl, init)
        assert ffi.sizeof(made) == ffi.sizeof(expected) and list(made) == list(expected), cdecl
    with pytest.raises(IndexError):
        new("hb_codepoint_t[2]", [1, 2, 3])
    assert ffi.string(new("char[4]", b"ab")) == b"ab"  # not a list: cffi's own path


@pytest.mark.slow  # lays out PDFs
def test_subsetting_parses_no_type_per_glyph_count_and_prints_the_same_bytes(monkeypatch) -> None:
    assert fast_subsetter(), "HarfBuzz-Subset is missing (libharfbuzz-subset0): this is what the patch speeds up"
    shared_font_config()  # installs the arrays' new
    parsed: list[str] = []
    parse = cffi.cparser.Parser.parse_type

    def counted(self, cdecl):  # type: ignore[no-untyped-def]
        parsed.append(cdecl)
        return parse(self, cdecl)

    monkeypatch.setattr(cffi.cparser.Parser, "parse_type", counted)
    texts = [("Each treasure counts once", "Queen"), ("Quixotic jugglers vex brawny zombies", "Xyz 0123456789")]
    patched = [_pdf(*t) for t in texts]
    fixed = [c for c in parsed if cffi_arrays.FIXED_ARRAY.fullmatch(c)]
    assert fixed == [], f"types parsed for each glyph count: {fixed}"
    monkeypatch.setattr(ffi, "new", type(ffi).new.__get__(ffi))  # cffi's own new: a type parsed per length
    plain = [_pdf(*t) for t in texts]
    assert [c for c in parsed if cffi_arrays.FIXED_ARRAY.fullmatch(c)], "the plain path parsed no fixed array type"
    assert patched == plain
