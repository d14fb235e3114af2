"""The documentation site builds with ``mkdocs build --strict`` (every page in the navigation, no broken link),
and the README stays a short front door whose links all lead somewhere."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README_MAX_LINES = 200


def _mkdocs(root: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=root, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def _copy_site_sources(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    return root


@pytest.mark.slow
def test_the_site_builds_strictly_with_the_generated_command_reference(tmp_path: Path) -> None:
    done = _mkdocs(REPO, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    cli_page = (tmp_path / "site" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in ("validate", "build", "check", "simulate", "preflight"):  # from the click group itself
        assert re.search(rf"cardworks {command}\b", cli_page), command
    assert "--edition" in cli_page and "--allow-fallback" in cli_page
    pages = sorted((tmp_path / "site").rglob("*.html"))
    assert len(pages) > 20
    raw = [f"{page.relative_to(tmp_path / 'site')}: {row}" for page in pages for row in raw_table_rows(page.read_text("utf-8"))]
    assert raw == [], "a table row that Markdown did not read as a row (a blank line inside a table?): " + "; ".join(raw)


def raw_table_rows(html: str) -> list[str]:
    """Paragraphs of a built page that begin with ``|``: table rows cut off from their table, printed as text."""
    return [row[:80] for row in re.findall(r"<p>(\|[^<]*)", html)]


def test_a_table_cut_by_a_blank_line_is_found() -> None:
    import markdown

    html = markdown.markdown("| a | b |\n| --- | --- |\n| 1 | 2 |\n\n| 3 | 4 |\n", extensions=["tables"])
    assert raw_table_rows(html) == ["| 3 | 4 |"]
    assert raw_table_rows(markdown.markdown("| a | b |\n| --- | --- |\n| 1 | 2 |\n", extensions=["tables"])) == []


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["broken-link", "page-left-out-of-nav"])
def test_a_broken_link_or_a_page_missing_from_the_navigation_fails_the_build(tmp_path: Path, fault: str) -> None:
    root = _copy_site_sources(tmp_path)
    if fault == "broken-link":
        page = root / "docs" / "install.md"
        page.write_text(page.read_text(encoding="utf-8") + "\nSee [the old page](no-such-page.md).\n",
                        encoding="utf-8")
    else:
        (root / "docs" / "orphan.md").write_text("# An orphan\n\nNot in the navigation.\n", encoding="utf-8")
    done = _mkdocs(root, tmp_path / "site")
    assert done.returncode != 0
    assert ("no-such-page.md" if fault == "broken-link" else "orphan.md") in done.stdout + done.stderr


def test_every_page_of_docs_is_in_the_navigation() -> None:
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w./-]+\.md)\s*$", nav, flags=re.M))
    pages = {path.relative_to(REPO / "docs").as_posix() for path in (REPO / "docs").rglob("*.md")}
    assert pages, "no pages found"
    assert pages == listed, f"left out: {sorted(pages - listed)}; missing: {sorted(listed - pages)}"


def test_the_readme_is_a_short_front_door_whose_links_resolve() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not re.match(r"https?:", link)]
    assert local, "the README links to no page"
    missing = [link for link in local if not (REPO / link).exists()]
    assert not missing, missing
