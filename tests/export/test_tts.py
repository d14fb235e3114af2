"""``export tts``: the saved object read as JSON, every sheet cell named by a CardID compared with that card's face."""

from __future__ import annotations

import csv
import json
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops, ImageStat

from cardworks.loading import load_database
from cardworks.render.deck import build_deck
from conftest import REPO, run_cli

pytestmark = pytest.mark.slow

CARDS = REPO / "cards"
DECK = ("--game", "fallera", "--set", "discordia", "--locale", "en")


@pytest.fixture(scope="module")
def tts(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("tts") / "deck"
    run = run_cli("--cards", str(CARDS), "export", "tts", *DECK, "--out", str(out), "--jobs", "2")
    assert run.exit_code == 0, run.output
    return out, json.loads((out / "fallera-discordia-en.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def reference_faces(tmp_path_factory) -> dict[str, Image.Image]:
    """Each face of the print-shop PDF, rasterised by poppler (not pdfium, which made the sheets), bleed cut off."""
    out = tmp_path_factory.mktemp("shop") / "pdf"
    run = run_cli("--cards", str(CARDS), "export", "print-shop", "--profile", "pdf", *DECK, "--out", str(out))
    assert run.exit_code == 0, run.output
    with (out / "quantities.csv").open(encoding="utf-8") as handle:
        ids = [row["card_id"] for row in csv.DictReader(handle)]
    dpi = 200
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(out / "fallera-discordia-en.pdf"), str(out / "page")], check=True)
    faces = {}
    bleed, width, height = (mm / 25.4 * dpi for mm in (3, 63, 88))
    for card_id, page in zip(ids, sorted(out.glob("page-*.png"))):
        with Image.open(page) as image:
            size = (round(width), round(height))
            faces[card_id] = image.convert("RGB").resize(size, box=(bleed, bleed, bleed + width, bleed + height))
    return faces


def _distance(cell: Image.Image, face: Image.Image) -> float:
    """Mean difference per channel (0-255) at a quarter of the cell size, where two rasterisers' antialiasing evens out."""
    size = (cell.width // 4, cell.height // 4)
    a, b = (image.resize(size, Image.Resampling.BOX) for image in (cell, face))
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def _path(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def test_saved_object_has_the_structure_tts_loads(tts) -> None:
    folder, document = tts
    deck = build_deck(load_database(CARDS / "fallera"), "discordia")
    (state,) = document["ObjectStates"]
    assert state["Name"] == "DeckCustom"
    assert len(state["DeckIDs"]) == len(state["ContainedObjects"]) == deck.physical_cards
    assert [c["CardID"] for c in state["ContainedObjects"]] == state["DeckIDs"]
    for key, custom in state["CustomDeck"].items():
        assert set(custom) >= {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"}
        assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7 and custom["BackIsHidden"] is True
        assert custom["FaceURL"].startswith("file://") and _path(custom["FaceURL"]).parent == folder.resolve()
        with Image.open(_path(custom["FaceURL"])) as sheet:
            assert max(sheet.size) <= 4096
            assert sheet.size[0] % custom["NumWidth"] == 0 and sheet.size[1] % custom["NumHeight"] == 0
        assert _path(custom["BackURL"]).is_file()
    copies = {entry.card.id: entry.copies for entry in deck.cards}
    counted = {}
    for card in state["ContainedObjects"]:
        assert card["Name"] == "Card" and str(card["CardID"] // 100) in card["CustomDeck"]
        counted[card["GMNotes"]] = counted.get(card["GMNotes"], 0) + 1
    assert counted == copies  # quantities give copies


def test_each_cell_named_by_a_card_id_shows_that_card(tts, reference_faces) -> None:
    folder, document = tts
    (state,) = document["ObjectStates"]
    sheets = {key: (Image.open(_path(c["FaceURL"])).convert("RGB"), c["NumWidth"], c["NumHeight"])
              for key, c in state["CustomDeck"].items()}
    checked = set()
    for card in state["ContainedObjects"]:
        key, index = divmod(card["CardID"], 100)
        if (key, index) in checked:
            continue
        checked.add((key, index))
        sheet, columns, rows = sheets[str(key)]
        width, height = sheet.width // columns, sheet.height // rows
        column, row = index % columns, index // columns
        cell = sheet.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))
        distance = {card_id: _distance(cell, face) for card_id, face in reference_faces.items()}
        assert min(distance, key=distance.get) == card["GMNotes"], card["CardID"]
        best, runner_up = sorted(distance.values())[:2]
        assert best < 6 and best < runner_up / 2, (card["GMNotes"], best, runner_up)
    assert len(checked) == len(reference_faces) - 1  # every design, each at its own cell


def test_hidden_slot_is_the_back_and_base_url_is_used(tts, reference_faces, tmp_path: Path) -> None:
    folder, document = tts
    custom = document["ObjectStates"][0]["CustomDeck"]["1"]
    with Image.open(_path(custom["FaceURL"])) as sheet:
        width, height = sheet.width // custom["NumWidth"], sheet.height // custom["NumHeight"]
        hidden = sheet.convert("RGB").crop((sheet.width - width, sheet.height - height, sheet.width, sheet.height))
    assert _distance(hidden, reference_faces["back"]) < 6
    run = run_cli("--cards", str(CARDS), "export", "tts", *DECK, "--out", str(tmp_path / "hosted"),
                  "--base-url", "https://example.org/decks/")
    assert run.exit_code == 0, run.output
    hosted = json.loads((tmp_path / "hosted" / "fallera-discordia-en.json").read_text())
    assert hosted["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"] == "https://example.org/decks/sheet-1.png"
    assert run_cli("--cards", str(CARDS), "export", "tts", *DECK, "--base-url", "ftp://x").exit_code == 2


def test_a_pack_exports_its_own_cards(tmp_path: Path) -> None:
    pack = REPO / "examples" / "fallera-pack"
    designs = json.loads((pack / "sets" / "example.json").read_text())["cards"]
    run = run_cli("--cards", str(CARDS), "export", "tts", str(pack), "--out", str(tmp_path / "pack"))
    assert run.exit_code == 0, run.output
    (saved,) = (tmp_path / "pack").glob("fallera-*.json")
    state = json.loads(saved.read_text())["ObjectStates"][0]
    assert sorted({card["GMNotes"] for card in state["ContainedObjects"]}) == sorted(d["id"] for d in designs)
    assert len(state["DeckIDs"]) == sum(d.get("quantity") or 1 for d in designs)
