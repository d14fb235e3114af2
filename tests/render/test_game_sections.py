"""A game's own rulebook sections reach the renderer through its plugin's ``Rendering``: called with the
generator as their ``SectionContext``, drawing with macros from the game folder's ``templates/``; a section
named like a generic one is refused. On the small game ``mini`` of ``conftest`` (no PDF)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from markupsafe import Markup

from cardworks.engine import plugins
from cardworks.engine.plugins import Rendering, SectionContext
from cardworks.errors import DataError
from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.render.docs import generated
from cardworks.render.docs.texts import DocTexts, icon_urls
from conftest import GameDir


def _battle_cards(gen: SectionContext) -> Markup:
    rows = [{"name": gen.name(r), "attack": gen.marked(r.model.stats["attack"], r.model.sources, "stats/attack"),
             "rules": gen.markup(r.model.rules or "")} for r in gen.cards() if "battle" in r.model.types]
    return Markup(gen.macros_of("docs/mini.html.j2").battles(rows))


def _generator(game: GameDir, monkeypatch, sections: dict) -> generated.Generator:
    game.files["templates/docs/mini.html.j2"] = (
        '{% macro battles(rows) %}<ul class="mini">{% for r in rows %}<li>{{ r.name }} {{ r.attack }} {{ r.rules }}'
        '</li>{% endfor %}</ul>{% endmacro %}\n')
    game.write()
    monkeypatch.setattr(generated, "plugin_of", lambda game_id: SimpleNamespace(rendering=Rendering(sections=sections)))
    db = load_database(game.root)
    index, texts = Index(db), DocTexts(db, "en")
    return generated.Generator(index, texts, ["base"], icon_urls(index, texts))


def test_a_games_section_is_drawn_with_its_own_macros(game: GameDir, monkeypatch) -> None:
    html = str(_generator(game, monkeypatch, {"mini-battles": _battle_cards})("mini-battles"))
    assert html.startswith('<ul class="mini"><li>capità 4 Steal one <img class="icon"') and html.count("<li>") == 1
    with pytest.raises(DataError, match="unknown generated section 'mini-other'; use one of .*mini-battles"):
        _generator(game, monkeypatch, {"mini-battles": _battle_cards})("mini-other")


def test_a_games_section_named_like_a_generic_one_is_refused(game: GameDir, monkeypatch) -> None:
    with pytest.raises(DataError, match="generates sections named like the generic ones: components"):
        _generator(game, monkeypatch, {"components": _battle_cards})


def test_a_plugin_whose_rendering_is_not_a_rendering_is_refused() -> None:
    fallera = plugins.registered()["fallera"]
    assert isinstance(fallera.rendering, Rendering) and {"rank-table", "battle-table"} <= set(fallera.rendering.sections)
    with pytest.raises(plugins.PluginError, match="its rendering .* is not a Rendering"):
        plugins._checked(replace(fallera, rendering={"rank-table": None}))
