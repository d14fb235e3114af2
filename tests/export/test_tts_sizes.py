"""``export tts`` of a pack of three card sizes (issue 44): one deck object per back and size, scaled to the
card's printed size, on sheets of at least 2 × 2; the saved object is checked field by field against what
Tabletop Simulator reads from it (``check_saved_object``)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from cardworks.export.tts import TTS_CARD_MM, grid_for
from conftest import REPO, run_cli
from multisize import SIZES, expected_back, multisize_pack, size_of

CARD_FIELDS = {"Name": str, "Transform": dict, "Nickname": str, "CardID": int, "CustomDeck": dict}
DECK_FIELDS = {"Name": str, "Transform": dict, "Nickname": str, "DeckIDs": list, "CustomDeck": dict,
               "ContainedObjects": list}
SHEET_FIELDS = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
                "UniqueBack": bool, "Type": int}
TRANSFORM_FIELDS = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")


def _fields(thing: dict, wanted: dict, what: str) -> list[str]:
    return [f"{what}: {name} missing or not {kind.__name__}" for name, kind in wanted.items()
            if not isinstance(thing.get(name), kind) or isinstance(thing.get(name), bool) != (kind is bool)]


def check_saved_object(document: dict) -> list[str]:
    """What TTS would read wrongly in a saved object: missing or mistyped fields, a sheet grid outside 2-10 × 2-7,
    a CardID whose sheet key is not in its CustomDeck or whose index is past the sheet's last face (the last
    slot is the hidden face), DeckIDs that are not the contained cards' CardIDs in order."""
    found = []
    if not isinstance(document.get("ObjectStates"), list) or not document["ObjectStates"]:
        return ["ObjectStates missing or empty"]
    for number, state in enumerate(document["ObjectStates"]):
        what = f"ObjectStates[{number}]"
        cards = state.get("ContainedObjects", []) if state.get("Name") == "DeckCustom" else [state]
        found += _fields(state, DECK_FIELDS if state.get("Name") == "DeckCustom" else CARD_FIELDS, what)
        if state.get("Name") == "DeckCustom" and state.get("DeckIDs") != [c.get("CardID") for c in cards]:
            found.append(f"{what}: DeckIDs are not the contained cards' CardIDs")
        for card in cards:
            found += _fields(card, CARD_FIELDS, f"{what} card {card.get('Nickname')}")
            found += [f"{what}: Transform lacks {k}" for k in TRANSFORM_FIELDS if k not in card.get("Transform", {})]
            key, index = divmod(card.get("CardID", -1), 100)
            sheet = card.get("CustomDeck", {}).get(str(key))
            if sheet is None:
                found.append(f"{what}: CardID {card.get('CardID')} names sheet {key}, not in its CustomDeck")
                continue
            found += _fields(sheet, SHEET_FIELDS, f"{what} sheet {key}")
            if not (2 <= sheet["NumWidth"] <= 10 and 2 <= sheet["NumHeight"] <= 7):
                found.append(f"{what} sheet {key}: grid {sheet['NumWidth']} × {sheet['NumHeight']} outside 2-10 × 2-7")
            if index >= sheet["NumWidth"] * sheet["NumHeight"] - 1:
                found.append(f"{what}: CardID {card['CardID']} is past the sheet's last face")
    return found


def _path(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


@pytest.mark.parametrize(("faces", "grid"), [(1, (2, 2)), (3, (2, 2)), (4, (3, 2)), (19, (10, 2)), (20, (10, 3)),
                                             (69, (10, 7))])
def test_sheet_grids_have_two_rows_at_least(faces: int, grid: tuple[int, int]) -> None:
    made = grid_for(faces, (63, 88))
    assert (made.columns, made.rows) == grid and made.columns * made.rows > faces


def test_the_check_refuses_what_tts_reads_wrongly() -> None:
    sheet = {"FaceURL": "a", "BackURL": "b", "NumWidth": 3, "NumHeight": 1, "BackIsHidden": True, "UniqueBack": False,
             "Type": 0}
    card = {"Name": "Card", "Transform": {}, "Nickname": "x", "CardID": 205, "CustomDeck": {"1": sheet}}
    deck = {"Name": "DeckCustom", "Transform": {}, "Nickname": "d", "DeckIDs": [100], "CustomDeck": {"1": sheet},
            "ContainedObjects": [card]}
    found = check_saved_object({"ObjectStates": [deck]})
    assert any("not the contained cards' CardIDs" in f for f in found)
    assert any("names sheet 2" in f for f in found)
    assert any("Transform lacks scaleX" in f for f in found)
    card["CardID"] = 102
    deck["DeckIDs"] = [102]
    assert any("outside 2-10 × 2-7" in f for f in check_saved_object({"ObjectStates": [deck]}))
    assert any("past the sheet's last face" in f for f in check_saved_object({"ObjectStates": [deck]}))
    assert check_saved_object({}) == ["ObjectStates missing or empty"]


@pytest.mark.slow
def test_each_size_and_back_is_its_own_deck_at_its_own_scale(tmp_path: Path) -> None:
    pack = multisize_pack(tmp_path / "pack")
    out = tmp_path / "tts"
    run = run_cli("--cards", str(REPO / "cards"), "export", "tts", str(pack), "--locale", "en", "--out", str(out))
    assert run.exit_code == 0, run.output
    document = json.loads(next(out.glob("fallera-*.json")).read_text(encoding="utf-8"))
    assert check_saved_object(document) == []
    kinds = {c["id"]: c["types"][0] for path in (pack / "sets").glob("*.json")
             for c in json.loads(path.read_text(encoding="utf-8"))["cards"]}
    seen_backs = set()
    for state in document["ObjectStates"]:
        cards = state["ContainedObjects"] if state["Name"] == "DeckCustom" else [state]
        backs = {expected_back(c["GMNotes"], kinds[c["GMNotes"]]) for c in cards}
        sizes = {size_of(c["GMNotes"]) for c in cards}
        assert len(backs) == 1 and len(sizes) == 1, state["Nickname"]  # one back, one size per deck object
        (width, height), back = sizes.pop(), backs.pop()
        assert back not in seen_backs
        seen_backs.add(back)
        for thing in [state, *cards]:  # the deck and each card drawn from it keep the card's size
            scale = thing["Transform"]
            assert scale["scaleX"] == pytest.approx(width / TTS_CARD_MM[0], abs=1e-3)
            assert scale["scaleZ"] == pytest.approx(height / TTS_CARD_MM[1], abs=1e-3) and scale["scaleY"] == 1.0
        for key, sheet in state["CustomDeck"].items():
            assert _path(sheet["BackURL"]).name == f"{back}.png"
            with Image.open(_path(sheet["FaceURL"])) as image:
                cell = (image.width / sheet["NumWidth"], image.height / sheet["NumHeight"])
            assert cell[0] == int(cell[0]) and cell[1] == int(cell[1]) and max(image.size) <= 4096
            assert cell[1] / cell[0] == pytest.approx(height / width, abs=0.005), key
            if width == height:
                assert cell[0] == cell[1]  # a square card's cells are square
    assert seen_backs == {expected_back(card_id, kind) for card_id, kind in kinds.items()}
    assert {size_of(card_id) for card_id in kinds} == set(SIZES.values())
