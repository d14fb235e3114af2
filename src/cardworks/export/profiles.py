"""Print-shop profiles: what each shop takes, as data with a source for every figure.

A profile lives in ``export/profiles/<id>.json`` (shipped with the package).
Every fact is ``{"value": …, "source": …, "unverified": …}``: where the shop's
own documentation was not read, ``unverified`` says so, and the figure is
never presented as confirmed.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from ..errors import UsageError
from .profile_files import profile_folder, profile_names

__all__ = ["CardSize", "Colour", "Fact", "Profile", "load_profile", "profile_names"]

T = TypeVar("T")


class Fact(BaseModel, Generic[T]):
    """One figure of a shop, where it comes from, and what about it is not confirmed."""

    model_config = ConfigDict(extra="forbid")
    value: T
    source: str
    unverified: str | None = None


class Canvas(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: int
    height: int


class CardSize(BaseModel):
    """One row of a shop's size table: a trim size it prints, the canvas it wants for it, and where that is written."""

    model_config = ConfigDict(extra="forbid")
    name: str
    width_mm: float
    height_mm: float
    tolerance_mm: float = 1.0
    canvas_px: Canvas | None = None
    """The image the shop wants for this size (PNG shops); None: trim plus the profile's bleed."""
    safe_mm: float | None = None
    """How far inside the trim text must stay; None: no source read gives it (said so, never assumed)."""
    source: str
    unverified: str | None = None

    def describe(self, profile: "Profile") -> dict[str, Any]:
        """The size as ``export.json`` records it: trim, canvas or page, bleed, safe area, colour and format, with
        its source and what about it is not confirmed."""
        page_w, page_h = profile.page_mm(self.width_mm, self.height_mm)
        return {"size": self.name, "trim_mm": [self.width_mm, self.height_mm],
                "page_mm": [round(page_w, 3), round(page_h, 3)],
                "canvas_px": [self.canvas_px.width, self.canvas_px.height] if self.canvas_px else None,
                "bleed_mm": round((page_w - self.width_mm) / 2, 3), "safe_mm": self.safe_mm,
                "colour": profile.colour.value.space, "format": profile.output,
                "source": self.source, "unverified": self.unverified}

    def fits(self, width_mm: float, height_mm: float) -> bool:
        return abs(self.width_mm - width_mm) <= self.tolerance_mm and abs(self.height_mm - height_mm) <= self.tolerance_mm


class Colour(BaseModel):
    model_config = ConfigDict(extra="forbid")
    space: Literal["RGB", "CMYK"]
    icc: str | None = None
    icc_package: str | None = None
    icc_description: str | None = None
    output_condition: str | None = None
    output_condition_identifier: str | None = None


PageOrder = Literal["front-back", "fronts-then-back", "one-image-per-design"]


class Profile(BaseModel):
    """A print shop's requirements."""

    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    output: Literal["pdf", "pdf-x1a", "png"]
    sizes: Fact[list[CardSize] | None]
    """The card sizes the shop takes, one row each; None: any size (the card's own trim is kept)."""
    bleed_mm: Fact[float]
    dpi: Fact[int]
    colour: Fact[Colour]
    max_ink_percent: Fact[int | None]
    pdf_standard: Fact[str | None]
    page_order: Fact[PageOrder]
    one_file_per: Fact[Literal["deck", "design"]]

    def size_for(self, width_mm: float, height_mm: float) -> CardSize | None:
        """The row of the size table that a card of this trim matches (None also when any size is taken)."""
        return next((row for row in self.sizes.value or [] if row.fits(width_mm, height_mm)), None)

    def takes(self, width_mm: float, height_mm: float) -> bool:
        """True when a card of this trim size can be printed by the shop."""
        return self.sizes.value is None or self.size_for(width_mm, height_mm) is not None

    def size_names(self) -> str:
        """The sizes the shop takes, for messages."""
        if self.sizes.value is None:
            return "any size"
        return ", ".join(f"{row.name} {row.width_mm:g} × {row.height_mm:g} mm (± {row.tolerance_mm:g})"
                         for row in self.sizes.value)

    def canvas_for(self, width_mm: float, height_mm: float) -> Canvas | None:
        row = self.size_for(width_mm, height_mm)
        return row.canvas_px if row is not None else None

    def page_mm(self, trim_w: float, trim_h: float) -> tuple[float, float]:
        """The page (or image) size for a card of this trim: the shop's canvas for that size, else trim plus bleed."""
        canvas = self.canvas_for(trim_w, trim_h)
        if canvas is not None:
            return canvas.width / self.dpi.value * 25.4, canvas.height / self.dpi.value * 25.4
        return trim_w + 2 * self.bleed_mm.value, trim_h + 2 * self.bleed_mm.value

    def page_px(self, trim_w: float, trim_h: float) -> tuple[int, int]:
        """The pixel size of a card image of this trim at the profile's resolution."""
        canvas = self.canvas_for(trim_w, trim_h)
        if canvas is not None:
            return canvas.width, canvas.height
        width, height = self.page_mm(trim_w, trim_h)
        return round(width / 25.4 * self.dpi.value), round(height / 25.4 * self.dpi.value)

    def unverified(self) -> dict[str, str]:
        """Each fact (and each row of the size table) that is not confirmed, with the reason."""
        notes = {name: fact.unverified for name, fact in self if isinstance(fact, Fact) and fact.unverified}
        notes.update({f"sizes/{row.name}": row.unverified for row in self.sizes.value or [] if row.unverified})
        return notes


@lru_cache(maxsize=None)
def load_profile(name: str) -> Profile:
    """The profile ``name``; raises UsageError for an unknown one (naming the known ones)."""
    if name not in profile_names():
        raise UsageError(f"unknown print-shop profile {name!r}; choose from {', '.join(profile_names())}")
    entry = profile_folder() / f"{name}.json"
    data: Any = json.loads(entry.read_text(encoding="utf-8"))
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:  # a shipped file is broken: a bug, said plainly
        raise UsageError(f"profile file {name}.json is not valid: {exc}") from None
