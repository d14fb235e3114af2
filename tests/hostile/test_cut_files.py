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

from corpus import BUILD, REPO, cardworks, judge

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
