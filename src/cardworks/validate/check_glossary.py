"""Terminology: a translation or rulebook text that uses a variant its locale's glossary forbids."""

from __future__ import annotations

from ..i18n.glossary import Terminology, glossary_locales
from ..loading.database import display_path
from ..loading.records import Index
from ..problems import ProblemList


def check_glossary(index: Index, out: ProblemList) -> None:
    """Warn at each forbidden variant, naming the required translation; error on a glossary for an unknown locale."""
    db = index.db
    game = db.game_doc
    for loaded, doc in db.docs("glossary"):
        if doc.locale not in game.locales:
            out.error(loaded.display, "/locale", "dangling-ref", f"game {game.id!r} has no locale {doc.locale!r}")
    for locale in glossary_locales(db):
        terms = Terminology(db, locale)
        for loaded, doc in db.docs("translations"):
            if doc.locale != locale:
                continue
            for record_id, fields in doc.entries.items():
                for field, translated in fields.items():
                    for hit in terms.hits(translated.text):
                        out.warning(loaded.display, f"/entries/{record_id}/{field}", "glossary",
                                    f"{hit.found!r} is a forbidden variant ({hit.variant}); "
                                    f"the glossary says {hit.term!r} is {hit.translation!r}")
        for path in sorted((db.game.root / "rules" / locale).glob("*.md")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                for hit in terms.hits(line):
                    out.warning(display_path(path), f"{number}", "glossary",
                                f"{hit.found!r} is a forbidden variant ({hit.variant}); "
                                f"the glossary says {hit.term!r} is {hit.translation!r}")
