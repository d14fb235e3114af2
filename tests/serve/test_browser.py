"""The preview in a real browser: Debian's headless Chromium driven by Selenium, the server in its own process."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait

from browser import chromium, server

from serve_fixtures import Workspace, workspace  # noqa: F401  (fixture)

pytestmark = pytest.mark.slow

SCREENSHOT = os.environ.get("CARDWORKS_SCREENSHOT")
"""Where to keep the screenshot (the README's is docs/serve-preview.png); a temporary folder otherwise."""


def raw_get(base: str, path: str) -> str:
    """A request sent byte for byte, so no client library tidies ``..`` away first."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def test_edits_reach_the_open_page_and_a_broken_file_shows_file_and_line(workspace: Workspace, tmp_path: Path) -> None:
    base_set = workspace.cards_root / "fallera" / "sets" / "base.json"
    with server(workspace.cards_root, "--game", "fallera", "--set", "base") as url, chromium(tmp_path / "profile") as driver:
        for path in ["/faces/../../../pyproject.toml", "/../pyproject.toml", "/deck/../../cards/fallera/game.json"]:
            answer = raw_get(url, path)
            assert answer.startswith("HTTP/1.1 404") and "[project]" not in answer and '"card_types"' not in answer, path

        driver.get(url + "/deck")
        # The page swaps a tile's elements when it updates, so an element found a moment ago may be gone
        # when its text is read: that is a poll to repeat, not a failure.
        wait = WebDriverWait(driver, 30, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda d: d.find_element(By.ID, "status").text == "live")
        # The page comes before the data is checked (it then loads once more, listing the cards) and before its
        # faces, which fill in as they are drawn, the page not reloaded.
        wait.until(lambda d: d.find_element(By.ID, "progress").get_attribute("data-waiting") != "loading")
        driver.execute_script("window.notReloaded = true")
        wait.until(lambda d: d.find_element(By.ID, "progress").get_attribute("data-waiting") == "0")
        assert driver.execute_script("return window.notReloaded") is True
        faces = driver.find_elements(By.CSS_SELECTOR, "#tiles .tile img.face")
        assert len(faces) == len(workspace.read(base_set)["cards"]) > 10
        wait.until(lambda d: d.execute_script(  # every face is a loaded 407 x 555 px image (69 x 94 mm at 150 dpi)
            "return Array.from(document.querySelectorAll('#tiles img.face'))"
            ".every((img) => img.complete && img.naturalWidth === 407 && img.naturalHeight === 555)"))
        driver.execute_script("window.notReloaded = true")
        first = workspace.read(base_set)["cards"][0]
        tile = f"#tile-{first['id']}"
        old_src = driver.find_element(By.CSS_SELECTOR, f"{tile} img.face").get_attribute("src")

        data = workspace.read(base_set)
        data["cards"][0]["name"] = "nom nou de prova"
        workspace.write(base_set, data)
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f"{tile} .name").text == "nom nou de prova")
        image = driver.find_element(By.CSS_SELECTOR, f"{tile} img.face")
        assert image.get_attribute("src") != old_src  # the face itself was drawn again
        wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
        assert driver.execute_script("return window.notReloaded") is True
        driver.save_screenshot(SCREENSHOT or str(tmp_path / "serve-preview.png"))

        text = base_set.read_text(encoding="utf-8")
        workspace.write(base_set, text.replace('"nom nou de prova",', '"nom nou de prova"', 1))
        line = next(n for n, row in enumerate(base_set.read_text(encoding="utf-8").splitlines(), 1) if "nom nou de prova" in row)
        wait.until(lambda d: "json-syntax" in d.find_element(By.ID, "tiles").text)
        shown = driver.find_element(By.CSS_SELECTOR, f"{tile}").text
        where = re.search(r"sets/base\.json:(\d+):\d+: \[json-syntax\]", shown)
        assert where and int(where.group(1)) in (line, line + 1), shown  # the missing comma is seen on the next line
        assert not driver.find_elements(By.CSS_SELECTOR, f"{tile} img.face")  # the error, not the old face
        assert driver.execute_script("return window.notReloaded") is True


def test_a_multi_size_pack_shows_each_card_at_its_size_with_its_own_back(tmp_path: Path) -> None:
    """Poker, mini and square cards side by side at one scale, filling in after the page came; each card page
    shows the back the PDFs print behind it (issue 44)."""
    import io
    import json
    import urllib.request

    from PIL import Image

    from multisize import NAVY, TEAL, multisize_pack, size_of

    pack = multisize_pack(tmp_path / "pack")
    cards_root = Path(__file__).resolve().parents[2] / "cards"
    designs = sum(len(json.loads(p.read_text(encoding="utf-8"))["cards"]) for p in (pack / "sets").glob("*.json"))
    with server(cards_root, str(pack), "--locale", "en") as url, chromium(tmp_path / "profile") as driver:
        driver.get(url + "/deck")
        assert driver.title == "An example expansion pack (en) · cardworks preview"
        wait = WebDriverWait(driver, 60, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda d: d.execute_script(  # every face filled in and loaded, without reloading the page
            "const faces = document.querySelectorAll('#tiles img.face');"
            "return faces.length === arguments[0] && Array.from(faces).every((img) => img.complete && img.naturalWidth > 0)",
            designs))
        # the progress line is updated after the last face's image has loaded: waited for, not read at once
        wait.until(lambda d: d.find_element(By.ID, "progress").get_attribute("data-waiting") == "0")
        widths = driver.execute_script(
            "return Object.fromEntries(Array.from(document.querySelectorAll('#tiles .tile')).map("
            "(tile) => [tile.id.slice(5), tile.querySelector('img.face').getBoundingClientRect().toJSON()]))")
        poker = widths["example-orxata"]
        for card_id in ("mini-a", "square-a", "example-cavaller"):  # on screen, in printed proportion to poker
            width, height = size_of(card_id)
            box = widths[card_id]
            assert box["width"] / poker["width"] == pytest.approx((width + 6) / 69, abs=0.01), card_id
            assert box["height"] / poker["height"] == pytest.approx((height + 6) / 94, abs=0.01), card_id

        for card_id, colour in (("mini-b", TEAL), ("square-a", NAVY), ("example-cavaller", NAVY)):
            driver.get(f"{url}/card/{card_id}?locale=en")
            back = driver.find_element(By.CSS_SELECTOR, "img.face.back")
            wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", back))
            width, height = size_of(card_id)
            natural = driver.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", back)
            assert natural == [round((width + 6) / 25.4 * 150), round((height + 6) / 25.4 * 150)], card_id
            with urllib.request.urlopen(back.get_attribute("src")) as answer:
                image = Image.open(io.BytesIO(answer.read())).convert("RGB")
            assert all(abs(a - b) <= 12 for a, b in zip(image.getpixel((10, 10)), colour)), card_id
