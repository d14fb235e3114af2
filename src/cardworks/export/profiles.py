"""Print-shop profiles: what each shop takes, as data with a source for every figure.

A profile lives in ``export/profiles/<id>.json`` (shipped with the package).
Every fact is ``{"value": …, "source": …, "unverified": …}``: where the shop's
own documentation was not read, ``unverified`` says so, and the figure is
never presented as confirmed.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from ..errors import UsageError

T = TypeVar("T")


class Fact(BaseModel, Generic[T]):
    """One figure of a shop, where it comes from, and what about it is not confirmed."""

    model_config = ConfigDict(extra="forbid")
    value: T
    source: str
    unverified: str | None = None


class CardSize(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width_mm: float
    height_mm: float
    tolerance_mm: float = 1.0


class Canvas(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: int
    height: int


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
    card: Fact[CardSize | None]
    bleed_mm: Fact[float]
    dpi: Fact[int]
    canvas_px: Fact[Canvas | None]
    colour: Fact[Colour]
    max_ink_percent: Fact[int | None]
    pdf_standard: Fact[str | None]
    page_order: Fact[PageOrder]
    one_file_per: Fact[Literal["deck", "design"]]

    def takes(self, width_mm: float, height_mm: float) -> bool:
        """True when a card of this trim size can be printed by the shop."""
        size = self.card.value
        if size is None:
            return True
        return abs(size.width_mm - width_mm) <= size.tolerance_mm and abs(size.height_mm - height_mm) <= size.tolerance_mm

    def page_mm(self, trim_w: float, trim_h: float) -> tuple[float, float]:
        """The page (or image) size for a card of this trim: the shop's canvas, else trim plus bleed."""
        canvas = self.canvas_px.value
        if canvas is not None:
            return canvas.width / self.dpi.value * 25.4, canvas.height / self.dpi.value * 25.4
        return trim_w + 2 * self.bleed_mm.value, trim_h + 2 * self.bleed_mm.value

    def unverified(self) -> dict[str, str]:
        """Each fact that is not confirmed, with the reason."""
        return {name: fact.unverified for name, fact in self if isinstance(fact, Fact) and fact.unverified}


def _folder():
    return resources.files(__package__) / "profiles"


def profile_names() -> list[str]:
    """Ids of the shipped profiles, sorted."""
    return sorted(entry.name.removesuffix(".json") for entry in _folder().iterdir() if entry.name.endswith(".json"))


@lru_cache(maxsize=None)
def load_profile(name: str) -> Profile:
    """The profile ``name``; raises UsageError for an unknown one (naming the known ones)."""
    if name not in profile_names():
        raise UsageError(f"unknown print-shop profile {name!r}; choose from {', '.join(profile_names())}")
    entry = _folder() / f"{name}.json"
    data: Any = json.loads(entry.read_text(encoding="utf-8"))
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:  # a shipped file is broken: a bug, said plainly
        raise UsageError(f"profile file {name}.json is not valid: {exc}") from None
