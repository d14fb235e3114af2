"""Rulebook sections only Fallera generates: the special cards' ranks and the battle examples.

The ranks are read from the cards' ``rank`` stat, the examples from the game's
``battle-examples`` parameter, each row's result from the battle rule (an attack
steals when it beats the defence, or when nothing defends); every word comes from
the document labels. The macros are the game folder's ``templates/docs/fallera.html.j2``.
"""

from __future__ import annotations

from markupsafe import Markup

from ...engine.plugins import Rendering, SectionContext
from .boardnotes import board_notes

TEMPLATE = "docs/fallera.html.j2"
NUMERALS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]


def rank_table(gen: SectionContext) -> Markup:
    """Special cards ranked above the default, highest first, then the default for every other special."""
    stat = next(s for s in gen.game.stats if s.id == "rank")
    ranked = [r for r in gen.cards() if (r.model.stats.get("rank") or 0) > (stat.default or 0)]
    rows = [{"name": gen.name(r), "rank": gen.marked(r.model.stats["rank"], r.model.sources, "stats/rank")}
            for r in sorted(ranked, key=lambda r: -r.model.stats["rank"])]
    if stat.default is not None:
        rows.append({"name": gen.labels.other_specials, "rank": stat.default})
    return Markup(gen.macros_of(TEMPLATE).rank_table(rows, gen.labels, gen.legend(row["rank"] for row in rows)))


def battle_table(gen: SectionContext) -> Markup:
    """The rulebook's battle examples (``attack:defence``, ``-`` for none), each with its result."""
    examples = next(p.value for p in gen.game.parameters if p.id == "battle-examples")
    rows = []
    for numeral, example in zip(NUMERALS, examples):
        attack, _, defence = example.partition(":")
        undefended = defence == "-"
        steals = undefended or int(attack) > int(defence)  # the battle rule: attack must beat defence
        rows.append({"numeral": numeral, "attack": attack,
                     "defence": gen.labels.no_defence if undefended else defence,
                     "result": gen.labels.steals if steals else gen.labels.keeps})
    return Markup(gen.macros_of(TEMPLATE).battle_table(rows, gen.labels))


RENDERING = Rendering(sections={"rank-table": rank_table, "battle-table": battle_table}, board_notes=board_notes)
"""What the renderer asks of Fallera: its own rulebook sections, and what the Kingdom map prints beside each side."""
