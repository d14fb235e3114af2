"""Cut files are reproducible: two cold builds of a print-and-cut layout in two folders (each with its own
copy of the database and its own cache folder) give byte-identical ``.cut.dxf`` and ``.cut.svg`` files, so
the manifests agree. ezdxf ordered the DXF's CLASS entries by walking a set, so the order of
``ACDBPLACEHOLDER`` and ``LAYOUT`` followed the process's string hash seed: the two builds run with seeds 0
and 4, which put them in different orders (see ``render/cutfiles.py``)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from corpus import BUILD, REPO, cardworks, judge, mini  # noqa: F401 (mini is a fixture)

FAMILY = "determinism"


@pytest.mark.slow
def test_two_cold_builds_in_two_folders_give_the_same_cut_files(tmp_path: Path) -> None:
    results, cuts = [], []
    for name, seed in (("one", "0"), ("two", "4")):
        cards = tmp_path / name / "cards"
        shutil.copytree(REPO / "cards" / "diables", cards / "diables")
        out = tmp_path / name / "out"
        results.append(cardworks("--cards", str(cards), "build", "--out", str(out), "--layout", "silhouette",
                                 "--paper", "a4", *BUILD, timeout=240,
                                 env={"CARDWORKS_CACHE": str(tmp_path / name / "cache"), "PYTHONHASHSEED": seed}))
        records = json.loads((out / "manifest.json").read_text())["outputs"] if (out / "manifest.json").is_file() else []
        cuts.append({r["path"]: (r["sha256"], hashlib.sha256((out / r["path"]).read_bytes()).hexdigest())
                     for r in records if r["kind"] in ("cut-dxf", "cut-svg")})

    def same() -> str | None:
        if not cuts[0] or len(cuts[0]) % 2:
            return f"the builds wrote no pair of cut files: {sorted(cuts[0])}"
        differ = sorted(path for path in cuts[0] if cuts[0][path] != cuts[1].get(path))
        return f"cut files differ between the two builds: {differ}" if differ else None

    judge("two cold builds of --layout silhouette in two folders: the same cut files", FAMILY, results[1],
          refuse=False, check=same)


def _outlines(path: Path) -> int:
    import ezdxf

    return len(ezdxf.readfile(path).modelspace().query("LWPOLYLINE"))


@pytest.mark.slow
@pytest.mark.parametrize("quantity", [3, 12], ids=["one-part-sheet", "full-sheet-and-a-part"])
def test_cut_files_cut_only_the_filled_slots(mini, tmp_path: Path, quantity: int) -> None:  # noqa: F811
    """A sheets file whose last page is not full: its cut files cut the cards it holds, never an empty slot
    (the full pages share ``….cut.dxf``, the last page has ``….last.cut.dxf``); read back with ezdxf."""
    import pypdf

    mini.files["sets/base.json"]["cards"][1]["quantity"] = quantity  # 2 + quantity cards in all
    mini.files["sets/base.json"].pop("totals", None)
    mini.write()
    out = tmp_path / "out"
    result = cardworks("--cards", str(mini.cards_root), "build", "--out", str(out), "--layout", "silhouette",
                       "--paper", "a4", "--duplex", "none", *BUILD, timeout=240)

    def cut_right() -> str | None:
        records = json.loads((out / "manifest.json").read_text())["outputs"]
        sheets = next(r for r in records if r["kind"] == "cards")
        pages = len(pypdf.PdfReader(out / sheets["path"]).pages) - sheets["contents_pages"]
        dxfs = {Path(r["path"]).name: _outlines(out / r["path"]) for r in records if r["kind"] == "cut-dxf"}
        svgs = {Path(r["path"]).name: (out / r["path"]).read_text().count("<rect") for r in records if r["kind"] == "cut-svg"}
        cards = 2 + quantity
        full = [count for name, count in dxfs.items() if not name.endswith(".last.cut.dxf")]
        last = [count for name, count in dxfs.items() if name.endswith(".last.cut.dxf")]
        per_page = -(-cards // pages) if pages == 1 else full[0]
        want_last = cards - (pages - 1) * per_page
        if sorted(dxfs.values()) != sorted(svgs.values()):
            return f"the SVG and DXF cut files disagree: {dxfs} against {svgs}"
        if pages == 1 and (full != [cards] or last):
            return f"one page of {cards} cards: cut files {dxfs}"
        if pages > 1 and (last != [want_last] or want_last >= per_page):
            return f"{pages} pages of {cards} cards, {per_page} a page: cut files {dxfs}"
        return None

    judge(f"print-and-cut sheets of {2 + quantity} cards: cut files of the filled slots", FAMILY, result,
          refuse=False, check=cut_right)
