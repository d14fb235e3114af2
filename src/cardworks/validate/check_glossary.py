"""Terminology: a text of a locale that uses a variant its glossary forbids, or a form its standard avoids.

Every prose a document prints is searched: the translations (card texts, rulings' questions and answers,
components, documents), the rulebook and FAQ sources (``rules/<locale>/*.md``) and the document labels
(``templates/docs/labels/<locale>.json``), so that a term is the same on a card, in the rulebook and in the FAQ.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..i18n.glossary import Terminology, glossary_locales
from ..loading.database import display_path
from ..loading.records import Index
from ..problems import ProblemList
from .check_labels import labels_folder


def check_glossary(index: Index, out: ProblemList, labels: Path | None = None) -> None:
    """Warn at each forbidden variant or avoided form, naming what to write; error on a glossary for an
    unknown locale. ``labels`` is the label folder (the shipped one by default)."""
    db = index.db
    game = db.game_doc
    for loaded, doc in db.docs("glossary"):
        if doc.locale not in game.locales:
            out.error(loaded.display, "/locale", "dangling-ref", f"game {game.id!r} has no locale {doc.locale!r}")
    for locale in glossary_locales(db):
        terms = Terminology(db, locale)

        def report(file: str, location: str, text: str) -> None:
            for hit in terms.hits(text):
                out.warning(file, location, hit.code, hit.message)

        for loaded, doc in db.docs("translations"):
            if doc.locale != locale:
                continue
            for record_id, fields in doc.entries.items():
                for field, translated in fields.items():
                    report(loaded.display, f"/entries/{record_id}/{field}", translated.text)
        for path in sorted((db.game.root / "rules" / locale).glob("*.md")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                report(display_path(path), f"{number}", line)
        label_file = (labels or labels_folder()) / f"{locale}.json"
        shown = display_path(label_file)
        said = {(p.location, p.message) for p in out.items if p.file == shown}
        for key, text in _labels(label_file).items():
            for hit in terms.hits(text):
                if (f"/{key}", hit.message) not in said:  # the labels are shared: once, whichever game asks first
                    out.warning(shown, f"/{key}", hit.code, hit.message)


def _labels(path: Path) -> dict[str, str]:
    """The string labels of one locale's file; nothing when it is missing or broken (``check_labels`` reports
    a broken file)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: text for key, text in data.items() if isinstance(text, str)}
