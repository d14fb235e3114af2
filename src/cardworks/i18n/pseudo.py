"""The pseudo-locale: accented text about 40% longer, to find overflowing cards before real translations exist.

``qps-ploc`` builds like any locale: every string is the source, its letters
accented and padded, its markup tokens untouched.
"""

from __future__ import annotations

import re

from ..markup import Text, Token, parse, render
from ..markup import MarkupError

PSEUDO_LOCALE = "qps-ploc"
_ACCENTS = str.maketrans("aceinosuyACEINOSUYlL", "àçéîñöšüýÀÇÉÎÑÖŠÜÝłŁ")
_PADDING = "ĕŵŧŗąſ"
_FIELD = re.compile(r"(\{[a-z_]+\})")
"""A format field of a label (``{count}``), which the pseudo-locale leaves alone."""


def pseudo_text(text: str, markup: bool = False) -> str:
    """``text`` accented and lengthened by about 40%, tokens kept; wrapped in brackets to spot cut ends."""
    try:
        parts = parse(text) if markup else [Text(text)]
    except MarkupError:
        parts = [Text(text)]
    if not markup:  # a label's format fields ({count}, {unknown}) are filled in later: kept as they are
        parts = [Token(piece[1:-1], 0) if _FIELD.fullmatch(piece) else Text(piece)
                 for part in parts for piece in _FIELD.split(part.value) if piece]
    out = []
    for part in parts:
        if isinstance(part, Token):
            out.append(part)
            continue
        words = []
        for word in part.value.split(" "):
            extra = round(len(word) * 0.4)
            words.append(word.translate(_ACCENTS) + (_PADDING * 4)[:extra] if word else word)
        out.append(Text(" ".join(words)))
    body = render(out) if markup else "".join(p.value if isinstance(p, Text) else "{" + p.name + "}" for p in out)
    return f"[{body}]"
