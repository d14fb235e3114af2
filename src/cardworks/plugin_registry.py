"""Which games exist, asked from any layer: the built-in games' packages and those other distributions
declare under an entry point, each loaded by name only when asked for.

It sits below every layer (it imports no cardworks module) so that validation and schema generation can ask
for a game's plugin without reaching up into the engine; ``engine.plugins`` checks what it returns against
the ``GamePlugin`` protocol."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

BUILT_IN = ("calavera", "diables", "fallera")
"""The ids of the games shipped with cardworks, each the name of its package under ``cardworks.games``."""
ENTRY_POINT_GROUP = "cardworks.games"
"""The entry-point group under which another distribution declares a game plugin."""
CONTRACT = ("id", "setup_keys", "expectations", "vocabulary", "handlers", "configurations", "rules_for", "new_game",
            "scenario_state", "check_setup", "parse_action", "simulation", "rendering", "models", "validate",
            "sheet_layout", "missing_features", "hidden", "owner_unknowns", "data")
"""Every field of a game plugin (``engine.plugins.GamePlugin`` types them; a test holds the two to each other).
A plugin lacking one is left out here, at the bottom layer, so no layer needs ``getattr`` to read one."""



@dataclass(frozen=True)
class BrokenPlugin:
    """An entry point under :data:`ENTRY_POINT_GROUP` whose plugin could not be loaded (its module raised on
    import, or it names nothing there): its game is left out, every other game works."""

    name: str
    """The entry point's name (usually the game's id)."""
    entry_point: str
    """``name = module:attribute``, as the distribution declares it."""
    distribution: str
    """The distribution that declares it, with its version."""
    error: str
    """What loading it raised: the exception's type and message."""

    def line(self) -> str:
        """The one line every command prints about it."""
        return (f"cardworks: warning: game plugin {self.entry_point!r} of {self.distribution} "
                f"(entry point group {ENTRY_POINT_GROUP}) failed to load: {self.error}; game {self.name!r} is left out")


_BROKEN: dict[tuple[str, str], BrokenPlugin] = {}


def built_in_plugin(game: str) -> Any:
    """The plugin of the shipped game ``game`` (one of :data:`BUILT_IN`), only its own package imported."""
    return import_module(f"cardworks.games.{game}").PLUGIN


def loaded_entry_points() -> list[tuple[Any, Any]]:
    """(entry point, plugin) of each plugin other distributions declare, in their entry points' name order, each
    with every field of :data:`CONTRACT` (their types are checked by ``engine.plugins``). One that cannot be
    loaded (its module raises, even SystemExit) or lacks a field is left out (:func:`left_out`)."""
    loaded = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            plugin = point.load()
            lacking = missing_fields(plugin)
            if lacking:
                raise TypeError(f"the plugin has no {', '.join(lacking)} (a game plugin has every field of "
                                "cardworks.engine.plugins.GamePlugin; cardworks.engine.plugins.Plugin gives defaults)")
            loaded.append((point, plugin))
        except (Exception, SystemExit) as exc:  # another distribution's bug: its game alone is left out
            left_out(point, exc)
    return loaded


def missing_fields(plugin: Any) -> list[str]:
    """The fields of :data:`CONTRACT` that ``plugin`` lacks."""
    return [name for name in CONTRACT if not hasattr(plugin, name)]


def entry_point_plugins() -> list[Any]:
    """The plugins other distributions declare, unchecked (:func:`loaded_entry_points`)."""
    return [plugin for _, plugin in loaded_entry_points()]


def left_out(point: Any, exc: BaseException) -> None:
    """Remember that the plugin of entry point ``point`` could not be loaded or used, for :func:`broken_plugins`."""
    broken = _broken(point, exc)
    _BROKEN[(broken.entry_point, broken.distribution)] = broken


def _broken(point: Any, exc: BaseException) -> BrokenPlugin:
    name = str(getattr(point, "name", "?"))
    value = getattr(point, "value", None)
    dist = getattr(point, "dist", None)
    distribution = (f"distribution {getattr(dist, 'name', '?')} {getattr(dist, 'version', '')}".rstrip()
                    if dist is not None else "an unnamed distribution")
    message = " ".join(str(exc).split())
    message = message if len(message) <= 200 else message[:200] + "…"
    return BrokenPlugin(name, f"{name} = {value}" if value else name, distribution,
                        f"{type(exc).__name__}: {message}" if message else type(exc).__name__)


def broken_plugins() -> list[BrokenPlugin]:
    """The entry points whose plugin could not be loaded, so far in this process."""
    return list(_BROKEN.values())


def all_plugins() -> list[Any]:
    """Every plugin, unchecked: the built-in ones, then the entry points' in name order (those that cannot be
    loaded left out: :func:`broken_plugins`)."""
    return [built_in_plugin(game) for game in BUILT_IN] + entry_point_plugins()


def plugin_of(game: str) -> Any | None:
    """The plugin of ``game`` (every field present, their types unchecked), or None: a built-in game's package is imported alone (importing every
    game costs about 0.7 s, paid by each command that validates or builds one game)."""
    if game in BUILT_IN:
        return built_in_plugin(game)
    return next((plugin for plugin in all_plugins() if plugin.id == game), None)
