"""The face layout at six card sizes (issue 33): the shipped expert deck's texts laid out at each size, read
from WeasyPrint's layout (``render.measure``): no face overflows that does not at poker size (but on a mini card,
where the text keeps the poker face's type size in a smaller box: there only the densest texts may), no face
leaves a taller empty band than it does at poker size (nor more than a quarter of its height where poker does
not), and every face prints its type at or above the minimum (issue 44) but for a rules text shrunk to the last
step, which the legibility check reports."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardworks.loading import load_database
from cardworks.render import faces as faces_module
from cardworks.render.deck import build_deck
from cardworks.render.faces import Face, build_job, chunks, layout_document, render_faces, templates_dir
from cardworks.render.fetcher import safe_fetcher
from cardworks.render.fonts import font_folders
from cardworks.models.face import FaceGeometry, face_geometry
from cardworks.render.measure import unused_height
from conftest import REPO

pytestmark = pytest.mark.slow

SIZES = {"poker": (63, 88), "bridge": (57, 89), "mini": (44.5, 63.5), "tarot": (70, 120), "square": (70, 70),
         "landscape": (88, 63)}
"""Trim sizes in mm (research/print-and-play-anchors.md, CLS Renderer's list; landscape is poker turned)."""
QUARTER = 0.25
SLACK = 0.04
"""One line of rules text (8 pt × 1.18 ≈ 3.3 mm of an 88 mm card): line breaks are discrete, so a text set a
little larger on a wider card may take one line fewer or more than on a poker card."""


def _game_at(folder: Path, size: tuple[float, float]) -> Path:
    game = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    game["card_size"] = {"width_mm": size[0], "height_mm": size[1]}
    (folder / "game.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    return folder


FITS: dict[str, dict[str, int]] = {}
"""Size name → face → the rules text's fit step there (filled as the sizes are laid out)."""
SIZES_PT: dict[str, dict[str, dict[str, float]]] = {}
"""Size name → face → part → printed type size in points."""
DENSE = 3
"""A poker face whose rules text needs this fit step or a later one (6.5 pt or less) holds more text than a mini
card can print at 6 pt."""


def _laid_out(folder: Path, only: set[str] | None = None,
              name: str = "") -> tuple[dict[str, tuple[str, ...]], dict[str, float]]:
    """The expert deck (en) at the game's current size: overflowing faces with their parts, and each face's
    tallest empty band (a fraction of its height), measured on the layout at each face's final text size."""
    db = load_database(folder)
    job = build_job(db, build_deck(db, "expert"), "en")
    job.faces = [face for face in job.faces if isinstance(face, Face) and (only is None or face.id in only)]
    result = render_faces(job)  # fits each face's rules text (Face.fit is kept on the job's faces)
    if name:
        FITS[name], SIZES_PT[name] = dict(result.fits), dict(result.sizes)
    fetcher = safe_fetcher([templates_dir(), *map(Path, job.roots), *font_folders()])
    unused: dict[str, float] = {}
    for part in chunks(job.faces):
        unused.update(unused_height(layout_document(job, part, fetcher)))
    return {face: result.parts.get(face, ()) for face in result.overflow}, unused


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict[str, tuple[dict[str, tuple[str, ...]], dict[str, float]]]:
    folder = tmp_path_factory.mktemp("sizes") / "fallera"
    shutil.copytree(REPO / "cards" / "fallera", folder)
    return {name: _laid_out(_game_at(folder, size), name=name) for name, size in SIZES.items()}


def test_no_face_overflows_at_any_size_that_does_not_at_poker(measured) -> None:
    poker, _ = measured["poker"]
    assert len(measured) >= 2  # poker and at least one other size
    for name, (overflow, unused) in measured.items():
        assert len(unused) == len(measured["poker"][1]), name
        worse = {face: parts for face, parts in overflow.items() if not set(parts) <= set(poker.get(face, ()))}
        if name == "mini":  # legible type in a smaller box: a dense text, or a long title, may not fit
            worse = {face: parts for face, parts in worse.items()
                     if not (parts == ("name",) or FITS["poker"][face] >= DENSE)}
        assert not worse, (name, worse)


def test_every_face_prints_its_type_at_or_above_the_minimum(measured) -> None:
    """Issue 44: at every size the face prints every part at or above its minimum (render.legibility), but for a
    rules text on a mini card that the fit shrank to its last step (5.5 pt), which the build reports."""
    from cardworks.models.pack import TypeMinimum
    from cardworks.render.faces import FIT_STEPS
    from cardworks.render.legibility import too_small

    assert set(SIZES_PT) == set(SIZES)
    for name, faces in SIZES_PT.items():
        assert len(faces) == len(FITS["poker"]), name
        for face, sizes in faces.items():
            assert {"name", "legend"} <= set(sizes) or "legend" not in sizes, (name, face, sizes)
            small = too_small(sizes, TypeMinimum())
            if name == "mini" and set(small) == {"rules"} and FITS[name][face] == FIT_STEPS - 1:
                continue  # a long text on a mini card: shrunk as far as the fit goes, and reported
            assert not small, (name, face, small)


def test_no_face_leaves_more_unused_than_at_poker_nor_a_quarter(measured) -> None:
    _, poker = measured["poker"]
    for name, (_, unused) in measured.items():
        emptier = {face: (round(poker[face], 3), round(value, 3)) for face, value in unused.items()
                   if value > max(QUARTER, poker[face]) + SLACK}
        assert not emptier, (name, emptier)
    within = [face for face, value in poker.items() if value <= QUARTER]
    assert len(within) >= len(poker) // 2  # the faces with rules text; textless ones leave half the card at poker too


def _unscaled(trim_w: float, trim_h: float) -> FaceGeometry:
    """The layout before issue 33: the poker face's boxes at any size, only the rules box stretched."""
    return FaceGeometry(1.0, trim_w, trim_h, 31.0, 41.2, 48.0, max(8.0, 27.5 + trim_h - 88.0))


def test_the_measure_fails_the_unscaled_layout_on_tarot(tmp_path: Path, monkeypatch) -> None:
    """Without the proportional layout, tarot faces with rules text leave their lower part empty: the check
    above fails."""
    folder = tmp_path / "fallera"
    shutil.copytree(REPO / "cards" / "fallera", folder)
    sample = {"el-butoni", "batalla-d-almansa", "la-riua", "muralla-de-morella"}
    _, poker = _laid_out(_game_at(folder, SIZES["poker"]), sample)
    monkeypatch.setattr(faces_module, "face_geometry", _unscaled)
    _, tarot = _laid_out(_game_at(folder, SIZES["tarot"]), sample)
    assert all(tarot[face] > max(QUARTER, poker[face]) + SLACK for face in sample), (poker, tarot)
    monkeypatch.undo()
    _, scaled = _laid_out(folder, sample)
    assert all(scaled[face] <= max(QUARTER, poker[face]) + SLACK for face in sample), (poker, scaled)
    assert face_geometry(*SIZES["tarot"]).scale == pytest.approx(70 / 63)
