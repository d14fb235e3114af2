"""The HTML report opens in a real browser (Debian's headless Chromium) with every plot drawn."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from simulate_helpers import PACK, simulate

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--disable-extensions", "--hide-scrollbars"]


def _chromium(*args: str, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={home / 'profile'}", *args], capture_output=True,
                          text=True, timeout=120, env={"HOME": str(home), "PATH": "/usr/bin:/bin"})


def test_the_report_opens_in_headless_chromium_with_its_plots(tmp_path: Path) -> None:
    out = tmp_path / "report"
    simulate(str(PACK), "--compare", "--agent", "greedy,random,random,random", "--games", "24", "--workers", "1",
             "--out", str(out))
    page = (out / "report.html").as_uri()
    dom = _chromium("--dump-dom", page, home=tmp_path).stdout
    assert dom.count("<figure") == 11  # five plots per deck, two decks, and the seats of both
    svgs = re.findall(r"<svg\b[^>]*>", dom)
    assert len(svgs) == 11 and all('width="' in tag and 'height="' in tag for tag in svgs)
    assert "Deck B against deck A" in dom and "example-cavaller" in dom
    report = json.loads((out / "report.json").read_text())
    pack_cards = sum(c["pack"] for c in report["b"]["cards"])
    assert pack_cards >= 2 and dom.count("<table class=\"cards\"") == 2 and dom.count("<tr class=\"pack\"") == pack_cards
    measured = tmp_path / "measured.html"  # the page, told to write down how wide it lays out in 1280 px
    measured.write_text((out / "report.html").read_text().replace(
        "</body>", '<script>document.body.dataset.width = document.documentElement.scrollWidth</script></body>'))
    laid_out = _chromium("--window-size=1280,900", "--dump-dom", measured.as_uri(), home=tmp_path).stdout
    width = int(re.search(r'data-width="(\d+)"', laid_out).group(1))
    assert width <= 1280, f"the report is {width} px wide: it overflows a 1280 px window"
    assert "<table class=\"verdicts\"" in dom  # the pack cards' verdicts; the pack named by its id
    answers = re.findall(r'<td class="answer">([^<]*)</td>', dom)  # the three-way answer of every pack card, drawn
    assert len(answers) == len(report["b"]["verdicts"]["cards"]) and set(answers) <= {"in line", "out of line", "not decided"}
    assert "example-pack" in dom
    shot = tmp_path / "shot.png"
    _chromium(f"--screenshot={shot}", "--window-size=1000,2400", page, home=tmp_path)
    image = Image.open(shot).convert("RGB")
    colours = image.getcolors(maxcolors=1_000_000)
    ink = sum(count for count, rgb in colours if rgb == (0x1F, 0x3B, 0x57))  # the bars' colour, only drawn by the plots
    assert ink > 2000, "the plots' bars were not painted"
