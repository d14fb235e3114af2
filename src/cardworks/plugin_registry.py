"""Which games exist, asked from any layer: the games every installed distribution declares under the entry point
group ``cardworks.games`` (cardworks' own as well as others'), each loaded by name only when asked for.

cardworks declares its own games in its ``pyproject.toml`` like any other distribution, so the list of them is the
installed package's metadata: a source tree that was never installed has none, and every command says so
(:class:`NotInstalled`) rather than play on without its games.

It sits below every layer (it imports no cardworks module but ``errors``) so that validation and schema generation
can ask for a game's plugin without reaching up into the engine; ``engine.plugins`` checks what it returns against
the ``GamePlugin`` protocol."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, distribution, entry_points
from typing import Any

from .errors import DeveloperError, UsageError

DISTRIBUTION = "cardworks"
"""The distribution whose entry points are the shipped games (an entry point of another one never replaces them)."""
ENTRY_POINT_GROUP = "cardworks.games"
"""The entry-point group under which a distribution (cardworks itself too) declares a game plugin."""
CONTRACT = ("id", "setup_keys", "expectations", "vocabulary", "handlers", "configurations", "rules_for", "new_game",
            "scenario_state", "check_setup", "parse_action", "simulation", "rendering", "models", "validate",
            "sheet_layout", "missing_features", "hidden", "owner_unknowns", "data")
"""Every field of a game plugin (``engine.plugins.GamePlugin`` types them; a test holds the two to each other).
A plugin lacking one is left out here, at the bottom layer, so no layer needs ``getattr`` to read one."""


class NotInstalled(UsageError):
    """cardworks' own games are not registered: its distribution's metadata is missing (a source tree on the path
    that was never installed) or declares no game (installed before the games were entry points)."""


class OwnGameMisnamed(DeveloperError):
    """One of cardworks' own entry points names another game than the plugin it loads."""

    code = "plugin-contract"


_OWN: dict[str, Any] = {}
"""Name → entry point of cardworks' own games, read once a process from its installed metadata."""


def own_points() -> dict[str, Any]:
    """Game id → entry point of every game cardworks itself declares, in id order; :class:`NotInstalled` when
    there is none."""
    if not _OWN:
        try:
            found = distribution(DISTRIBUTION)
        except PackageNotFoundError:
            raise NotInstalled(f"no game is registered: the {DISTRIBUTION} package is not installed (its metadata, "
                               f"which declares its games under {ENTRY_POINT_GROUP}, is missing); install it: "
                               "pip install -e <the checkout> (or pip install cardworks)") from None
        points = sorted((p for p in found.entry_points if p.group == ENTRY_POINT_GROUP), key=lambda p: p.name)
        if not points:
            raise NotInstalled(f"no game is registered: the installed {DISTRIBUTION} {found.version} declares no "
                               f"game under {ENTRY_POINT_GROUP} (its metadata is older than its sources); install "
                               "it again: pip install -e <the checkout> (or pip install cardworks)")
        _OWN.update((p.name, p) for p in points)
    return _OWN


def own_games() -> list[str]:
    """The ids of the games cardworks itself declares (:func:`own_points`)."""
    return list(own_points())


def own_plugin(game: str) -> Any:
    """The plugin of cardworks' own game ``game``, only its own package imported (a fault in it is cardworks' own,
    raised as it is); :class:`OwnGameMisnamed` when the plugin gives another id than its entry point's name."""
    point = own_points()[game]
    plugin = point.load()
    if getattr(plugin, "id", None) != game:
        raise OwnGameMisnamed(f"entry point '{point.name} = {point.value}' of {DISTRIBUTION} loads a plugin whose id "
                              f"is {getattr(plugin, 'id', None)!r}: a game's entry point is named by its id")
    return plugin


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _is_own(point: Any) -> bool:
    dist = getattr(point, "dist", None)
    return dist is not None and _normal(str(getattr(dist, "name", ""))) == DISTRIBUTION


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


def loaded_entry_points() -> list[tuple[Any, Any]]:
    """(entry point, plugin) of each plugin other distributions declare, in their entry points' name order, each
    with every field of :data:`CONTRACT` (their types are checked by ``engine.plugins``). One that cannot be
    loaded (its module raises, even SystemExit) or lacks a field is left out (:func:`left_out`). cardworks' own
    games are not among them (:func:`own_points`): a command for one of them imports no other."""
    own_points()  # without cardworks' own games, nothing else is worth loading: NotInstalled says why
    loaded = []
    for point in sorted((p for p in entry_points(group=ENTRY_POINT_GROUP) if not _is_own(p)), key=lambda p: p.name):
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


def left_out(point: Any, exc: BaseException) -> None:
    """Remember that the plugin of entry point ``point`` could not be loaded or used, for :func:`broken_plugins`."""
    broken = _broken(point, exc)
    _BROKEN[(broken.entry_point, broken.distribution)] = broken


def _broken(point: Any, exc: BaseException) -> BrokenPlugin:
    name = str(getattr(point, "name", "?"))
    value = getattr(point, "value", None)
    dist = getattr(point, "dist", None)
    declared_by = (f"distribution {getattr(dist, 'name', '?')} {getattr(dist, 'version', '')}".rstrip()
                   if dist is not None else "an unnamed distribution")
    message = " ".join(str(exc).split())
    message = message if len(message) <= 200 else message[:200] + "…"
    return BrokenPlugin(name, f"{name} = {value}" if value else name, declared_by,
                        f"{type(exc).__name__}: {message}" if message else type(exc).__name__)


def broken_plugins() -> list[BrokenPlugin]:
    """The entry points whose plugin could not be loaded, so far in this process."""
    return list(_BROKEN.values())


def plugin_of(game: str) -> Any | None:
    """The plugin of ``game`` (every field present, their types unchecked), or None. One of cardworks' own games
    has its package imported alone (importing every game costs about 0.7 s, paid by each command that validates
    or builds one game); any other id is looked for among other distributions' plugins."""
    if game in own_points():
        return own_plugin(game)
    return next((plugin for _, plugin in loaded_entry_points() if plugin.id == game), None)
