"""The renderer: card faces through Jinja and WeasyPrint, sheets and print-shop files through pikepdf.

Imported only by ``cardworks build``: WeasyPrint is heavy and validation never needs it.
"""

import logging

from .libraries import install as _find_libraries_quickly


class _QuietFallback(logging.Filter):
    """WeasyPrint warns once per font when it subsets with fontTools instead of HarfBuzz-Subset;
    the output is the same (and made deterministic), so the warning is noise for our users."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "HarfBuzz-Subset" not in record.getMessage()


logging.getLogger("weasyprint").addFilter(_QuietFallback())
_find_libraries_quickly()
