"""Cached faces stay on disk and are read one at a time while the deck is put together (see ``render.pdfjoin``):
a deck of more of them than the limit on open files assembles without the limit raised."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pikepdf


def _assemble_under_limit(tmp_path, faces: int, soft: int, hard: int) -> str:
    script = textwrap.dedent(f"""
        import resource, sys
        from pathlib import Path
        import pikepdf
        from cardworks.render.facepdf import assemble, save_pdf
        folder = Path(sys.argv[1])
        pages = {{}}
        for n in range({faces}):
            pdf = pikepdf.new()
            pdf.add_blank_page(page_size=(200, 280))
            path = folder / f"face{{n}}.pdf"
            pdf.save(path)
            pages[f"f{{n}}"] = path
        resource.setrlimit(resource.RLIMIT_NOFILE, ({soft}, {hard}))
        out = folder / "deck.pdf"
        out.write_bytes(save_pdf(assemble(pages, sorted(pages), 3.0, "en")))
        print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with pikepdf.open(tmp_path / "deck.pdf") as deck:
        assert len(deck.pages) == faces
    return done.stdout.strip()


def test_more_face_files_than_the_limit_on_open_files_assemble_one_at_a_time(tmp_path) -> None:
    assert _assemble_under_limit(tmp_path, 400, 128, 128) == "128"
