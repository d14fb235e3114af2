"""The shipped face's flat stats line written back as the flex box it was, to compare the two layouts."""

from __future__ import annotations


def flex_stats(html: str) -> str:
    """The face's stats line as it was: a flex box, its marks pushed to its right end by a spacer."""
    import re

    html = html.replace('<div class="stats flat', '<div class="stats')
    mark = r'<span class="mark">[^<]*(?:<img [^>]*>|<span class="set-badge"[^>]*>[^<]*</span>)[^<]*</span>'
    return re.sub(rf'<span class="marks">((?:{mark})+)</span>', r'<span class="spacer"></span>\1', html)
