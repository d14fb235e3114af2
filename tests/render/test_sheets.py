"""What a printer sees on the sheets, read back from the PDFs: crop marks never over a card at any gutter,
the summary saying when gutters cost cards, and a calibration sheet a person can read an offset from."""

from __future__ import annotations

import io
import math
import re
import subprocess
from pathlib import Path

import pikepdf
import pytest

from cardworks.render.impose import MM, SheetLayout, calibration, calibration_readings, impose
from conftest import REPO, run_cli
from test_impose import _faces  # blank 69 × 94 mm face pages


def _drawn(page: pikepdf.Page) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """(card areas as clip rectangles, mark segments), in mm, parsed from the page's content stream."""
    cards, segments, start = [], [], None
    for operands, op in pikepdf.parse_content_stream(page):
        values = [float(v) / MM for v in operands] if str(op) in {"re", "m", "l"} else []
        if str(op) == "re":
            x, y, w, h = values
            cards.append((x, y, x + w, y + h))
        elif str(op) == "m":
            start = values
        elif str(op) == "l":
            segments.append((*start, *values))
    return cards, segments


def _crosses(segment: tuple[float, ...], box: tuple[float, ...], clearance: float) -> bool:
    x1, y1, x2, y2 = segment
    bx0, by0, bx1, by1 = box[0] - clearance, box[1] - clearance, box[2] + clearance, box[3] + clearance
    return min(x1, x2) < bx1 and max(x1, x2) > bx0 and min(y1, y2) < by1 and max(y1, y2) > by0


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("gutter", [0, 0.5, 1, 2, 3, 4, 5, 6, 8, 10])
def test_crop_marks_never_cross_a_card(paper: str, gutter: float) -> None:
    layout = SheetLayout(paper=paper, gutter=gutter)
    out = impose(_faces(2), [0, 1] * 5, back_page=None, layout=layout)
    data = io.BytesIO()
    out.save(data)
    reread = pikepdf.open(data)
    cards, segments = _drawn(reread.pages[0])
    assert len(cards) == min(10, layout.per_sheet) and segments
    half_line = 0.25 / 2 / MM  # a mark is a 0.25 pt line: half of it lies on each side of its centre
    for segment in segments:
        assert not [box for box in cards if _crosses(segment, box, half_line)], (segment, gutter)
    outer = (min(b[0] for b in cards), min(b[1] for b in cards), max(b[2] for b in cards), max(b[3] for b in cards))
    for x in {round(v, 3) for x, _ in layout.cells() for v in (x, x + 63)}:  # every vertical cut line is marked
        assert any(abs(s[0] - x) < 0.01 and abs(s[2] - x) < 0.01 for s in segments), x
    assert all(not _crosses(s, outer, 0) or gutter > 0 for s in segments)


@pytest.mark.slow  # builds Diables' cards twice
def test_the_summary_says_when_gutters_leave_fewer_cards(tmp_path: Path) -> None:
    assert SheetLayout(paper="letter", gutter=4).per_sheet == 6
    run = run_cli("--cards", str(REPO / "cards"), "build", "--game", "diables", "--no-docs", "--paper", "letter",
                  "--gutter", "4", "--out", str(tmp_path))
    assert run.exit_code == 0, run.output
    assert re.search(r"note: diables: .*letter paper with 4 mm gutters: \d a sheet instead of \d+ without gutters",
                     run.output.replace("\n", " ")), run.output
    # not a terminal: one line per finished output, with its time
    written = re.findall(r"^ *\d+\.\d s  (\S+)$", run.output, re.M)
    assert {"diables/en/cards-all-letter.pdf", "diables/en/player-aid-letter.pdf", "diables/en/tiles-letter.pdf"} \
        <= set(written), run.output
    plain = run_cli("--cards", str(REPO / "cards"), "build", "--game", "diables", "--no-docs", "--out", str(tmp_path))
    assert "gutters" not in plain.output
    for paper in ("letter", "a4"):  # the player aid: one per player (up to four) on one sheet, cut lines between
        aid = tmp_path / f"diables/en/player-aid-{paper}.pdf"
        pdf = pikepdf.open(aid)
        text = subprocess.run(["pdftotext", str(aid), "-"], capture_output=True, text=True, check=True).stdout
        assert len(pdf.pages) == 1 and text.count("1. Performance") == 4, (paper, text.count("1. Performance"))
    tiles = subprocess.run(["pdftotext", str(tmp_path / "diables/en/tiles-letter.pdf"), "-"], capture_output=True,
                           text=True, check=True).stdout
    assert "firecracker" in tiles.lower() and not re.search(r"[-\u2010]$", tiles, re.M)  # tile texts never hyphenated


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("printed_with", [(0.0, 0.0), (0.5, -1.0)])
@pytest.mark.parametrize("drift", [(2.0, -3.0), (-1.0, 4.0)])
def test_the_number_read_on_the_calibration_sheet_is_the_offset_that_corrects_the_drift(duplex, printed_with, drift):
    """A printer that shifts back pages by ``drift`` (back-page millimetres): seen from the front, the back's
    lines cross the rulers at the printed numbers; passing those numbers puts the back's lines on zero."""
    layout = SheetLayout(duplex=duplex, offset_x=printed_with[0], offset_y=printed_with[1])
    width, height = layout.size

    def seen_from_front(offset_x: float, offset_y: float) -> tuple[float, float]:
        x, y = width / 2 + offset_x + drift[0], height / 2 + offset_y + drift[1]  # the back's crossing, back page
        if duplex == "long":
            x = width - x
        else:
            y = height - y
        return x - width / 2, y - height / 2

    seen_x, seen_y = seen_from_front(*printed_with)
    along_x, along_y = calibration_readings(layout)

    def read(ruler: dict[int, float], at: float) -> float:  # between two ticks, a person reads proportionally
        low = math.floor(at)
        return ruler[low] + (at - low) * (ruler[low + 1] - ruler[low])

    read = (read(along_x, seen_x), read(along_y, seen_y))
    assert seen_from_front(*read) == pytest.approx((0.0, 0.0))


def test_calibration_sheet_prints_rulers_numbers_and_the_instruction(tmp_path: Path) -> None:
    path = tmp_path / "calibration.pdf"
    calibration(SheetLayout(paper="letter", offset_x=0.5)).save(path)
    text = subprocess.run(["pdftotext", "-layout", "-f", "1", "-l", "1", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "--back-offset X,Y" in text and "cardworks build --back-offset X,Y" in text and "letter" in text
    assert "printed with --back-offset 0.5,0" in text
    numbers = re.findall(r"-?\d+(?:\.\d)?", text.split("printed with")[1])
    assert {"-14.5", "0.5", "15.5"} <= set(numbers)  # the horizontal ruler folds in the offset printed with
    assert {"-15", "0", "15"} <= set(numbers)
    pdf = pikepdf.open(path)
    front = [op for _, op in pikepdf.parse_content_stream(pdf.pages[0]) if str(op) == "l"]
    back = [op for _, op in pikepdf.parse_content_stream(pdf.pages[1]) if str(op) == "l"]
    assert len(front) == 2 * 31 + 2 and len(back) == 2
