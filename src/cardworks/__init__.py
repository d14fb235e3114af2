"""cardworks: a card-data pipeline and print-and-play generator for card games.

The public API: load and validate a card database, list its cards, mint ids.
"""

from .catalog import CardRow, list_cards
from .errors import CardworksError, DataError, UsageError
from .ids import slugify
from .loading import Database, load_database
from .problems import Problem
from .validate import Report, validate

__all__ = [
    "CardRow",
    "CardworksError",
    "DataError",
    "Database",
    "Problem",
    "Report",
    "UsageError",
    "list_cards",
    "load_database",
    "slugify",
    "validate",
]
