"""Every PDF the project writes names each font subset with its own tag (ISO 32000-1, 9.6.4), read with pdffonts."""

from __future__ import annotations

import io
import json
import subprocess
from collections import defaultdict
from pathlib import Path

import pikepdf
import pytest

from cardworks.render.subset_tags import retag_subsets
from conftest import REPO, run_cli

pytestmark = pytest.mark.slow


def subsets_by_tag(path: Path) -> dict[str, set[bytes]]:
    """pdffonts' rows: tag → the distinct font programs (read by object id with pikepdf) it names."""
    pdf = pikepdf.open(path)
    rows = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    found: dict[str, set[bytes]] = defaultdict(set)
    for row in rows:
        name, number, generation = row.split()[0], int(row.split()[-2]), int(row.split()[-1])
        if len(name) > 7 and name[6] == "+":
            font = pdf.get_object(number, generation)
            descriptor = font.DescendantFonts[0].FontDescriptor if "/DescendantFonts" in font else font.FontDescriptor
            program = next(descriptor[k] for k in ("/FontFile2", "/FontFile3", "/FontFile") if k in descriptor)
            found[name[:6]].add(program.read_bytes())
    return found


def test_every_built_card_pdf_has_one_subset_per_tag(tmp_path: Path) -> None:
    run = run_cli("--cards", str(REPO / "cards"), "build", "--game", "fallera", "--set", "discordia", "--locale", "en",
                  "--out", str(tmp_path), "--jobs", "2", "--no-docs")
    assert run.exit_code == 0, run.output
    outputs = json.loads((tmp_path / "manifest.json").read_text())["outputs"]
    pdfs = [tmp_path / r["path"] for r in outputs if r["path"].endswith(".pdf")]
    assert {r["kind"] for r in outputs} >= {"cards", "cards-print-shop", "calibration"}
    for path in pdfs:
        tags = subsets_by_tag(path)
        reused = {tag: len(programs) for tag, programs in tags.items() if len(programs) > 1}
        assert not reused, f"{path.name}: {reused}"
    # Faces are laid out in chunks of 16, so the print-shop file merges documents: it holds several subsets per font.
    shop = next(tmp_path / r["path"] for r in outputs if r["kind"] == "cards-print-shop")
    names = [row.split()[0].split("+")[1] for row in
             subprocess.run(["pdffonts", str(shop)], capture_output=True, text=True).stdout.splitlines()[2:]]
    assert len(names) > len(set(names))


def test_retagging_gives_merged_subsets_distinct_tags() -> None:
    """Two documents' subsets of one font carry one WeasyPrint tag; after retagging, two tags."""
    from weasyprint import HTML

    merged = pikepdf.new()
    for text in ("abc", "xyz"):
        merged.pages.extend(pikepdf.open(io.BytesIO(HTML(string=f"<p>{text}</p>").write_pdf())).pages)
    before = [str(o.BaseFont)[1:7] for o in merged.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"
              and "/DescendantFonts" in o]
    assert len(before) == 2 and before[0] == before[1]
    assert retag_subsets(merged) == 2
    after = {str(o.BaseFont)[1:7] for o in merged.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"
             and "/DescendantFonts" in o}
    assert len(after) == 2
