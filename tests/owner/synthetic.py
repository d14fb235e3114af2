"""Synthetic values for every unknown of a game: what a test types into the owner's facts sheet."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

EFFECTS = [{"do": [{"verb": "as-its-type"}]}]
"""An effect allowed on any card that plays nothing beyond the card's type: the scenarios written for the shipped
data still hold with it."""


def synthetic(row: dict[str, str], types: dict[str, list[str]]) -> str:
    """A value for one row of the exported sheet (``types``: each card's types)."""
    field, stand_in, how = row["field"], row["stand-in"], row["type as"]
    if stand_in:
        return stand_in
    if row["known"].endswith("; confirm or correct it)"):  # a value the sources give without stating it
        value = row["known"].rsplit(" (", 1)[0]
        return value.split(": ", 1)[1] if field.startswith("areas/") else value  # a board's row names its area first
    if how.startswith("a whole number"):
        low = int(how.split("from ")[1].split(" ")[0])
        return str(max(low, 1))
    if how.startswith("the name printed"):
        return f"Synthetic {row['name']}"
    if how.startswith("card text") and field.startswith("areas/"):  # what a board's area prints
        return f"Synthetic print of {field.split('/')[1]}: gain 1 FP."
    if how.startswith("card text"):
        return f"Synthetic rules of {row['name']}: draw a card."
    if how.startswith("card types"):
        return row["known"].split(" (")[0]
    if field == "set":
        return row["known"].split(" (")[0]
    if how.startswith("one of"):
        choices = how[len("one of "):].split(", ")
        return "ingredient" if "ingredient" in choices else choices[0]  # "other" prints the game's own "?" icon
    if how.startswith("effects"):
        return json.dumps(EFFECTS)
    raise AssertionError(f"no synthetic value for {row}")


def fill(sheet: Path, out: Path, types: dict[str, list[str]]) -> int:
    """Fill every row of the exported CSV ``sheet`` into ``out``; return how many rows."""
    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    filled = {id(row): synthetic(row, types) for row in rows if not row["field"].endswith("/accesses")}
    for row in rows:
        if row["field"].endswith("/accesses"):  # a space's printed count: its accesses in the side's graph
            side, space = row["field"].split("/")[1], row["field"].split("/")[3]
            graph = next(filled[id(r)] for r in rows if r["field"] == f"sides/{side}/edges")
            filled[id(row)] = str(sum(space in [s.strip() for s in pair.split("+")] for pair in graph.split(";")))
        writer.writerow({**row, "value": filled[id(row)]})
    out.write_text(buffer.getvalue(), encoding="utf-8")
    return len(rows)
