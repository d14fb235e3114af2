"""Issue 49 (hardening 4), the findings on inputs: a garbage cache table, a forged image verdict, contents pages
naming files that are not there, ``check --save-failures`` overwriting a kept scenario or writing into an unusable
folder, typed expectations taking other types, imports taking invisible characters or dropping plurals unnamed,
and Tabletop Simulator base URLs that are no URLs."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import cardworks, judge, mini  # noqa: F401  (fixtures)


@pytest.mark.parametrize("url", ["http://", "https://", "http:///decks", "http://example.org/my decks/",
                                 "https://example.org/decks/\nhttp://evil.example/", "http://exa\tmple.org/"])
def test_a_tts_base_url_that_is_no_url_is_refused_naming_the_option(mini, tmp_path: Path, url: str) -> None:
    out = tmp_path / "tts"
    result = cardworks("--cards", str(mini.cards_root), "export", "tts", "--out", str(out), "--base-url", url,
                       timeout=60)
    judge(f"export tts --base-url {url!r}", "exports", result, refuse=True)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "--base-url" in lines[0], result.stderr
    assert not out.exists()
