"""Card sizes in ``export tts``: every size a card may have (10 to 300 mm a side) gets sheet cells true to its
shape within TTS's 10 × 7 grid and 4,096 px. A tarot or 44 × 68 mm set once ended in ``ValueError``; the real
exports of those sizes run in ``tests/export/test_sizes.py``; this sweeps the whole range in-process."""

from __future__ import annotations

from corpus import judge_output

FAMILY = "exports"
SIDES = [10.5, 11, 20, 25.4, 44, 63, 68, 70, 88, 120, 150, 200, 299.9, 300]


def test_every_card_size_gets_sheet_cells_true_to_its_shape() -> None:
    from cardworks.export.tts import MAX_SIDE, PER_SHEET, cell_for, grid_for

    wrong = []
    for width in SIDES:
        for height in SIDES:
            cell = cell_for((width, height))
            grid = grid_for(PER_SHEET, (width, height))
            sheet = grid.size
            if min(cell) < 10 or max(sheet) > MAX_SIDE:
                wrong.append(f"{width} × {height} mm: cell {cell}, sheet {sheet}")
            elif abs(cell[1] - cell[0] * height / width) > 1:
                wrong.append(f"{width} × {height} mm: cell {cell} is not the card's shape")
    judge_output("export tts cells for every card size from 10.5 to 300 mm", FAMILY,
                 "; ".join(wrong[:5]) if wrong else None)
