"""Rulebooks and FAQ indexes: Markdown sources, sections generated from the database, WeasyPrint."""
