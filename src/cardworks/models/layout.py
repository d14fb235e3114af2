"""Sheet layouts as data: where cards, registration marks and fold or cut lines go on a sheet of paper.

A layout file gives either a rule (a grid, a gutterfold, print-and-cut, an image area), with its numbers
and where each comes from, from which the sheet for one paper and card size is worked out; or the
sheets themselves, slot by slot, the way Squib's sprues list them. Both come down to the same
:class:`~cardworks.models.sheets.Sheet`, which ``validate`` checks and the imposer draws.

All lengths are millimetres. Positions are measured from the sheet's bottom-left corner, x to the
right and y up (the axes of a PDF page), so a slot's numbers are those the PDF is drawn with.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from .base import Document, Model

PaperName = Literal["a4", "letter", "legal"]

Length = Annotated[float, Field(ge=0, le=2000, allow_inf_nan=False)]
Positive = Annotated[float, Field(gt=0, le=2000, allow_inf_nan=False)]
Coordinate = Annotated[float, Field(ge=-2000, le=2000, allow_inf_nan=False)]


class Slot(Model):
    """One card's place on a sheet."""

    x: Coordinate
    """Left edge of the card's trim as it lies on the sheet (after rotation), mm from the sheet's left edge."""
    y: Coordinate
    """Bottom edge of the card's trim as it lies on the sheet (after rotation), mm from the sheet's bottom edge."""
    rotation: Literal[0, 90, 180, 270] = 0
    """Anticlockwise turn of the face, degrees; at 90 and 270 the card takes its height across the sheet."""
    side: Literal["front", "back"] = "front"
    """Which face of the card this slot prints; a gutterfold sheet has both on one page."""
    card: int = Field(default=0, ge=0, le=999)
    """Which card of the sheet: a front and its back share the number."""


class Mark(Model):
    """A filled rectangle printed on the sheet: part of a registration mark, or a glue mark."""

    kind: Literal["registration", "glue"]
    x: Coordinate
    y: Coordinate
    width: Positive
    height: Positive


class Line(Model):
    """A printed line: a fold line, or a crop tick that shows where to cut."""

    kind: Literal["fold", "crop"]
    x1: Coordinate
    y1: Coordinate
    x2: Coordinate
    y2: Coordinate
    dashed: bool = False


class FixedSheet(Model):
    """A sheet listed slot by slot, for one paper and one card size (a sprue)."""

    paper: PaperName
    card_width: Positive
    """Trim width of the cards this sheet takes."""
    card_height: Positive
    """Trim height of the cards this sheet takes."""
    bleed: Length = 0.0
    """How much of each face's bleed shows around its trim (at most the bleed the faces have)."""
    slots: list[Slot] = Field(min_length=1, max_length=200)
    marks: list[Mark] = Field(default_factory=list, max_length=200)
    lines: list[Line] = Field(default_factory=list, max_length=1000)


class GridRule(Model):
    """Cards in rows and columns centred on the sheet, crop marks around them, backs on the next page."""

    kind: Literal["grid"]
    mark_length: Positive
    """Length of a crop tick."""
    mark_gap: Length
    """Space between a crop tick and the visible edge of the card it marks."""


class GutterfoldRule(Model):
    """Fronts on one half of the sheet and their backs on the other, turned so that folding on the line
    between the halves brings each back onto its front; the sheet is folded, glued and cut."""

    kind: Literal["gutterfold"]
    fold_gap: Positive
    """Space between the fold line and the nearest trim on each side."""
    spacing: Length
    """Space between neighbouring cards on one half."""
    mark_length: Positive
    """Length of a crop tick."""
    glue_mark: Positive
    """Side of the small square glue mark printed in the fold gap beside each pair."""


class Registration(Model):
    """Registration marks that a print-and-cut machine scans before cutting."""

    pattern: Literal["three", "four"]
    """``three``: L marks at the bottom-left and top-right and a filled square at the top-left;
    ``four``: L marks at all four corners."""
    inset: Positive
    """Distance from both paper edges to the centre line of each L mark's arms (and to the square's corner)."""
    thickness: Positive
    """Width of an L mark's arms."""
    length: Positive
    """Length of an L mark's arms measured from the corner's centre line, before it is lengthened to the
    room the cards leave."""
    max_length: Positive
    """Longest arm the marks are lengthened to."""
    padding: Length
    """Room added to ``length`` for the square corner zones no card may reach into on both axes."""
    square: Positive
    """Side of the filled square (three-mark pattern)."""


class PrintAndCutRule(Model):
    """Cards centred on the sheet in one orientation, a fixed distance apart, clear of registration marks;
    the page orientation is the one that fits the most cards."""

    kind: Literal["print-and-cut"]
    spacing: Positive
    """Distance between neighbouring trims; half of it shows as bleed."""
    registration: Registration
    corner_radius: Length
    """Radius of the cut file's rounded corners."""


class ImageAreaRule(Model):
    """Pages the size of a cutting machine's print-then-cut image area, cards centred on them with bleed."""

    kind: Literal["image-area"]
    width: Positive
    """Width of the image area (the page written)."""
    height: Positive
    """Height of the image area."""
    spacing: Length
    """Space between neighbouring trims; half of it (at most the faces' bleed) shows as bleed."""
    corner_radius: Length
    """Radius of the cut file's rounded corners."""


Rule = Annotated[Union[GridRule, GutterfoldRule, PrintAndCutRule, ImageAreaRule], Field(discriminator="kind")]


class LayoutFile(Document):
    """A sheet layout (``layouts/<name>.json``): the rule that places cards on a sheet, or its sheets."""

    description: str = Field(min_length=1, max_length=2000)
    """What the layout is for and how to use the sheets it makes."""
    sources: list[str] = Field(default_factory=list, max_length=50)
    """Where each number of the layout comes from."""
    papers: list[PaperName] = Field(min_length=1)
    """The papers the layout is made for."""
    margin: Length
    """The printable area: slots keep at least this far from every paper edge."""
    rule: Rule | None = None
    sheets: list[FixedSheet] = Field(default_factory=list, max_length=100)
    """Sheets listed slot by slot; for a paper and card size they list, they are used instead of the rule."""
