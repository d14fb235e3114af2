"""mkdocs hook: the print-shop profile table of ``exports.md``, generated from the profile data files.

The page holds only the marker ``<!-- profiles-table -->``; each build puts in its place one row per file in
``src/cardworks/export/profiles/`` (via ``load_profile``), so a profile added, removed or changed shows in
the docs without editing them. ``tests/docs/test_profiles_table.py`` checks the rows against the files.
"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- profiles-table -->"
SIZES_MARKER = "<!-- profile-sizes-table -->"


def _sizes(profile: Any) -> str:
    if profile.sizes.value is None:
        return "any size (the card's own trim)"
    rows = []
    for row in profile.sizes.value:
        canvas = f", {row.canvas_px.width} × {row.canvas_px.height} px" if row.canvas_px else ""
        rows.append(f"{row.name} {row.width_mm:g} × {row.height_mm:g} mm ± {row.tolerance_mm:g}{canvas}"
                    + ("" if row.unverified is None else " (unverified)"))
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


FORMATS = {"pdf": "PDF", "pdf-x1a": "PDF/X-1a", "png": "PNG"}
SIZES_HEADER = ["profile", "size", "trim", "file per card side", "bleed", "safe area", "source", "unverified"]


def sizes_table() -> str:
    """One row per card size of every shop that has a size table: what the shop wants for it, where that is
    written, and what about it is not confirmed."""
    from cardworks.export.profiles import load_profile, profile_names

    lines = ["| " + " | ".join(SIZES_HEADER) + " |", "|" + " --- |" * len(SIZES_HEADER)]
    for name in profile_names():
        profile = load_profile(name)
        for row in profile.sizes.value or []:
            size = row.describe(profile)
            kind = FORMATS[profile.output]
            page = (f"{size['canvas_px'][0]} × {size['canvas_px'][1]} px {kind}" if size["canvas_px"]
                    else f"{size['page_mm'][0]:g} × {size['page_mm'][1]:g} mm {kind}")
            safe = f"{row.safe_mm:g} mm" if row.safe_mm is not None else "not given by any source read"
            cells = [f"`{name}`", row.name, f"{row.width_mm:g} × {row.height_mm:g} mm", page,
                     f"{size['bleed_mm']:g} mm", safe, row.source, row.unverified or "none"]
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Put the generated tables where the page has their markers."""
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, profiles_table())
    if SIZES_MARKER in markdown:
        markdown = markdown.replace(SIZES_MARKER, sizes_table())
    return markdown
