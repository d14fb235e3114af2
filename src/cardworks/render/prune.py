"""Drop from a face page the fonts and drawn objects it never uses.

WeasyPrint gives every page of a document (and every form inside it) one shared resource dictionary, so a
face split out of a document of 16 faces carried the fonts and images of all 16: a cached art face weighed
16 illustrations. Here the page's content and every form and pattern it draws are read, and the names they
use are all that stays of ``/Font`` and ``/XObject`` (an inline image names neither). Anything the walk does
not understand (a Type 3 font, annotations, a name that is not there) leaves the page untouched: nothing it
draws is lost.
"""

from __future__ import annotations

import pikepdf

PRUNED = ("/Font", "/XObject")
"""The kinds of resources removed when unused (the heavy ones); the others stay as they are."""


class _Unsure(Exception):
    """The walk met something it cannot follow: the page keeps all its resources."""


def _key(obj: pikepdf.Object, owner: object) -> object:
    """A stable identity: the object number of an indirect object; for a direct one (pikepdf wraps it anew on
    every access), where it sits in ``owner``."""
    return obj.objgen if obj.is_indirect else owner


def _use(resources: pikepdf.Object, where: object, kind: str, name: str, used: dict) -> pikepdf.Object:
    """Record ``name`` as used in ``resources``' ``kind`` table (tables can be shared by several dictionaries,
    so names are gathered by table) and return what it names."""
    table = resources.get(kind)
    found = table.get(name) if isinstance(table, pikepdf.Dictionary) else None
    if found is None:
        raise _Unsure
    used.setdefault(_key(table, (where, kind)), (table, set()))[1].add(name)
    return found


def _resources(holder: pikepdf.Object, inherited: tuple[pikepdf.Object, object] | None) -> tuple[pikepdf.Object, object]:
    """The resource dictionary ``holder`` draws with (its own, else the one it inherits) and its identity."""
    own = holder.get("/Resources")
    if own is None:
        if inherited is None:
            raise _Unsure
        return inherited
    if not isinstance(own, pikepdf.Dictionary):
        raise _Unsure
    return own, _key(own, (holder.objgen, "/Resources"))


def _walk(holder: pikepdf.Object, inherited: tuple[pikepdf.Object, object] | None, used: dict, seen: set) -> None:
    """Record in ``used`` (table → the table and the names used in it) what ``holder``'s content draws."""
    resources, where = _resources(holder, inherited)
    for kind in PRUNED:  # a table is known even when this content names nothing in it
        table = resources.get(kind)
        if isinstance(table, pikepdf.Dictionary):
            used.setdefault(_key(table, (where, kind)), (table, set()))
    for operands, operator in pikepdf.parse_content_stream(holder):
        op = str(operator)
        if op == "Do":
            drawn = _use(resources, where, "/XObject", str(operands[0]), used)
            if drawn.get("/Subtype") == "/Form" and drawn.objgen not in seen:
                seen.add(drawn.objgen)
                _walk(drawn, (resources, where), used, seen)
        elif op == "Tf":
            if _use(resources, where, "/Font", str(operands[0]), used).get("/Subtype") == "/Type3":
                raise _Unsure
        elif op in ("scn", "SCN") and operands and isinstance(operands[-1], pikepdf.Name):
            patterns = resources.get("/Pattern")
            pattern = patterns.get(str(operands[-1])) if isinstance(patterns, pikepdf.Dictionary) else None
            if isinstance(pattern, pikepdf.Stream) and pattern.objgen not in seen:  # a tiling pattern draws content
                seen.add(pattern.objgen)
                _walk(pattern, (resources, where), used, seen)


def prune_resources(page: pikepdf.Page) -> bool:
    """Remove the fonts and objects ``page`` never draws from its resource dictionaries (it must be the only
    user of them, as a face split into its own PDF is). Returns False when the page was left as it was."""
    if "/Annots" in page.obj or "/Resources" not in page.obj:
        return False
    used: dict = {}
    seen: set = set()
    try:
        _walk(page.obj, None, used, seen)
        patterns = page.obj.Resources.get("/Pattern")
        for pattern in patterns.values() if isinstance(patterns, pikepdf.Dictionary) else ():
            if isinstance(pattern, pikepdf.Stream) and pattern.objgen not in seen:  # kept whole: what it draws stays
                seen.add(pattern.objgen)
                _walk(pattern, _resources(page.obj, None), used, seen)
    except _Unsure:
        return False
    for table, names in used.values():
        for name in [n for n in table.keys() if n not in names]:
            del table[name]
    return True
