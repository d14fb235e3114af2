"""An import stopped half-way whose journal is still there after reading the folder (which finishes any it can,
see :func:`cardworks.journal.settle`): some files hold the new data and others the old."""

from __future__ import annotations

from ..journal import JOURNAL, pending
from ..loading.database import Database, display_path
from ..problems import ProblemList


def check_imports(db: Database, out: ProblemList) -> None:
    """Report every game or pack folder holding the journal of an interrupted import (``import-half-applied``)."""
    for root in db.roots:
        found = pending(root)
        if found is None:
            continue
        left, total = found
        if not total:
            what = "its journal cannot be read or lists files no import writes (finish or undo it by hand)"
        elif left:
            what = f"{left} of its {total} file(s) are not yet in place, so the data is partly old and partly new"
        else:
            what = f"all its {total} file(s) are in place but its journal was left"
        out.error(display_path(root / JOURNAL), "", "import-half-applied",
                  f"an import was stopped while writing its files: {what}; reading the folder could not finish "
                  "it (another import holds the folder, or it cannot be written); the next command that reads the "
                  "folder when it can be written finishes it")
