"""The games the engine plays, one package per game, each plugged into the engine core."""
