"""Each stylesheet parsed once per font configuration, not once per document.

A build lays out about 120 WeasyPrint documents (card faces, pieces, rulebooks, FAQ indexes) and each parsed
the stylesheets it links, though they are four files (``cards.css``, ``pieces.css``, ``docs.css``, a game's
``cards.css``): 186 parses, 2.4 s of a 74 s build, and 122 of the ``<style>`` elements, most of them alike.
WeasyPrint finds a document's stylesheets by calling ``weasyprint.css.CSS``; :func:`install` puts
:func:`_stylesheet` there. The first time a stylesheet is met (by its text, or its URL and the bytes the
document's fetcher reads there), it is parsed as before and what parsing added to the document is noted: its
``@page`` rules, counter styles and colour profiles (its ``@font-face`` fonts live in the font configuration,
which the cache is kept on). The next document gets a stylesheet with the same rules and selector index and
those additions made to its own lists; its fetcher still reads the file (so a file it may not read is refused
as before). A stylesheet that imports another, declares a layer or makes WeasyPrint warn is parsed for each
document, as before. WeasyPrint never changes a parsed stylesheet, so every document prints the same bytes.

Installed only when WeasyPrint's ``CSS.__init__`` is the one this was written against (:data:`COPIED_INIT`):
another version parses as before and tests/render/test_stylesheet_cache.py fails.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
from dataclasses import dataclass
from typing import Any

COPIED_INIT = "8263e6979a389242ee0d6fdb39286ec5355283dbbe672d66e9ff600a20975089"
"""SHA-256 of the source of WeasyPrint's ``CSS.__init__`` whose attributes and side effects :func:`_replayed`
reproduces (WeasyPrint 70.0)."""

_ATTRIBUTE = "_cardworks_stylesheets"
"""Where a font configuration keeps its parsed stylesheets."""

_INSTALLED: list[bool] = []


@dataclass(frozen=True)
class _Parsed:
    """A parsed stylesheet and what parsing it added to its document."""

    sheet: Any
    page_rules: list[Any]
    counter_styles: dict[str, Any]
    color_profiles: dict[str, Any]


def installable() -> bool:
    """True when the installed WeasyPrint's ``CSS.__init__`` is the one this module reproduces."""
    from weasyprint import CSS

    return hashlib.sha256(inspect.getsource(CSS.__init__).encode()).hexdigest() == COPIED_INIT


def install() -> bool:
    """Parse each stylesheet of this process's documents once per font configuration (once; later calls do
    nothing). Returns whether it is so: False when WeasyPrint's ``CSS.__init__`` is not the one reproduced."""
    import weasyprint.css

    if not _INSTALLED:
        _INSTALLED.append(installable())
        if _INSTALLED[0]:
            weasyprint.css.CSS = _stylesheet
    return _INSTALLED[0]


def _key(kwargs: dict[str, Any]) -> tuple[Any, ...] | None:
    """What makes two stylesheets the same, without their source: None when it cannot be kept (other options
    than those WeasyPrint's ``find_stylesheets`` gives)."""
    allowed = {"string", "url", "base_url", "url_fetcher", "media_type", "font_config", "counter_style",
               "page_rules", "color_profiles", "layers", "_check_mime_type"}
    if set(kwargs) - allowed or kwargs.get("font_config") is None:
        return None
    return (kwargs.get("base_url"), kwargs.get("media_type", "print"), bool(kwargs.get("_check_mime_type")))


def _stylesheet(guess: Any = None, **kwargs: Any) -> Any:
    """``weasyprint.CSS(**kwargs)``, from the font configuration's cache when the same stylesheet was parsed
    before (see the module's docstring)."""
    from weasyprint import CSS
    from weasyprint.urls import fetch

    key = _key(kwargs) if guess is None else None
    if key is None or (kwargs.get("string") is None) == (kwargs.get("url") is None):
        return CSS(guess, **kwargs)
    if kwargs.get("string") is not None:
        source: Any = kwargs["string"]
    else:
        with fetch(kwargs["url_fetcher"], kwargs["url"]) as response:  # refused as before: its error is raised
            source = (kwargs["url"], response.read())
    text = source if isinstance(source, str) else source[1]
    if ("@import" in text) if isinstance(text, str) else (b"@import" in text):
        return CSS(**kwargs)
    cache = kwargs["font_config"].__dict__.setdefault(_ATTRIBUTE, {})
    found = cache.get((source, *key))
    if found is None:
        sheet, found = _parsed(kwargs)
        if found is not None:
            cache[(source, *key)] = found
        return sheet
    return _replayed(found, kwargs)


def _parsed(kwargs: dict[str, Any]) -> tuple[Any, _Parsed | None]:
    """The stylesheet parsed by WeasyPrint, and what it added to its document (None when it may not be kept:
    it declared a layer or WeasyPrint warned while parsing it)."""
    from weasyprint import CSS
    from weasyprint.logger import LOGGER

    page_rules, layers = kwargs.get("page_rules"), kwargs.get("layers")
    counters, profiles = kwargs.get("counter_style"), kwargs.get("color_profiles")
    before = (len(page_rules or []), list(layers or []), dict(counters or {}), dict(profiles or {}))
    warned = _Warnings()
    LOGGER.addHandler(warned)
    try:
        sheet = CSS(**kwargs)
    finally:
        LOGGER.removeHandler(warned)
    if warned.count or list(layers or []) != before[1] or sheet.layers != (layers if layers is not None else []):
        return sheet, None
    return sheet, _Parsed(sheet, list(sheet.page_rules[before[0]:]), _added(before[2], counters),
                          _added(before[3], profiles))


def _added(before: dict[str, Any], after: dict[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in (after or {}).items() if k not in before or before[k] is not v}


def _replayed(parsed: _Parsed, kwargs: dict[str, Any]) -> Any:
    """A stylesheet like ``parsed.sheet`` for another document: the same rules, its additions made to this
    document's page rules, counter styles and colour profiles."""
    from weasyprint import CSS

    sheet = object.__new__(CSS)
    sheet.base_url = parsed.sheet.base_url
    sheet.matcher = parsed.sheet.matcher
    sheet.page_rules = [] if kwargs.get("page_rules") is None else kwargs["page_rules"]
    sheet.layers = [] if kwargs.get("layers") is None else kwargs["layers"]
    sheet.page_rules.extend(parsed.page_rules)
    if kwargs.get("counter_style") is not None:
        kwargs["counter_style"].update(parsed.counter_styles)
    if kwargs.get("color_profiles") is not None:
        kwargs["color_profiles"].update(parsed.color_profiles)
    return sheet


class _Warnings(logging.Handler):
    """Counts what WeasyPrint logs at warning level or above while a stylesheet is parsed."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
