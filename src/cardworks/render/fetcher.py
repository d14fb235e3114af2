"""A WeasyPrint URL fetcher that reads only from allowed folders.

Card data comes from other people: a stylesheet or image URL in it must not
read ``/etc/passwd`` or reach the network. Only ``file:`` URLs under the
allowed roots (templates, fonts, the game folder or pack) and ``data:`` URLs
load; anything else is refused and recorded.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse


def allowed(url: str, roots: list[Path]) -> bool:
    """True for ``data:`` URLs and ``file:`` URLs whose real path lies under one of ``roots``."""
    parsed = urlparse(url)
    if parsed.scheme == "data":
        return True
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return False
    path = Path(unquote(parsed.path)).resolve()
    return any(path == root or root in path.parents for root in roots)


@lru_cache(maxsize=1)
def _fetcher_class() -> type:
    from weasyprint.urls import URLFetcher  # heavy: imported only when rendering

    class SafeFetcher(URLFetcher):
        """Fetch ``file:`` URLs inside ``roots`` and ``data:`` URLs; refuse and record the rest."""

        def __init__(self, roots: list[Path]) -> None:
            super().__init__(allowed_protocols=("file", "data"))
            self.roots = [root.resolve() for root in roots]
            self.refused: list[str] = []

        def allows(self, url: str) -> bool:
            return allowed(url, self.roots)

        def fetch(self, url, headers=None):  # type: ignore[override]
            if not self.allows(url):
                self.refused.append(url)
                raise ValueError(f"refused to load {url}: outside the allowed folders")
            return super().fetch(url, headers)

    return SafeFetcher


def safe_fetcher(roots: list[Path]):
    """A WeasyPrint fetcher limited to ``roots`` (its ``refused`` lists what it turned away)."""
    return _fetcher_class()(roots)
