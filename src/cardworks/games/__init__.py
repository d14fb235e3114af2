"""The games the engine plays, one package per game, each plugged into the engine core.

Each package holds the game's actions, state, rules and flow, setup and scenario
positions, and exposes ``PLUGIN`` (an ``engine.plugins.Plugin``). Which games exist is
``cardworks.plugin_registry``'s to say: it loads each package here by name.
"""

