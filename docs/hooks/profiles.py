"""mkdocs hook: the print-shop profile table of ``exports.md``, generated from the profile data files.

The page holds only the marker ``<!-- profiles-table -->``; each build puts in its place one row per file in
``src/cardworks/export/profiles/`` (via ``load_profile``), so a profile added, removed or changed shows in
the docs without editing them. ``tests/docs/test_profiles_table.py`` checks the rows against the files.
"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- profiles-table -->"


def _sizes(profile: Any) -> str:
    if profile.sizes.value is None:
        return "any size (the card's own trim)"
    rows = []
    for row in profile.sizes.value:
        canvas = f", {row.canvas_px.width} × {row.canvas_px.height} px" if row.canvas_px else ""
        rows.append(f"{row.name} {row.width_mm:g} × {row.height_mm:g} mm ± {row.tolerance_mm:g}{canvas}")
    return "; ".join(rows)


def _colour(profile: Any) -> str:
    colour = profile.colour.value
    parts = [colour.space]
    if profile.pdf_standard.value:
        parts.append(profile.pdf_standard.value)
    if colour.output_condition:
        parts.append(f"output intent {colour.output_condition}")
    if profile.max_ink_percent.value is not None:
        parts.append(f"total ink ≤ {profile.max_ink_percent.value}%")
    return ", ".join(parts)


def profile_row(profile: Any) -> list[str]:
    """The table cells of one profile, in the order of ``HEADER``."""
    unverified = ", ".join(f"`{name}`" for name in profile.unverified()) or "none"
    return [f"`{profile.id}`", profile.name, profile.output, f"one file per {profile.one_file_per.value}, "
            f"{profile.page_order.value}", _sizes(profile), f"{profile.bleed_mm.value:g} mm", str(profile.dpi.value),
            _colour(profile), unverified]


HEADER = ["profile", "shop", "output", "files and order", "card sizes", "bleed", "dpi", "colour", "unverified"]


def profiles_table() -> str:
    """The Markdown table of every shipped profile, sorted by id."""
    from cardworks.export.profiles import load_profile, profile_names

    lines = ["| " + " | ".join(HEADER) + " |", "|" + " --- |" * len(HEADER)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in profile_row(load_profile(name))) + " |"
              for name in profile_names()]
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Put the generated table where the page has the marker."""
    return markdown.replace(MARKER, profiles_table()) if MARKER in markdown else markdown
