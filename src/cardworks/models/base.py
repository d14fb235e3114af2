"""Shared building blocks of the database models.

Every model forbids unknown fields and is strict (a number given as a string is
an error, not a conversion), because the data is typed by hand and a silent
coercion hides a typo. Field docstrings become JSON Schema descriptions.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

#: Marker put on translatable fields; the translation walker and the JSON
#: Schema (``x-translatable``) both read it.
TRANSLATABLE: dict[str, Any] = {"x-translatable": True}

#: Marker put on translatable fields that hold card-text markup (``{token}``).
MARKUP: dict[str, Any] = {"x-translatable": True, "x-markup": True}


class Model(BaseModel):
    """Base of every database model: strict, closed, documented."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        use_attribute_docstrings=True,
        populate_by_name=True,
    )


class Document(Model):
    """Base of a whole data file: it names the JSON Schema that describes it."""

    schema_ref: str = Field(alias="$schema")
    """Path or URL of this file's JSON Schema, so editors complete and check it."""


#: An identifier. The schema only forbids whitespace and markup characters;
#: the validator further requires a lowercase ASCII slug and reports ids that
#: collide after Unicode normalisation or case folding.
Id = Annotated[str, StringConstraints(pattern=r"^[^\s{}/\\]+$", min_length=1, max_length=80)]

#: A reference to an id declared elsewhere in the same game.
Ref = Id

#: A BCP 47-like locale tag, e.g. ``en``, ``es``, ``ca-valencia``.
Locale = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")]

#: A path to a file inside the game folder or pack, written with ``/``.
RelPath = Annotated[str, StringConstraints(min_length=1, max_length=255)]

#: A line or line range in a document's text, e.g. ``24`` or ``39-51``.
Lines = Annotated[str, StringConstraints(pattern=r"^[0-9]+(-[0-9]+)?$")]

Certainty = Literal["stated", "inferred", "external", "unverified", "owner"]
"""``owner`` is given only by an owner's overlay (``cardworks facts import``, ``--facts``): a value its owner
read from their own copy of the game, never written into the shipped database."""


class Source(Model):
    """Where a fact comes from: a document of the game, a place in it, and how sure it is."""

    doc: Ref
    """Id of a document declared in the game's ``documents``."""
    section: str | None = None
    """Section heading in that document."""
    lines: Lines | None = None
    """Line or line range in the document's text, e.g. ``24`` or ``39-51``."""
    certainty: Certainty = "stated"
    """``stated``: the document says it; ``inferred``: it follows from the wording;
    ``external``: a public source outside the rulebooks; ``unverified``: a figure
    nobody has confirmed, never to be printed as a fact; ``owner``: read by the kit's owner from their
    own copy of the game (only an owner's-facts overlay gives it, never the shipped database)."""
    facts: list[str] = Field(default_factory=list)
    """Fields this source supports, as paths inside the record (``stats/attack``,
    ``quantity``, ``rules``). Empty: the record's existence and name."""
    note: str | None = None
    """Why the source supports the fact, for a reviewer."""
