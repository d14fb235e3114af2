"""Lantern Market (examples/lantern-market), made by the documented steps from a fresh folder: its art drawn
by its script, the game made from its sheet, validated, built on three layouts at two card sizes, exported to
Tabletop Simulator and a print shop, preflighted, and updated from its sheet with one card added. Every output
is read back: PDFs with pypdf, the cut file with ezdxf, the Tabletop Simulator save as JSON."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import ezdxf
import pytest
from pypdf import PdfReader

from conftest import REPO, run_cli
from own_sheets import write_csv

EXAMPLE = REPO / "examples" / "lantern-market"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh folder holding the example's sheet and art script, after `cardworks new` (the README's steps)."""
    here = tmp_path_factory.mktemp("lantern")
    for name in ("cards.csv", "make_art.py"):
        shutil.copy(EXAMPLE / name, here / name)
    drawn = subprocess.run([sys.executable, "make_art.py"], cwd=here, capture_output=True, text=True, check=True)
    assert "30 pictures and 1 icon" in drawn.stdout
    run = run_cli("new", str(here / "lantern-market"), "--from", str(here / "cards.csv"), "--art", str(here / "art"),
                  "--size", "events=44x63", "--name", "Lantern Market", "--name", "es=Mercado de farolillos")
    assert run.exit_code == 0, run.output
    return here


def pages_text(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_the_sheet_is_thirty_cards_of_three_types_at_two_sizes(made: Path) -> None:
    game = made / "lantern-market"
    run = run_cli("--cards", str(game), "validate", "--format", "json")
    assert run.exit_code == 0 and run.problems == [], run.problems
    sets = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted((game / "sets").glob("*.json"))}
    assert sum(len(doc["cards"]) for doc in sets.values()) == 30
    assert {card["types"][0] for doc in sets.values() for card in doc["cards"]} == {"stall", "customer", "event"}
    assert sets["events"]["card_size"] == {"width_mm": 44.0, "height_mm": 63.0} and "card_size" not in sets["market"]
    translations = json.loads((game / "i18n" / "es.json").read_text(encoding="utf-8"))["entries"]
    assert translations["noodle-cart"]["name"]["text"] == "Carro de fideos"
    check = run_cli("--cards", str(game), "check")
    assert check.exit_code == 0 and "has no rules to play" in check.output


@pytest.mark.parametrize("layout", ["grid", "gutterfold", "silhouette"])
def test_build_every_layout_at_both_sizes(made: Path, layout: str) -> None:
    out = made / f"build-{layout}"
    run = run_cli("--cards", str(made / "lantern-market"), "build", "--layout", layout, "--out", str(out), "--strict")
    assert run.exit_code == 0, run.output
    suffix = "" if layout == "grid" else f"-{layout}"
    for locale, names in (("en", ("Noodle Cart", "Night Owl", "Full Moon")), ("es", ("Carro de fideos", "Luna llena"))):
        poker = out / "lantern-market" / locale / f"cards-all{suffix}-a4.pdf"
        mini = out / "lantern-market" / locale / f"cards-all-44x63{suffix}-a4.pdf"
        text = pages_text(poker) + pages_text(mini)
        found = [name for name in names if name in text]
        assert found == list(names), (locale, text[:400])
        boxes = {tuple(round(float(v)) for v in page.trimbox) for page in PdfReader(mini).pages}
        assert boxes, mini
    if layout == "silhouette":
        cut = ezdxf.readfile(out / "lantern-market" / "en" / "cards-all-silhouette-a4.cut.dxf")
        outlines = [entity for entity in cut.modelspace() if entity.dxftype() in ("LWPOLYLINE", "POLYLINE", "LINE", "ARC")]
        assert len(outlines) >= 8, len(outlines)


def test_export_to_tabletop_simulator_and_a_print_shop_then_preflight(made: Path) -> None:
    game = made / "lantern-market"
    before = sorted(Path.cwd().iterdir())
    tts = made / "tts"
    cache = ["--face-cache", str(made / "build" / ".cache" / "faces")]  # not the working folder's build/
    run = run_cli("--cards", str(game), "export", "tts", "--out", str(tts), *cache)
    assert run.exit_code == 0, run.output
    saved = json.loads((tts / "lantern-market-all-en.json").read_text(encoding="utf-8"))
    decks = saved["ObjectStates"]  # one deck object per card size (two sizes), scaled to it
    assert len(decks) == 2 and all(deck["Name"] == "DeckCustom" for deck in decks)
    assert sum(len(deck["DeckIDs"]) for deck in decks) == 41
    assert len({deck["Transform"]["scaleX"] for deck in decks}) == 2
    names = {card["Nickname"] for deck in decks for card in deck["ContainedObjects"]}
    assert sorted(names)[:2] == ["Candy Floss", "Couple"]
    shop = made / "shop"
    run = run_cli("--cards", str(game), "export", "print-shop", "--profile", "makeplayingcards", "--set", "market",
                  "--out", str(shop), *cache)
    assert run.exit_code == 0, run.output
    with (shop / "quantities.csv").open(encoding="utf-8", newline="") as listed:
        rows = list(csv.DictReader(listed))
    assert len(rows) == 23 and sum(int(row["quantity"]) for row in rows if "quantity" in row) in (0, 33)
    run = run_cli("preflight", str(shop))
    assert run.exit_code == 0 and "copies add up: 33 card(s) listed, the deck has 33" in run.output, run.output
    assert sorted(Path.cwd().iterdir()) == before  # nothing written where the tests run


def test_sheet_round_trip_with_one_card_added(made: Path) -> None:
    game = made / "lantern-market"
    sheet = made / "round.csv"
    assert run_cli("--cards", str(game), "sheet", "export", "--out", str(sheet), "--locale", "es").exit_code == 0
    rows = list(csv.reader(sheet.open(encoding="utf-8", newline="")))
    head = rows[0]
    added = [""] * len(head)
    for column, value in {"set": "market", "name": "Paper Boat", "type": "Customer", "coins": "2", "lantern": "Blue",
                          "text": "Visits the stall by the river.", "quantity": "1", "name@es": "Barco de papel",
                          "text@es": "Visita el puesto junto al río."}.items():
        added[head.index(column)] = value
    write_csv(sheet, head, [*rows[1:], added])
    run = run_cli("--cards", str(game), "sheet", "import", str(sheet))
    assert run.exit_code == 0 and "1 added (paper-boat)" in run.output, run.output
    market = json.loads((game / "sets" / "market.json").read_text(encoding="utf-8"))
    assert market["cards"][-1]["id"] == "paper-boat" and market["totals"]["designs"] == 23
    assert json.loads((game / "i18n" / "es.json").read_text(encoding="utf-8"))["entries"]["paper-boat"]["name"]["text"] \
        == "Barco de papel"
    assert run_cli("--cards", str(game), "validate").exit_code == 0
