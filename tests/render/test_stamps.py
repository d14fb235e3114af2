"""render/stamps.py: a sheet of copies drawn from one laid-out sample of each kind prints the very pixels of the
sheet laid out copy by copy, and a frame and sample that do not match are an error, never a missing copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardworks.render.stamps import StampError, lay_out, stamp

pytestmark = pytest.mark.slow

HEAD = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>
@page { size: 60mm 50mm; margin: 3mm 4mm; }
body { font-family: sans-serif; font-size: 7pt; }
.row { line-height: 0; }
.piece { display: inline-block; position: relative; vertical-align: top; width: 17mm; height: 13mm;
         margin: 0 1.5mm 1.5mm 0; break-inside: avoid; line-height: 1.1; }
.piece svg { position: absolute; left: 0; top: 0; }
.piece .label { position: absolute; top: 4mm; left: 0; width: 17mm; display: grid; align-content: center;
                text-align: center; }
.piece .label.turned { top: 8mm; transform: rotate(180deg); }
</style></head><body>"""

KINDS = {"0": ("#1d3f8f", "Red devil"), "1": ("#ffe14d", "Giant"), "2": ("#4caf50", "Tabaler with drum")}
ORDER = ["0", "0", "1", "0", "2", "2", "1", "0", "0", "1", "2", "0", "1", "1"]


def piece(kind: str, drawn: bool) -> str:
    if not drawn:
        return f'<div class="piece" data-stamp="{kind}"></div>'
    fill, name = KINDS[kind]
    inside = (f'<svg width="17mm" height="13mm" viewBox="0 0 17 13"><rect x="0.15" y="0.15" width="16.7" '
              f'height="12.7" fill="{fill}" stroke="#231f1a" stroke-width="0.3"/></svg>'
              f'<div class="label">{name}</div><div class="label turned">{name}</div>')
    return f'<div class="piece" data-stamp="{kind}">{inside}</div>'


def sheet(drawn: bool) -> str:
    return HEAD + '<h1>Standees</h1><div class="row">\n' + "\n".join(piece(k, drawn) for k in ORDER) + \
        "\n</div><p>Cut the solid lines.</p></body></html>"


def sample() -> str:
    pages = ['<div class="row">' + piece(k, True) + "</div>" for k in KINDS]
    return HEAD + '<div style="break-before: page"></div>'.join(pages) + "</body></html>"


def pixels(pdf: bytes) -> list[bytes]:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        return [page.render(scale=200 / 72).to_pil().convert("RGB").tobytes() for page in document]
    finally:
        document.close()


def test_copies_stamped_from_a_sample_print_the_pixels_of_the_sheet_laid_out_copy_by_copy(tmp_path: Path) -> None:
    whole = lay_out(sheet(drawn=True), tmp_path, "a test sheet").write_pdf()
    stamped = stamp(lay_out(sheet(drawn=False), tmp_path, "a test sheet"), lay_out(sample(), tmp_path, "a test sheet"))
    expected, found = pixels(whole), pixels(stamped)
    assert len(found) == len(expected) >= 2, "the copies run over more than one page"
    assert found == expected


def test_a_kind_the_sample_does_not_draw_is_an_error(tmp_path: Path) -> None:
    frame = lay_out(HEAD + piece("0", False) + piece("3", False) + "</body></html>", tmp_path, "a test sheet")
    drawn = lay_out(HEAD + piece("0", True) + "</body></html>", tmp_path, "a test sheet")
    with pytest.raises(StampError, match=r"asks for kinds \['3'\] the sample lacks"):
        stamp(frame, drawn)


def test_a_sample_page_holding_two_kinds_is_an_error(tmp_path: Path) -> None:
    frame = lay_out(HEAD + piece("0", False) + piece("1", False) + "</body></html>", tmp_path, "a test sheet")
    drawn = lay_out(HEAD + piece("0", True) + piece("1", True) + "</body></html>", tmp_path, "a test sheet")
    with pytest.raises(StampError, match="sample page 1 holds 2 marked boxes"):
        stamp(frame, drawn)


BOARDS = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><style>@page {{ size: 60mm 40mm; margin: 4mm; }}"
          "section {{ break-after: page; }} h1 {{ font-size: 9pt; bookmark-level: 1; }}</style></head><body>{body}"
          "</body></html>")


def board(name: str, copies: int | str, lines: int = 1) -> str:
    return f'<section data-copies="{copies}"><h1>{name}</h1>' + "<p>A space for each tile.</p>" * lines + "</section>"


def test_a_section_marked_with_copies_prints_its_pages_that_many_times(tmp_path: Path) -> None:
    from cardworks.render.stamps import copied_pages

    once = lay_out(BOARDS.format(body=board("Main board", 1) + board("Player board", 3, lines=4)), tmp_path, "boards")
    assert len(once.pages) == 3, "the player board runs over two pages"
    copied = copied_pages(once)
    laid_out = "".join(board("Main board", 1)) + "".join(board("Player board", 1, lines=4) for _ in range(3))
    whole = lay_out(BOARDS.format(body=laid_out), tmp_path, "boards").write_pdf()
    found, expected = pixels(copied), pixels(whole)
    assert len(found) == len(expected) == 7
    assert found == expected


def test_a_page_of_no_marked_section_or_a_count_that_is_no_number_is_an_error(tmp_path: Path) -> None:
    from cardworks.render.stamps import copied_pages

    stray = lay_out(BOARDS.format(body=board("Main board", 2) + "<p>A stray note.</p>"), tmp_path, "boards")
    with pytest.raises(StampError, match="page 2 belongs to no section marked data-copies"):
        copied_pages(stray)
    for count in ("0", "two"):
        wrong = lay_out(BOARDS.format(body=board("Main board", count)), tmp_path, "boards")
        with pytest.raises(StampError, match="not a number of copies"):
            copied_pages(wrong)
