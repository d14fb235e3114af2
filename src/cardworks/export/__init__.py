"""Exports where decks go after the home printer: print shops, Tabletop Simulator, spreadsheets.

- ``profiles``: what each shop takes, as data with sources (``profiles/*.json``);
- ``printshop``: ``cardworks export print-shop`` (PDF, PDF/X-1a via Ghostscript, PNGs, a quantities list);
- ``preflight``: the checks shops run before they accept a file;
- ``tts``: Tabletop Simulator deck sheets and saved object;
- ``sheet``: card data to CSV/XLSX and back into the JSON files.
"""
