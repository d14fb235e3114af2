"""SVG bombs that hide from the element count: a ``<use>`` bomb inside an XML entity, one inside a ``data:`` URL
(an SVG nested as an image), art that comes through an external entity. Entities and nested SVG are refused
outright (see the README's hostile paragraph), by ``validate`` at the art's JSON pointer and again by the
renderer's fetcher for an image a template writes inline."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from corpus import cardworks, judge, mini  # noqa: F401  (fixtures)
from test_svg import nested_use_svg, png_header

FAMILY = "templates/svg"
SVG_NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'


def entity_bomb() -> bytes:
    """The nested ``<use>`` groups of :func:`nested_use_svg` declared in an entity, expanded into ``<defs>``."""
    groups = nested_use_svg().split("<defs>", 1)[1].split("</defs>", 1)[0].replace('"', "'")
    return (f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY b "{groups}">]>'
            f'<svg {SVG_NS} viewBox="0 0 64 64"><defs>&b;</defs><use href="#g10"/></svg>').encode()


def data_bomb(media: str = "image/svg+xml") -> bytes:
    """An innocent SVG that draws the ``<use>`` bomb as an image given inline as a base64 ``data:`` URL."""
    inline = base64.b64encode(nested_use_svg().encode()).decode()
    return (f'<svg {SVG_NS} viewBox="0 0 64 64"><image width="64" height="64" '
            f'href="data:{media};base64,{inline}"/></svg>').encode()


def external_entity() -> bytes:
    return (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY art SYSTEM "art/real.svg">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">&art;</svg>')


def inline_png(width: int, height: int) -> bytes:
    inline = base64.b64encode(png_header(width, height)).decode()
    return f'<svg {SVG_NS}><image width="8" height="8" xlink:href="data:image/png;base64,{inline}"/></svg>'.encode()


ART_CASES = {
    "<use> bomb inside an internal entity": (entity_bomb(), "svg-entity"),
    "<use> bomb inside a data: SVG image": (data_bomb(), "svg-nested"),
    "<use> bomb inside a data: URL named text/plain": (data_bomb("text/plain"), "svg-nested"),
    "art through an external entity": (external_entity(), "svg-entity"),
    "SVG drawing another SVG file as an image": (
        f'<svg {SVG_NS}><image width="8" height="8" href="other.svg"/></svg>'.encode(), "svg-nested"),
    "SVG drawing a 20000 x 20000 PNG given inline": (inline_png(20000, 20000), "image-too-large"),
    "SVG named .png": (b'<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>', "image-unreadable"),
}


def _with_art(mini, arts: dict[str, bytes]) -> dict[str, str]:
    """Each image in ``arts`` becomes the art of a card of its own (cards added as needed); returns the name →
    JSON pointer of the card's ``art``."""
    (mini.root / "art").mkdir(exist_ok=True)
    sets = mini.root / "sets" / "base.json"
    doc = json.loads(sets.read_text())
    pointers = {}
    for i, (name, data) in enumerate(arts.items()):
        (mini.root / "art" / name).write_bytes(data)
        if i >= len(doc["cards"]):
            doc["cards"].append({**doc["cards"][0], "id": f"extra-{i}", "name": f"extra {i}"})
        doc["cards"][i]["art"] = f"art/{name}"
        pointers[name] = f"/cards/{i}/art"
    sets.write_text(json.dumps(doc))
    return pointers


def test_svg_art_bombs_are_refused_at_their_pointers(mini) -> None:
    """One ``validate`` run over a card per case (a run costs a second); each case is judged on its own line."""
    names = {case: f"bomb-{i}.png" if case.endswith(".png") else f"bomb-{i}.svg" for i, case in enumerate(ART_CASES)}
    pointers = _with_art(mini, {names[case]: data for case, (data, _) in ART_CASES.items()})
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    failed = []
    for case, (_, code) in ART_CASES.items():
        try:
            judge(case, FAMILY, result, refuse=True, names=f"{pointers[names[case]]}:", code=code)
        except AssertionError as exc:
            failed.append(str(exc).splitlines()[0])
    assert not failed, "\n".join(failed)


def test_plain_svg_art_with_a_public_doctype_and_inline_png_is_accepted(mini) -> None:
    """The refusals above stop at entities and nested SVG: an Inkscape-style DOCTYPE and a small inline PNG pass."""
    svg = (b'<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
           b'"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">' + inline_png(8, 8).replace(b"<svg ", b"<svg viewBox='0 0 8 8' ", 1))
    _with_art(mini, {"fine.svg": svg})
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=20)
    judge("SVG art with a public DOCTYPE and an inline 8 x 8 PNG", FAMILY, result, refuse=False)


@pytest.mark.parametrize("url_media", ["image/svg+xml", "text/plain"])
def test_fetcher_refuses_an_inline_svg_bomb(tmp_path: Path, url_media: str) -> None:
    """A template may write an image inline; the fetcher holds a ``data:`` image to the bounds of a file."""
    from cardworks.render.fetcher import refusal_error, safe_fetcher

    fetcher = safe_fetcher([tmp_path])
    url = f"data:{url_media};base64," + base64.b64encode(nested_use_svg().encode()).decode()
    with pytest.raises(ValueError):
        fetcher.fetch(url)
    problems = refusal_error(fetcher.refused, "mini en cards").problems
    assert [(p.file, p.code) for p in problems] == [(f"data:{url_media} (an inline image)", "svg-too-complex")]
    harmless = "data:image/svg+xml;base64," + base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg"/>').decode()
    assert fetcher.fetch(harmless) is not None
