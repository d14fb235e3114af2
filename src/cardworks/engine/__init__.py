"""The reference engine: a game-agnostic core, games plugged into it, scenarios and playouts."""
