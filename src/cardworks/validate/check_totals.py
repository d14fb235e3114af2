"""Completeness: each set against its declared totals, unknown and assumed values, missing facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ..problems import ProblemList
from ..loading.records import Index, Record
from ..models.certainty import field_certainty


@dataclass
class SetCompleteness:
    """How much of a set the database knows, against what the set declares."""

    set_id: str
    file: str
    designs: int
    designs_declared: int | None
    cards: int
    """Physical cards counted from known quantities."""
    cards_declared: int | None
    unknown_quantity: int
    """Designs whose quantity no source gives."""
    by_type: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    unknown_values: int = 0
    """Quantities, applicable stats and attributes that are null."""
    assumed_values: int = 0
    """Values the assumptions files supply for this set's cards."""
    missing_facts: int = 0
    """Facts about what the set's cards do that no source gives, as the cards record them (``missing``)."""

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "by_type": {k: {"known": v[0], "declared": v[1]} for k, v in self.by_type.items()}}


def _unknown_values(card: Any, index: Index) -> int:
    count = int(card.quantity is None)
    own = bool(index.game.card_fields)  # a designer's own game: a number its sheet leaves empty is not printed
    for stat in index.game.stats:
        if own and stat.id not in card.stats:
            continue
        if set(stat.applies_to) & set(card.types) and stat.default is None and card.stats.get(stat.id) is None:
            count += 1
    count += sum(1 for value in card.attributes.values() if value is None)
    return count


def check_totals(index: Index, out: ProblemList) -> list[SetCompleteness]:
    """Compare every set with its declared totals; error when exceeded, warning when short."""
    assumed_by_target: dict[str, int] = {}
    for record in index.of_kind("assumption"):
        assumed_by_target[record.model.target] = assumed_by_target.get(record.model.target, 0) + 1
    report = []
    for set_record in index.of_kind("set"):
        cards = [r.model for r in index.of_kind("card") if r.set_id == set_record.id and not r.model.optional]
        totals = set_record.model.totals
        result = SetCompleteness(
            set_id=set_record.id, file=set_record.file.display,
            designs=len(cards), designs_declared=totals.designs,
            cards=sum(c.quantity or 0 for c in cards), cards_declared=totals.cards,
            unknown_quantity=sum(1 for c in cards if c.quantity is None),
            unknown_values=sum(_unknown_values(c, index) for c in cards),
            assumed_values=sum(assumed_by_target.get(c.id, 0) for c in cards),
            missing_facts=sum(len(c.missing) for c in cards),
        )
        types = dict.fromkeys([t.id for t in index.game.card_types] + list(totals.by_type))
        for type_id in types:
            known = sum(c.quantity or 0 for c in cards if type_id in c.types)
            result.by_type[type_id] = (known, totals.by_type.get(type_id))
        _compare(set_record, result, out)
        report.append(result)
    return report


def _compare(record: Record, result: SetCompleteness, out: ProblemList) -> None:
    file = record.file.display
    pairs = [("designs", result.designs, result.designs_declared), ("cards", result.cards, result.cards_declared)]
    pairs += [(f"by_type/{t}", known, declared) for t, (known, declared) in result.by_type.items()]
    short = []
    for name, known, declared in pairs:
        if declared is None:
            continue
        if known > declared:
            out.error(file, f"/totals/{name}", "set-total-exceeded",
                      f"{known} {name.replace('by_type/', '')} found, but the set declares {declared}")
        elif known < declared:
            short.append(f"{name.replace('by_type/', '')} {known} of {declared}")
    if short:
        unknown = f"; {result.unknown_quantity} designs have no known quantity" if result.unknown_quantity else ""
        out.warning(file, "/totals", "set-incomplete", f"set {result.set_id!r} is incomplete: {', '.join(short)}{unknown}")


def check_assumptions(index: Index, out: ProblemList) -> None:
    """Assumed values name an existing record and field, and never override a stated fact."""
    for record in index.of_kind("assumption"):
        assumption = record.model
        target = index.by_id.get(assumption.target)
        here = record.pointer
        if target is None:
            out.error(record.file.display, f"{here}/target", "dangling-ref", f"unknown record {assumption.target!r}")
            continue
        try:
            parent, last, value = _resolve(target.model, assumption.field.split("/"))
        except LookupError as exc:
            out.error(record.file.display, f"{here}/field", "dangling-ref", f"{assumption.target} has no field {exc}")
            continue
        extendable = isinstance(value, list) and getattr(parent, f"{last}_complete", True) is False
        if _from_owner(target.model, parent, last, assumption.field):
            continue  # the owner's copy gave the value (--facts): the stand-in is simply not used
        if value not in (None, [], {}) and not extendable:
            out.error(record.file.display, f"{here}/value", "assumption-over-fact",
                      f"{assumption.target}/{assumption.field} is known ({value!r}); an assumption may only fill an unknown")
        stat = next((s for s in index.game.stats if assumption.field == f"stats/{s.id}"), None)
        if stat and isinstance(assumption.value, int) and not stat.min <= assumption.value <= stat.max:
            out.error(record.file.display, f"{here}/value", "out-of-range",
                      f"{stat.id} {assumption.value} is outside {stat.min}..{stat.max}")


def _from_owner(record: Any, parent: Any, last: str, field: str) -> bool:
    """True when an owner's overlay filled ``field`` of ``record`` (its sources cite the owner's copy for it, or
    the accesses it lists came from it)."""
    if field_certainty(getattr(record, "sources", []), field) == "owner":
        return True
    return last == "edges" and any(getattr(edge, "certainty", None) == "owner" for edge in getattr(parent, "edges", []))


def _resolve(model: Any, parts: list[str]) -> tuple[Any, str, Any]:
    """Follow a field path; return (parent, last part, value). Raises LookupError."""
    parent: Any = None
    node: Any = model
    for part in parts:
        parent = node
        if isinstance(node, BaseModel):
            if part not in type(node).model_fields:
                raise LookupError(repr(part))
            node = getattr(node, part)
        elif isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list):
            matches = [item for item in node if getattr(item, "id", None) == part]
            if not matches:
                raise LookupError(repr(part))
            node = matches[0]
        else:
            raise LookupError(repr(part))
    return parent, parts[-1], node
