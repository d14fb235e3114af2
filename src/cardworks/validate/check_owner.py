"""The shipped database never carries the owner's copy: only an overlay merged at loading (``--facts``) may
cite it (certainty ``owner``), so a data file that does is an error."""

from __future__ import annotations

from ..loading.records import Index
from ..problems import ProblemList


def check_owner_certainty(index: Index, out: ProblemList) -> None:
    """Error at every place of a database file that gives the certainty ``owner`` (a game loaded with an
    overlay is checked for it by :mod:`cardworks.loading.overlay` before the merge, so it is skipped here)."""
    for record in index.records:
        if record.bundle.overlay is not None:
            continue
        for pointer, model in index.nested(record):
            for name in ("certainty", "set_certainty"):
                if getattr(model, name, None) == "owner":
                    out.error(record.file.display, f"{record.pointer}{pointer}/{name}", "owner-in-database",
                              "the certainty 'owner' is given only by an owner's facts overlay (--facts), never by "
                              "the database; cite the document that states the value")
