"""Id checks: slugs, duplicates (also after normalisation), the frozen id list."""

from __future__ import annotations

from ..ids import fold, is_slug
from ..loading.jsonfile import pointer_escape
from ..problems import ProblemList
from ..loading.records import Index, has_id, model_fields_of


def check_ids(index: Index, out: ProblemList) -> None:
    """Every game-wide id is a slug and unique, exactly and after NFC + case folding."""
    exact: dict[str, str] = {}
    folded: dict[str, tuple[str, str]] = {}
    for record in index.records:
        if not is_slug(record.id):
            out.error(record.file.display, f"{record.pointer}/id", "id-not-slug",
                      f"id {record.id!r} must be a lowercase ASCII slug such as 'el-capita-moro'")
        if record.id in exact:
            out.error(record.file.display, f"{record.pointer}/id", "duplicate-id",
                      f"id {record.id!r} is already used by the {exact[record.id]}")
            continue
        key = fold(record.id)
        if key in folded:
            other, where = folded[key]
            out.error(record.file.display, f"{record.pointer}/id", "duplicate-id",
                      f"id {record.id!r} equals {other!r} ({where}) after Unicode normalisation and case folding")
            continue
        exact[record.id] = f"{record.kind} at {record.where}"
        folded[key] = (record.id, record.where)
    _check_scoped(index, out)


def _check_scoped(index: Index, out: ProblemList) -> None:
    """Ids of nested items (card types, faces, spaces, sides) are unique among their siblings."""
    for record in index.records:
        for pointer, model in index.nested(record):
            for name in model_fields_of(type(model)):  # a list of items with ids is a list of models
                items = getattr(model, name)
                if not isinstance(items, list) or not items or not has_id(type(items[0])):
                    continue
                seen: set[str] = set()
                for i, item in enumerate(items):
                    if fold(item.id) in seen:
                        out.error(record.file.display, f"{record.pointer}{pointer}/{name}/{i}/id", "duplicate-id",
                                  f"id {item.id!r} appears twice in this list")
                    seen.add(fold(item.id))


def check_frozen(index: Index, out: ProblemList) -> None:
    """Published ids never disappear, never change kind, and retired ids stay retired."""
    for bundle in index.db.bundles:
        locks = bundle.docs("ids")
        if not locks:
            continue
        loaded, lock = locks[0]
        current = {r.id: r for r in index.records if r.bundle is bundle}
        if index.game is not None and lock.game != index.game.id:
            out.error(loaded.display, "/game", "wrong-game", f"id list is for game {lock.game!r}, not {index.game.id!r}")
        for frozen_id, kind in lock.ids.items():
            record = current.get(frozen_id)
            if record is None:
                out.error(loaded.display, f"/ids/{pointer_escape(frozen_id)}", "frozen-id-missing",
                          f"published {kind} id {frozen_id!r} has disappeared; ids are never removed or renamed"
                          " (retire it on purpose by moving it to 'retired')")
            elif record.kind != kind:
                out.error(record.file.display, f"{record.pointer}/id", "frozen-id-reused",
                          f"id {frozen_id!r} was published for a {kind} and is now used for a {record.kind}")
        for retired in lock.retired:
            if retired in current:
                record = current[retired]
                out.error(record.file.display, f"{record.pointer}/id", "frozen-id-reused",
                          f"id {retired!r} was retired and may not be used again")
        for record_id, record in current.items():
            owners = record.bundle.overlay is not None and getattr(record.model, "set_certainty", None) == "owner"
            if record_id not in lock.ids and record_id not in lock.retired and not owners:  # an owner's new card
                # lives in their overlay only: it is never published
                out.warning(record.file.display, f"{record.pointer}/id", "id-not-frozen",
                            f"new id {record_id!r} is not in {loaded.display}; run 'cardworks freeze' to publish it")
