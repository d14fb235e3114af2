"""Which pages of a PDF really need transparency, and the transparency groups dropped from the others.

PDF/X-1a allows no transparency, so Ghostscript flattens every page that has
some into one image: its text is no longer text. WeasyPrint wraps opaque
drawings in transparency groups, and a group alone makes Ghostscript treat a
page as transparent. The decision is made page by page: a page whose drawing
(its resources, the forms, patterns and Type 3 fonts in them, followed to any
depth) sets no opacity under 1, no soft mask, no blend mode and draws no image
with an alpha channel loses its groups and stays vector; a page that has any
of these keeps them, is flattened by Ghostscript, and the reason is reported.
One transparent page used to keep the groups of the whole file.
"""

from __future__ import annotations

from dataclasses import dataclass

import pikepdf

__all__ = ["PageTransparency", "drop_opaque_groups"]

NORMAL_BLENDS = ("/Normal", "/Compatible")
MAX_DEPTH = 32


@dataclass(frozen=True)
class PageTransparency:
    """One page: what in it needs transparency (empty: nothing, the page stays vector)."""

    number: int
    reasons: tuple[str, ...]

    @property
    def flattened(self) -> bool:
        return bool(self.reasons)


def _graphics_states(resources: pikepdf.Object) -> set[str]:
    """What the graphics states a content stream can set do that needs transparency."""
    found = set()
    states = resources.get("/ExtGState", pikepdf.Dictionary())
    for key in states.keys():
        state = states[key]
        if not isinstance(state, pikepdf.Dictionary):
            continue
        if "/SMask" in state and state.SMask != pikepdf.Name("/None"):
            found.add("a soft mask")
        for alpha in ("/ca", "/CA"):
            if alpha in state and float(state[alpha]) < 1:
                found.add(f"opacity {float(state[alpha]):g}")
        if "/BM" in state:
            blend = state.BM[0] if isinstance(state.BM, pikepdf.Array) and len(state.BM) else state.BM
            if str(blend) not in NORMAL_BLENDS:
                found.add(f"blend mode {str(blend)[1:]}")
    return found


def _children(container: pikepdf.Object) -> tuple[set[str], list[pikepdf.Object]]:
    """What ``container``'s own resources need (graphics states, images with alpha) and the drawings it can
    paint: forms, patterns, Type 3 fonts."""
    resources = container.get("/Resources")
    if not isinstance(resources, pikepdf.Dictionary):
        return set(), []
    found = _graphics_states(resources)
    children = []
    xobjects = resources.get("/XObject", pikepdf.Dictionary())
    for key in xobjects.keys():
        xobject = xobjects[key]
        if xobject.get("/Subtype") == "/Image":
            if "/SMask" in xobject or xobject.get("/SMaskInData", 0):
                found.add("an image with an alpha channel")
        elif xobject.get("/Subtype") == "/Form":
            children.append(xobject)
    patterns = resources.get("/Pattern", pikepdf.Dictionary())
    for key in patterns.keys():
        pattern = patterns[key]
        if "/ExtGState" in pattern:
            found |= _graphics_states(pikepdf.Dictionary(ExtGState=pikepdf.Dictionary(P=pattern.ExtGState)))
        children.append(pattern)
    fonts = resources.get("/Font", pikepdf.Dictionary())
    children += [fonts[key] for key in fonts.keys() if fonts[key].get("/Subtype") == "/Type3"]
    return found, children


class _Walk:
    """One pass over the pages: what each drawing needs (itself and everything it paints, memoised by object), which
    forms each page reaches, and which forms are painted where a translucent state may be set."""

    def __init__(self) -> None:
        self.needs: dict[tuple[int, int], frozenset[str]] = {}
        self.under_alpha: set[tuple[int, int]] = set()

    def subtree(self, obj: pikepdf.Object, depth: int = 0) -> frozenset[str]:
        key = obj.objgen if obj.is_indirect else None
        if key is not None and key in self.needs:
            return self.needs[key]
        if depth > MAX_DEPTH:
            return frozenset({f"drawing nested deeper than {MAX_DEPTH} levels"})
        if key is not None:
            self.needs[key] = frozenset()  # a loop is cut here
        own, children = _children(obj)
        needs = set(own)
        for child in children:
            needs |= self.subtree(child, depth + 1)
        result = frozenset(needs)
        if key is not None:
            self.needs[key] = result
        return result

    def reach(self, obj: pikepdf.Object, under: bool, forms: set, depth: int = 0) -> None:
        """Every drawing ``obj`` paints, into ``forms``; those painted where a translucent state may be set (by
        ``obj`` or a drawing around it) are remembered: their groups decide how the whole drawing blends."""
        if depth > MAX_DEPTH:
            return
        own, children = _children(obj)
        under = under or any(not reason.startswith("an image") for reason in own)
        for child in children:
            if not child.is_indirect:
                self.reach(child, under, forms, depth + 1)
                continue
            seen = child.objgen in forms and (not under or child.objgen in self.under_alpha)
            forms.add(child.objgen)
            if under:
                self.under_alpha.add(child.objgen)
            if not seen:
                self.reach(child, under, forms, depth + 1)


def drop_opaque_groups(pdf: pikepdf.Pdf) -> list[PageTransparency]:
    """Remove the transparency groups of every page and form whose drawing needs no transparency; return, for each
    page, what in it needs transparency (empty: the page keeps no group and stays vector)."""
    walk = _Walk()
    reached: list[set] = []
    for page in pdf.pages:
        forms: set = set()
        walk.reach(page.obj, False, forms)
        reached.append(forms)
    grouped = set()
    for forms in reached:
        for objgen in forms:
            form = pdf.get_object(objgen)
            if "/Group" not in form:
                continue
            if walk.subtree(form) or objgen in walk.under_alpha:
                grouped.add(objgen)
            else:
                del form["/Group"]
    result = []
    for number, (page, forms) in enumerate(zip(pdf.pages, reached), 1):
        reasons = set(walk.subtree(page.obj))
        if not reasons and forms & grouped:
            reasons.add("it draws a drawing that another page paints translucently")
        if not reasons and "/Group" in page.obj:
            del page.obj["/Group"]
        result.append(PageTransparency(number, tuple(sorted(reasons))))
    return result
