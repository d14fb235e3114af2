"""How sure a field is: the least sure source naming it, or None when no source names it."""

from __future__ import annotations

from cardworks.models.base import Source
from cardworks.models.certainty import field_certainty, is_stated


def _source(certainty: str, *facts: str) -> Source:
    return Source(doc="rules", certainty=certainty, facts=list(facts))


def test_the_least_sure_source_naming_a_field_decides() -> None:
    sources = [_source("stated", "rules"), _source("inferred", "rules"), _source("unverified", "types")]
    assert field_certainty(sources, "rules") == "inferred"
    assert field_certainty(sources, "types") == "unverified"
    assert not is_stated(sources, "rules")


def test_a_field_is_named_by_its_own_path_a_part_of_it_or_a_whole_it_belongs_to() -> None:
    sources = [_source("stated", "stats/attack"), _source("external", "attributes")]
    assert field_certainty(sources, "stats/attack") == "stated"
    assert field_certainty(sources, "stats") == "stated"  # a part of the stats is sourced
    assert field_certainty(sources, "attributes/treasure-kind") == "external"  # the whole is
    assert field_certainty(sources, "stats/defence") is None
    assert not is_stated(sources, "stats/defence"), "a field no source names is not stated"


def test_a_source_naming_nothing_supports_no_field() -> None:
    assert field_certainty([_source("stated")], "rules") is None
