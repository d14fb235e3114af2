"""One card face on demand, through the face cache: for previews and a ``serve`` command.

``face_pdf(db, card_id, locale, cache_dir)`` gives the one-page PDF of a design's
face (trim + bleed) exactly as a build would print it, laying it out only when
the cache has no page for what it shows; ``face_png`` rasterises it.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..loading.database import Database
from ..loading.records import Index
from .deck import Deck, DeckCard
from .facecache import FaceCache, deck_faces
from .faces import build_job
from .fetcher import refusal_error
from .printshop import render_pngs


def face_pdf(db: Database, card_id: str, locale: str, cache_dir: Path, allow_fallback: bool = False) -> bytes:
    """The face of ``card_id`` in ``locale`` as a one-page PDF, from the cache in ``cache_dir`` or laid out now.

    Raises :class:`UsageError` for an unknown card or locale and :class:`DataError` for a missing translation
    (unless ``allow_fallback``), a failing template or a file the fetcher refused (each named).
    """
    game = db.game_doc
    if locale not in game.locales and locale != "qps-ploc":
        raise UsageError(f"game {game.id!r} has no locale {locale!r}; it has {', '.join(game.locales)}")
    record = next((r for r in Index(db).of_kind("card") if r.id == card_id), None)
    if record is None:
        raise UsageError(f"no card {card_id!r} in {db.output_id}")
    deck = Deck(game, card_id, None, (DeckCard(record.model, record.set_id or "", 1, "default"),), ())
    job = build_job(db, deck, locale, allow_fallback)
    job.faces = [face for face in job.faces if face.id == card_id]
    result = deck_faces(job, FaceCache(cache_dir))
    if result.refused:
        raise refusal_error(result.refused, f"the face of {card_id} in {locale}")
    return result.faces[card_id].pdf


def face_png(db: Database, card_id: str, locale: str, cache_dir: Path, dpi: int = 150,
             allow_fallback: bool = False) -> bytes:
    """The face of ``card_id`` in ``locale`` as PNG bytes at ``dpi``."""
    pdf = face_pdf(db, card_id, locale, cache_dir, allow_fallback)
    return next(iter(render_pngs(pdf, [card_id], Path("."), dpi).values()))
