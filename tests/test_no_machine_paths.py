"""No absolute path of the build machine in anything shipped (package data, templates, the database, the
schemas) or written (build and export outputs, PDFs read down to their decompressed streams).

A path that names the checkout, the home folder or a scratch folder means nothing on a user's machine and
tells them about the developer's; the scanner is shown finding one planted in a file and in a PDF.
"""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest

from conftest import REPO, run_cli

SHIPPED = [REPO / "src" / "cardworks", REPO / "templates", REPO / "cards", REPO / "schema"]
"""What a wheel carries besides the code: package data, templates, the shipped database and its schemas."""


def _needles(*extra: Path) -> list[bytes]:
    """What a machine path looks like here: the checkout, the home folder, and the usual absolute roots."""
    found = {str(REPO), str(Path.home()), "/work/", "/root/", "/tmp/", *map(str, extra)}
    return sorted({n.encode() for n in found if n not in ("", "/")})


def machine_paths(path: Path, *extra: Path) -> list[str]:
    """The machine paths in one file (``file: needle``); a PDF is read to its decompressed streams."""
    chunks = [path.read_bytes()]
    if path.suffix == ".pdf":
        with pikepdf.open(path) as pdf:
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Stream):
                    try:
                        chunks.append(obj.read_bytes())
                    except pikepdf.PdfError:
                        chunks.append(obj.read_raw_bytes())
                elif isinstance(obj, (pikepdf.Dictionary, pikepdf.Array, pikepdf.String)):
                    chunks.append(repr(obj).encode("utf-8", "replace"))
    return sorted({f"{path.name}: {needle.decode()}" for chunk in chunks for needle in _needles(*extra) if needle in chunk})


def _files(*roots: Path) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*")
                  if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts)


def test_nothing_shipped_names_a_machine_path() -> None:
    files = _files(*SHIPPED)
    assert len(files) > 100, "the scan reads the shipped files"
    assert [hit for f in files for hit in machine_paths(f)] == []


def test_the_scanner_finds_a_planted_path(tmp_path: Path) -> None:
    profile = json.loads((REPO / "src/cardworks/export/profiles/drivethrucards.json").read_text(encoding="utf-8"))
    profile["sizes"]["value"][0]["unverified"] = f"not in {REPO}/../shared/research"  # the line the profile used to carry
    planted = tmp_path / "drivethrucards.json"
    planted.write_text(json.dumps(profile), encoding="utf-8")
    assert machine_paths(planted), "a checkout path in a profile is found"
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].Contents = pdf.make_stream(b"BT /F1 9 Tf (/root/secret) Tj ET")  # compressed on save
    pdf.save(tmp_path / "planted.pdf", compress_streams=True)
    assert b"/root/secret" not in (tmp_path / "planted.pdf").read_bytes(), "the path hides in a compressed stream"
    assert "planted.pdf: /root/" in machine_paths(tmp_path / "planted.pdf")


@pytest.mark.slow
def test_build_and_export_outputs_name_no_machine_path(tmp_path: Path) -> None:
    out, shop = tmp_path / "build", tmp_path / "export"
    built = run_cli("--cards", str(REPO / "cards"), "build", "--out", str(out), "--game", "fallera", "--set", "discordia",
                    "--locale", "en", "--jobs", "2")
    assert built.exit_code == 0, built.output
    exported = run_cli("--cards", str(REPO / "cards"), "export", "print-shop", "--game", "fallera", "--set", "discordia",
                       "--locale", "en", "--profile", "drivethrucards", "--out", str(shop), "--jobs", "2")
    assert exported.exit_code == 0, exported.output
    files = _files(out, shop)
    assert any(f.suffix == ".pdf" for f in files) and any(f.name == "export.json" for f in files)
    assert [hit for f in files for hit in machine_paths(f, tmp_path)] == []
