"""Finding, reading and parsing the data files of a game and of its packs."""

from .database import Bundle, Database, LoadedFile, load_database, load_pack
from .jsonfile import MAX_DEPTH, MAX_FILE_BYTES, read_json

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "Bundle", "Database", "LoadedFile", "load_database", "load_pack", "read_json"]
