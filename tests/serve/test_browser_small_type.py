"""Issue 44 item 6 in the preview: a face whose type prints under the smallest legible size carries a visible mark
on the card and the message naming its parts, on the deck page and on its card page (Debian's headless Chromium
driven by Selenium, the server in its own process). Before, only ``build`` and ``validate`` said so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser import chromium, server
from multisize import REPO, sized_card

pytestmark = pytest.mark.slow

TINY = ("tiny-a", "tiny-b")


def _pack(folder: Path) -> Path:
    """The example pack (poker cards, every text at or above the default minimum) and a set of 30 × 42 mm cards,
    whose rules text the default face prints under 6 pt."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["documents"] = [{"id": "designer-notes", "title": "The designer's own notes"}]
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    document = {"$schema": "../../../schema/set.schema.json", "id": "tiny-set", "name": "tiny-set", "order": 12,
                "card_size": {"width_mm": 30, "height_mm": 42},
                "cards": [sized_card("tiny-a", "battle"), sized_card("tiny-b", "treasure")]}
    (folder / "sets" / "tiny-set.json").write_text(json.dumps(document), encoding="utf-8")
    return folder


def _mark_on_face(driver, selector: str) -> dict:
    """Where the mark is drawn against its face image, and whether it is seen."""
    return driver.execute_script(
        "const root = document.querySelector(arguments[0]);"
        "const mark = root && root.querySelector('.mark.small-type');"
        "if (!mark) return {shown: false};"
        "const face = root.querySelector('img.face').getBoundingClientRect();"
        "const box = mark.getBoundingClientRect(); const style = getComputedStyle(mark);"
        "return {shown: box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none',"
        " inside: box.left >= face.left && box.right <= face.right && box.top >= face.top && box.bottom <= face.bottom,"
        " text: mark.textContent, title: mark.title}", selector)


def test_small_type_is_marked_on_the_card_with_its_message(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "pack")
    with server(REPO / "cards", str(pack), "--locale", "en") as url, chromium(tmp_path / "profile") as driver:
        driver.get(url + "/deck")
        wait = WebDriverWait(driver, 90, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda d: d.find_element(By.ID, "progress").get_attribute("data-waiting") == "0")
        wait.until(lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('#tiles img.face')).every((img) => img.complete)"))
        tiles = driver.find_elements(By.CSS_SELECTOR, "#tiles .tile")
        marked = {tile.get_attribute("id").removeprefix("tile-")
                  for tile in tiles if tile.find_elements(By.CSS_SELECTOR, ".mark.small-type")}
        assert len(tiles) == 16 and marked == set(TINY), marked  # 14 poker cards unmarked, the two tiny ones marked
        for card_id in TINY:
            mark = _mark_on_face(driver, f"#tile-{card_id}")
            assert mark["shown"] and mark["inside"] and mark["text"] == "type too small", mark
            message = driver.find_element(By.CSS_SELECTOR, f"#tile-{card_id} .card-problems").text
            assert "[type-too-small]" in message and "rules" in message and "(at least 6 pt)" in message, message
            assert mark["title"] in message
        assert "[type-too-small]" not in driver.find_element(By.ID, "tile-example-orxata").text

        driver.get(f"{url}/card/tiny-a?locale=en")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".large img.face"))
        mark = _mark_on_face(driver, ".large figure.shown")
        assert mark["shown"] and mark["inside"], mark
        assert "[type-too-small]" in driver.find_element(By.CSS_SELECTOR, ".card-problems").text
        driver.get(f"{url}/card/example-orxata?locale=en")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".large img.face"))
        assert not driver.find_elements(By.CSS_SELECTOR, ".mark.small-type")
