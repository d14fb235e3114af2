"""One card size, one resolver (issue 46, item 4): which size a card has is said by
``models.card_size.resolve_card_size`` alone, and the poker default is written once.

The source scan below fails on a second copy of the default (a 63 followed by an 88 in code) or of the
fallback (a read of ``.card_size`` outside the resolver); each check is also shown failing on a planted copy.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

from cardworks.models import CardSet, Component, Game, Pack
from cardworks.models.card_size import DEFAULT_CARD_SIZE, CardSize, resolve_card_size
from conftest import REPO

PACKAGE = REPO / "src" / "cardworks"
RESOLVER = "models/card_size.py"
SCHEMA = "../schema/any.schema.json"

DEFAULT_ALLOWED = {
    RESOLVER: "the one default",
    "models/face.py": "POKER_MM is the size the face is designed at and scaled from, not a card's default size",
}
"""Files where a 63 followed by an 88 may stand in code, and why."""

READ_ALLOWED = {
    ("render/pieces.py", "tile.card_size"): "a tile is no card: without its own size it takes the tile default",
}
"""Reads of ``.card_size`` outside the resolver, and why each is no card-size fallback."""


def _game(**extra: object) -> Game:
    return Game.model_validate({"$schema": SCHEMA, "id": "g", "name": "G", "source_locale": "en", "locales": ["en"],
                                "players": {"min": 2, "max": 4}, **extra})


def _size(width: float, height: float) -> dict[str, float]:
    return {"width_mm": width, "height_mm": height}


def test_a_set_s_size_comes_before_its_pack_s_and_its_game_s() -> None:
    game = _game(card_size=_size(70, 120))
    pack = Pack.model_validate({"$schema": SCHEMA, "id": "p", "extends": "g", "name": "P", "card_size": _size(59, 92)})
    bare_pack = Pack.model_validate({"$schema": SCHEMA, "id": "q", "extends": "g", "name": "Q"})
    sized_set = CardSet.model_validate({"$schema": SCHEMA, "id": "s", "name": "S", "card_size": _size(44, 68)})
    bare_set = CardSet.model_validate({"$schema": SCHEMA, "id": "t", "name": "T"})
    assert resolve_card_size(game, pack, sized_set).mm == (44, 68)
    assert resolve_card_size(game, pack, bare_set).mm == (59, 92)
    assert resolve_card_size(game, bare_pack, bare_set).mm == (70, 120)
    assert resolve_card_size(game, None, bare_set).mm == (70, 120)
    assert resolve_card_size(game).mm == (70, 120)


def test_a_game_without_card_size_and_no_game_at_all_get_the_one_default() -> None:
    assert _game().card_size is DEFAULT_CARD_SIZE
    assert resolve_card_size(None) is DEFAULT_CARD_SIZE
    assert DEFAULT_CARD_SIZE == CardSize(width_mm=63, height_mm=88)
    component = Component.model_validate({"id": "c", "name": "C", "kind": "card", "quantity": 1,
                                         "sources": [{"doc": "notes"}]})
    assert resolve_card_size(_game(card_size=_size(57, 89)), card_set=component).mm == (57, 89)


# ---- the source scan --------------------------------------------------------------------------------------------

def default_copies(source: str) -> list[int]:
    """Lines where a number 63 is followed, within eight code tokens (strings and comments skipped), by 88."""
    numbers: list[tuple[int, float]] = []
    found = []
    for position, token in enumerate(t for t in tokenize.generate_tokens(io.StringIO(source).readline)
                                     if t.type not in (tokenize.STRING, tokenize.COMMENT, tokenize.NL)):
        if token.type == tokenize.NUMBER:
            value = ast.literal_eval(token.string)
            if value == 88 and any(v == 63 and position - p <= 8 for p, v in numbers):
                found.append(token.start[0])
            numbers.append((position, value))
    return found


def size_reads(source: str) -> list[tuple[int, str]]:
    """(line, expression) of each read of a ``card_size`` attribute, or ``getattr`` of one by name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "card_size" and isinstance(node.ctx, ast.Load):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                and any(isinstance(a, ast.Constant) and a.value == "card_size" for a in node.args):
            found.append((node.lineno, ast.unparse(node)))
    return found


def _sources() -> list[tuple[str, str]]:
    return [(path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8"))
            for path in sorted(PACKAGE.rglob("*.py"))]


def test_the_scan_finds_a_planted_default_and_a_planted_fallback() -> None:
    assert default_copies("CARD_MM = (63.0, 88.0)\n") == [1]
    assert default_copies("class Face:\n    trim_w: float = 63.0\n    trim_h: float = 88.0\n") == [3]
    assert default_copies("size = CardSize(width_mm=63, height_mm=88)\n") == [1]
    assert default_copies('HELP = "default 63x88"  # 63 × 88\nx = [0x88] * 3\nSEED = 2**63 - 1\n') == []
    assert size_reads("size = card_set.card_size or pack.card_size or game.card_size\n") == [
        (1, "card_set.card_size"), (1, "pack.card_size"), (1, "game.card_size")]
    assert size_reads('size = getattr(record.model, "card_size", None)\n') == [
        (1, "getattr(record.model, 'card_size', None)")]
    assert size_reads("class Pack:\n    card_size: CardSize | None = None\n") == []


def test_the_default_is_written_once_in_the_source() -> None:
    sources = _sources()
    assert len(sources) > 100
    copies = [f"{name}:{line}" for name, text in sources if name not in DEFAULT_ALLOWED for line in default_copies(text)]
    assert copies == [], "the 63 × 88 default written again: use models.card_size.DEFAULT_CARD_SIZE"
    assert default_copies(dict(sources)[RESOLVER])


def test_no_module_but_the_resolver_reads_a_card_size() -> None:
    sources = _sources()
    reads = [(name, line, expression) for name, text in sources if name != RESOLVER
             for line, expression in size_reads(text)]
    stray = [f"{name}:{line}: {expression}" for name, line, expression in reads if (name, expression) not in READ_ALLOWED]
    assert stray == [], "a card's size read beside the resolver: call models.card_size.resolve_card_size"
    assert {(name, expression) for name, _, expression in reads} == set(READ_ALLOWED)  # no stale exception
