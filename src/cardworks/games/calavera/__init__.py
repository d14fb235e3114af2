"""Calavera (the roll-and-write dice game) plugged into the engine: sheet, actions, rules and setup."""
