"""Legibility (issue 44 item 6, issue 49's last finding): a face printed too small to read is named, card and
part, as an overflow is; under ``--strict`` it stops the build. Cards of 11 × 15 mm printed their rules text at
about 1.4 pt and built under ``--strict``; mini and square cards of the default face now print every text at or
above the minimum, read back from the print-shop PDF."""

from __future__ import annotations

import json
from pathlib import Path

import pypdf
import pytest

from corpus import cardworks, judge, mini  # noqa: F401 (mini is a fixture)

FAMILY = "legibility"
RULES = "Steal one treasure from a rival, then draw two cards and keep the better one."
SOURCE = [{"doc": "notes", "certainty": "stated"}]


def _pack(tmp_path: Path, size: tuple[float, float], min_type: dict[str, float] | None = None) -> Path:
    """A pack of the mini game whose two cards (rules text, flavour, artist credit) are ``size`` mm."""
    card = {"quantity": 1, "types": ["battle"], "stats": {"attack": 2, "defence": 2}, "sources": SOURCE,
            "rules": RULES, "flavour": "Quick hands.", "artist": "A. Painter"}
    pack = {"$schema": "../../schema/pack.schema.json", "id": "sized", "extends": "mini", "name": "Sized",
            "documents": [{"id": "notes", "title": "Notes"}],
            "card_size": {"width_mm": size[0], "height_mm": size[1]}}
    if min_type is not None:
        pack["min_type_pt"] = min_type
    files = {"pack.json": pack,
             "sets/sized.json": {"$schema": "../../../schema/set.schema.json", "id": "sized-set", "name": "Sized",
                                 "cards": [{**card, "id": "sized-one", "name": "sized one"},
                                           {**card, "id": "sized-two", "name": "sized two"}]}}
    root = tmp_path / "pack"
    for relative, content in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(json.dumps(content), encoding="utf-8")
    return root


def _build(mini, tmp_path: Path, pack: Path, *more: str):  # noqa: F811
    out = tmp_path / "out"
    return out, cardworks("--cards", str(mini.cards_root), "build", str(pack), "--out", str(out), "--locale", "en",
                          "--jobs", "1", "--no-docs", *more, timeout=180)


def printed_sizes(pdf: Path) -> list[tuple[str, float]]:
    """Every text run of a PDF with its size as printed: the font size times the text and page matrices' scale."""
    found: list[tuple[str, float]] = []
    for page in pypdf.PdfReader(pdf).pages:
        def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
            if text.strip():
                matrix = [tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3],
                          tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3]]
                found.append((text, size * abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]) ** 0.5))
        page.extract_text(visitor_text=visit)
    return found


@pytest.mark.slow
def test_cards_of_eleven_millimetres_fail_strict_naming_card_and_part(mini, tmp_path: Path) -> None:  # noqa: F811
    out, result = _build(mini, tmp_path, _pack(tmp_path, (11, 15)), "--strict")
    judge("11 × 15 mm cards under --strict: the rules text is too small to read", FAMILY, result, refuse=True,
          names="sized.json:/cards/0/rules:", code="type-too-small")
    assert "sized-one" in result.stderr and not (out / "manifest.json").exists()


@pytest.mark.slow
def test_without_strict_the_small_type_is_a_warning_naming_card_and_part(mini, tmp_path: Path) -> None:  # noqa: F811
    out, result = _build(mini, tmp_path, _pack(tmp_path, (11, 15)))
    warned = [line for line in result.stdout.splitlines() if "[type-too-small]" in line]
    assert result.exit_code == 0, result.stderr
    assert len(warned) == 2 and all("rules" in line and "artist" in line for line in warned), warned
    records = json.loads((out / "manifest.json").read_text())["outputs"]
    shop = next(r for r in records if r["kind"] == "cards-print-shop")
    rules, least = shop["small_type"]["sized-one"]["rules"]
    assert least == 6 and rules < 2, shop["small_type"]
    measured = min(size for text, size in printed_sizes(out / shop["path"]) if "Steal" in text)
    assert measured == pytest.approx(rules, abs=0.05)  # the layout's figure is what the PDF prints


@pytest.mark.slow
def test_a_pack_may_lower_its_minimum(mini, tmp_path: Path) -> None:  # noqa: F811
    _, result = _build(mini, tmp_path, _pack(tmp_path, (11, 15), {"text": 1.0, "credits": 1.0}), "--strict")
    judge("a pack lowering its minimum under 3 pt", FAMILY, result, refuse=True, names="pack.json:/min_type_pt/text")
    _, result = _build(mini, tmp_path, _pack(tmp_path, (30, 42), {"text": 3.0, "credits": 3.0}), "--strict")
    assert result.exit_code == 0, result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("size", [(44, 68), (70, 70)], ids=["mini", "square"])
def test_mini_and_square_faces_print_every_text_at_or_above_the_minimum(mini, tmp_path: Path, size) -> None:  # noqa: F811
    out, result = _build(mini, tmp_path, _pack(tmp_path, size), "--strict")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "[type-too-small]" not in result.stdout
    records = json.loads((out / "manifest.json").read_text())["outputs"]
    shop = next(r for r in records if r["kind"] == "cards-print-shop")
    sizes = printed_sizes(out / shop["path"])
    rules = [value for text, value in sizes if "Steal" in text or "rival" in text]
    credit = [value for text, value in sizes if "Painter" in text]
    assert len(rules) >= 2 and len(credit) >= 2, sizes
    assert min(rules) >= 6 - 0.01, sizes
    assert min(value for _, value in sizes) >= 5 - 0.01, sorted(sizes, key=lambda pair: pair[1])[:5]
