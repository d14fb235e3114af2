"""Measure the exports on the expert deck: each whole export against laying the faces out, in one run.

Run: python bench/export.py [--jobs 2] [--locale en]
Every export lays the deck's faces out first (the same work ``cardworks build``
does for its print-shop file), so each export is reported as a ratio to that
baseline measured in the same run; preflight is also timed on its own, and
the spreadsheet round trip (export, then import of the unchanged file).
Processor seconds are printed beside wall seconds: on a shared machine they vary less.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from pathlib import Path

from cardworks.export.common import load_deck, render_deck
from cardworks.export.preflight import preflight
from cardworks.export.printshop import export_print_shop
from cardworks.export.sheet import export_sheet
from cardworks.export.sheet_import import import_sheet
from cardworks.export.tts import export_tts
from cardworks.loading import load_database

REPO = Path(__file__).resolve().parents[1]


def cpu() -> float:
    """Processor seconds of this process and its finished children (Ghostscript, worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


CPU: dict[str, float] = {}


def timed(call, label: str = ""):
    """Wall seconds of ``call`` (and its processor seconds, kept under ``label``): the machine may be shared."""
    start, start_cpu = time.perf_counter(), cpu()
    value = call()
    CPU[label] = cpu() - start_cpu
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--locale", default="en")
    args = parser.parse_args()
    cards = REPO / "cards"
    with tempfile.TemporaryDirectory(prefix="cardworks-bench-") as tmp:
        out = Path(tmp)
        db, deck, locale = load_deck(cards, "fallera", None, None, args.locale)
        print(f"expert deck, {locale}: {len(deck.cards)} designs, {deck.physical_cards} cards; jobs {args.jobs}")
        base, _ = timed(lambda: render_deck(db, deck, locale, args.jobs), "faces")
        print(f"{'':<34}{'wall':>8}  {'ratio':>6}  {'cpu':>8}  {'ratio':>6}")
        print(f"{'faces laid out (baseline)':<34}{base:7.2f}s  {1:5.2f}×  {CPU['faces']:7.2f}s  {1:5.2f}×")
        for name in ("pdf", "drivethrucards", "thegamecrafter", "makeplayingcards"):
            seconds, result = timed(lambda: export_print_shop(cards, name, game="fallera", locale=locale,
                                                              out=out / name, jobs=args.jobs), name)
            check, _ = timed(lambda: preflight(result.folder))
            print(f"{'export print-shop ' + name:<34}{seconds:7.2f}s  {seconds / base:5.2f}×  {CPU[name]:7.2f}s  "
                  f"{CPU[name] / CPU['faces']:5.2f}×  (preflight alone {check:.2f} s; {len(result.files)} file(s))")
        seconds, result = timed(lambda: export_tts(cards, game="fallera", locale=locale, out=out / "tts", jobs=args.jobs), "tts")
        print(f"{'export tts':<34}{seconds:7.2f}s  {seconds / base:5.2f}×  {CPU['tts']:7.2f}s  "
              f"{CPU['tts'] / CPU['faces']:5.2f}×  ({len(result.sheets)} sheet(s))")
        copy = out / "cards"
        shutil.copytree(cards, copy)
        game = load_database(copy / "fallera")
        for fmt in ("csv", "xlsx"):
            sheet = out / f"cards.{fmt}"
            written, data = timed(lambda: export_sheet(game, None, ["ca", "es"], fmt))
            sheet.write_bytes(data)
            read, result = timed(lambda: import_sheet(copy, sheet, "fallera"))
            assert not result.files_written
            print(f"{'sheet export + import ' + fmt:<34}{written + read:7.2f}s  "
                  f"(export {written:.2f} s, unchanged import {read:.2f} s)")


if __name__ == "__main__":
    main()
