"""Hostile layout: texts that fit the schema's caps yet spill out of their place on the card.

A title wider than its frame, a flavour that runs into the rules text and a stats line wider than the card are
read from WeasyPrint's layout and reported by part; ``--strict`` refuses them, naming the card, the part and
the file that holds the text.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from corpus import REPO, cardworks, fingerprint, judge, judge_output, lost

FAMILY = "layout"
LONG_NAME = "Supercalifragilisticexpialidociousness"
"""38 characters: one word, wider than the title's frame even at the smallest title size."""
RULES = ("While it is on your counter, toss the {coin} at the start of your turn: heads, draw 2 cards; tails, "
         "draw 1. ") * 6
FLAVOUR = ("The fritter remembers every fair it was fried at, and tells of each one at length to anyone who "
           "stands still near the stall. ") * 2


def _pack(tmp_path: Path) -> Path:
    """The example pack with a title too wide for its frame (cavaller) and a flavour under long rules (bunyol)."""
    pack = tmp_path / "pack"
    shutil.copytree(REPO / "examples" / "fallera-pack", pack)
    path = pack / "sets" / "example.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    cards = {card["id"]: card for card in data["cards"]}
    cards["example-cavaller"]["name"] = LONG_NAME
    cards["example-bunyol"]["rules"] = RULES.strip()
    cards["example-bunyol"]["flavour"] = FLAVOUR.strip()
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    spanish = pack / "i18n" / "es.json"  # the Spanish texts of the edited cards no longer match them
    translations = json.loads(spanish.read_text(encoding="utf-8"))
    for card in ("example-cavaller", "example-bunyol"):
        translations["entries"].pop(card, None)
    spanish.write_text(json.dumps(translations, ensure_ascii=False), encoding="utf-8")
    return pack


def _build(pack: Path, out: Path, *extra: str):
    return cardworks("--cards", str(REPO / "cards"), "build", str(pack), "--out", str(out), "--locale", "en",
                     "--no-docs", "--jobs", "1", *extra, timeout=180)


@pytest.mark.slow
def test_title_and_flavour_overflow_are_named_by_warnings_manifest_proof_and_strict(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    out = tmp_path / "build"
    lenient = _build(pack, out, "--proof")  # laid out now: the verdict comes from the layout
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    shop = next(r for r in manifest["outputs"] if r["kind"] == "cards-print-shop")

    def reported() -> str | None:
        if "face(s) rendered" not in lenient.stdout:
            return "the faces were not laid out in this build"
        if shop.get("overflow_parts") != {"example-cavaller": ["name"], "example-bunyol": ["flavour"]}:
            return f"the manifest's overflow is {shop.get('overflow')} {shop.get('overflow_parts')}"
        for card, part in (("example-cavaller", "name"), ("example-bunyol", "flavour")):
            if f"[text-overflow] example-pack en {card} ({part})" not in lenient.stdout:
                return f"no warning for {card} ({part}): {lenient.stdout[-800:]}"
        proof = next(out / r["path"] for r in manifest["outputs"] if r["kind"] == "cards-proof")
        text = subprocess.run(["pdftotext", "-layout", str(proof), "-"], capture_output=True, text=True, check=True).stdout
        if "OVERFLOW: name does not fit" not in text or "OVERFLOW: flavour does not fit" not in text:
            return "the proof sheet does not name the overflowing parts"
        return None

    judge("build of a title wider than its frame and a flavour running into the rules", FAMILY, lenient,
          refuse=False, check=reported)
    assert set(shop["overflow"]) == {"example-cavaller", "example-bunyol"}  # the cards that fit are not reported
    published = fingerprint(out / "example-pack")

    # Refused twice: with the print-shop file reused (the verdict from the manifest), then with every face
    # taken from the face cache (the verdict from the cache's metadata).
    for case, drop_manifest in (("manifest", False), ("face cache", True)):
        if drop_manifest:
            (out / "manifest.json").unlink()
        strict = _build(pack, out, "--strict")
        judge(f"--strict: a title wider than its frame (verdict from the {case})", FAMILY, strict, refuse=True,
              names="sets/example.json:/cards/1/name", code="text-overflow",
              changed=lost(published, fingerprint(out / "example-pack")))
        judge(f"--strict: a flavour running into the rules text (verdict from the {case})", FAMILY, strict,
              refuse=True, names="sets/example.json:/cards/2/flavour", code="text-overflow")
        assert "text overflows on example-cavaller (name), example-bunyol (flavour) (--strict)" in strict.stderr


@pytest.mark.slow
def test_a_stats_line_wider_than_the_card_is_an_overflow_and_a_normal_face_is_not() -> None:
    from cardworks.loading import load_database
    from cardworks.render.deck import build_deck
    from cardworks.render.faces import Face, build_job, render_faces

    db = load_database(REPO / "cards" / "fallera")
    job = build_job(db, build_deck(db, "base"), "en")
    battle = next(f for f in job.faces if isinstance(f, Face) and f.stats and f.rules)
    crowded = replace(battle, id="crowded", stats=battle.stats * 9)
    result = render_faces(replace(job, faces=[replace(battle), crowded]))
    wrong = None
    if "crowded" not in result.overflow:
        wrong = f"a stats line with {len(crowded.stats)} values is not reported"
    elif result.parts.get("crowded") != ("stats",):
        wrong = f"a stats line with {len(crowded.stats)} values is reported as {result.parts.get('crowded')}"
    elif battle.id in result.overflow:
        wrong = f"the shipped card {battle.id} is reported as overflowing: {result.parts[battle.id]}"
    judge_output("a stats line wider than the card", FAMILY, wrong)


def test_face_cache_metadata_without_parts_is_a_miss(tmp_path: Path) -> None:
    from cardworks.render.facecache import CachedFace, FaceCache

    cache = FaceCache(tmp_path)
    (tmp_path / "old.pdf").write_bytes(b"%PDF-1.7")
    (tmp_path / "old.json").write_text(json.dumps({"fit": 0, "overflow": False, "group": "g"}))  # renderer 3's form
    (tmp_path / "odd.pdf").write_bytes(b"%PDF-1.7")
    (tmp_path / "odd.json").write_text(json.dumps({"fit": 0, "parts": ["margin"], "group": "g"}))
    cache.put("new", CachedFace(b"%PDF-1.7", 2, ("name", "flavour"), "g"))
    found = cache.get("new")
    wrong = None
    if cache.get("old") is not None or cache.get("odd") is not None:
        wrong = "metadata without a well-formed overflow verdict was served"
    elif found is None or found.parts != ("name", "flavour") or not found.overflow or found.fit != 2:
        wrong = f"a cached verdict did not come back as stored: {found}"
    judge_output("face cache metadata of an older renderer", FAMILY, wrong)
