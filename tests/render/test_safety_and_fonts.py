"""The fetcher's allow-list, the fonts' glyph coverage, text fitting under --strict."""

from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from cardworks.i18n import Localizer, source_strings
from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.markup import parse, plain_text
from cardworks.render.fetcher import safe_fetcher
from cardworks.render.fonts import font_files
from conftest import REPO, run_cli


def test_fetcher_allows_only_its_roots(tmp_path: Path) -> None:
    inside = tmp_path / "templates"
    inside.mkdir()
    (inside / "a.css").write_text("p{}")
    fetcher = safe_fetcher([inside])
    assert fetcher.allows((inside / "a.css").as_uri())
    assert fetcher.allows("data:image/svg+xml;base64,PHN2Zy8+")
    assert not fetcher.allows("file:///etc/passwd")
    assert not fetcher.allows((inside / ".." / "secret").as_uri())
    assert not fetcher.allows("https://example.com/x.png")
    (inside / "link").symlink_to("/etc")
    assert not fetcher.allows((inside / "link" / "passwd").as_uri())
    with pytest.raises(ValueError):
        fetcher.fetch("file:///etc/passwd")
    assert [entry.split(": [")[0] for entry in fetcher.refused] == ["file:///etc/passwd"]  # each refusal names the file
    assert "[path-escape]" in fetcher.refused[0]


def test_every_character_of_every_locale_has_a_glyph() -> None:
    db = load_database(REPO / "cards" / "fallera")
    index = Index(db)
    texts = []
    for locale in db.game_doc.locales:
        localizer = Localizer(db, locale)
        for record in index.records:
            if record.kind == "assumption":
                continue
            for string in source_strings(record.model):
                text = localizer.text(string.record, string.field, string.text)[0]
                texts.append(plain_text(parse(text), {}) if string.markup else text)
    used = {ch for text in texts for ch in text if not ch.isspace()}
    assert {"ç", "à", "è", "·", "ñ", "¿", "é"} <= used
    for font in font_files():
        cmap = TTFont(font.path, lazy=True).getBestCmap()
        missing = sorted(ch for ch in used if ord(ch) not in cmap)
        assert missing == [], f"{font.path.name} lacks {missing}"


@pytest.mark.slow  # builds the base deck
def test_strict_build_fails_on_overflowing_text_and_writes_nothing(tmp_path: Path) -> None:
    import json
    import shutil

    cards = tmp_path / "cards"
    shutil.copytree(REPO / "cards", cards)
    path = cards / "fallera/sets/base.json"
    data = json.loads(path.read_text())
    garlic = next(c for c in data["cards"] if c["id"] == "cabeca-d-alls")
    # Under the schema's 1,200-character cap on rules text, yet more than the rules box holds at 5.5 pt.
    garlic["rules"] = " ".join(["A very long rules text that cannot possibly fit on a poker card."] * 17)
    path.write_text(json.dumps(data, ensure_ascii=False))
    out = tmp_path / "out"
    args = ["--cards", str(cards), "build", "--out", str(out), "--set", "base", "--locale", "en", "--no-docs"]
    lenient = run_cli(*args)
    assert lenient.exit_code == 0 and "[text-overflow] fallera en cabeca-d-alls" in lenient.output
    shutil.rmtree(out)
    strict = run_cli(*args, "--strict")
    assert strict.exit_code == 1
    assert "overflows" in strict.output and "cabeca-d-alls" in strict.output
    assert not (out / "fallera").exists()
