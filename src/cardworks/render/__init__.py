"""The renderer: card faces through Jinja and WeasyPrint, sheets and print-shop files through pikepdf.

Imported only by ``cardworks build``: WeasyPrint is heavy and validation never needs it.
"""
