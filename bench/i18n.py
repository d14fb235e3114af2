"""Measure the translation round trip: export and import every Fallera string for one locale.

Run: python bench/i18n.py [--locale ca]
Goal: export plus import of all strings of the three sets under 2 s.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from cardworks.i18n.catalog import build_catalog
from cardworks.i18n.workflow import export_catalog, import_catalog
from cardworks.loading import load_database

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--locale", default="ca")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardworks-i18n-") as tmp:
        cards = Path(tmp) / "cards"
        shutil.copytree(REPO / "cards", cards)
        db = load_database(cards / "fallera")
        strings = len(build_catalog(db, args.locale))
        for fmt, suffix in (("po", ".po"), ("xliff", ".xlf")):
            path = Path(tmp) / f"{args.locale}{suffix}"
            start = time.perf_counter()
            path.write_bytes(export_catalog(db, args.locale, fmt))
            exported = time.perf_counter() - start
            start = time.perf_counter()
            result = import_catalog(load_database(cards / "fallera"), path)
            imported = time.perf_counter() - start
            print(f"{fmt:>5}: {strings} strings, export {exported * 1000:.0f} ms, import {imported * 1000:.0f} ms "
                  f"(total {(exported + imported) * 1000:.0f} ms; {result.changed} changed)")


if __name__ == "__main__":
    main()
