"""Cached art faces stay on disk and are read while the deck is saved: a deck of more of them than the soft
limit on open files still assembles (the limit is raised, or the faces are read into memory)."""

from __future__ import annotations

import resource
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


def test_more_face_files_than_the_soft_limit_raise_it(tmp_path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    hard_for_test = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
    assert hard_for_test >= 700, "this machine's hard limit on open files is too low for the test"
    assert int(_assemble_under_limit(tmp_path, 400, 128, hard_for_test)) >= 400


def test_more_face_files_than_the_hard_limit_are_read_into_memory(tmp_path) -> None:
    assert _assemble_under_limit(tmp_path, 400, 128, 128) == "128"
