"""The shipped La Fallera Calavera database: valid, and the facts the rulebooks state, pinned."""

from __future__ import annotations


import pytest

from cardworks.loading import load_database
from cardworks.validate import validate
from cardworks.loading.records import Index
from conftest import REPO, run_cli

CARDS = REPO / "cards"


@pytest.fixture(scope="module")
def index() -> Index:
    return Index(load_database(CARDS / "fallera"))


def card(index: Index, card_id: str):
    record = index.by_id[card_id]
    assert record.kind == "card"
    return record.model


def test_shipped_database_validates_without_errors_and_the_command_exits_zero() -> None:
    report = validate(CARDS)
    assert report.errors == [], [p.text() for p in report.errors]
    assert {p.code for p in report.warnings} <= {"set-incomplete"}
    run = run_cli("--cards", str(CARDS), "validate")
    assert run.exit_code == 0, run.output
    assert "completeness" in run.output and "base" in run.output


def test_rank_table(index: Index) -> None:
    expected = {"nit-de-la-crema": 8, "el-butoni": 7, "la-riua": 6, "muralla-de-morella": 5,
                "falla-descomunal": 4, "batalla-d-almansa": 3, "paella-protectora": 2}
    specials = [r.model for r in index.of_kind("card") if "special" in r.model.types]
    for special in specials:
        assert special.stats.get("rank", 1) == expected.get(special.id, 1), special.id  # rank 1 is the default
    assert {s.id for s in specials} >= set(expected)


def test_stated_battle_values(index: Index) -> None:
    assert card(index, "el-capita-moro").stats == {"attack": 4, "defence": 1}
    assert card(index, "capita-cristia").stats == {"attack": 1, "defence": 4}


def test_espardenyes_sell_for_two(index: Index) -> None:
    espardenyes = card(index, "espardenyes-pudentes")
    assert espardenyes.stats["sell"] == 2 and espardenyes.attributes["treasure-kind"] == "sellable"


def test_player_count_markers(index: Index) -> None:
    marked = {r.id: r.model.markers for r in index.of_kind("card") if r.model.markers}
    assert {i for i, m in marked.items() if "ii" in m} == {
        "cabeca-d-alls", "el-butoni", "la-riua", "lluna-de-valencia", "dansa-de-la-magrana"}
    assert {i for i, m in marked.items() if "v" in m} == {"iaia-dotora"}
    game = index.game
    assert {m.id: m.removed_at_players for m in game.markers} == {"ii": [2], "v": [5]}


def test_cabeca_d_alls_counts_two_at_five_and_six_players(index: Index) -> None:
    garlic = card(index, "cabeca-d-alls")
    assert "5- and 6-player" in garlic.rules and "two ingredients" in garlic.rules
    linked = {r.id for r in index.of_kind("ruling") if "cabeca-d-alls" in r.model.cards}
    assert {"base-five-player-cabeca-d-alls", "discordia-six-player-cabeca-d-alls"} <= linked


def test_ingredients_of_discord(index: Index) -> None:
    categories = {r.id: r.model.attributes.get("ingredient-category") for r in index.of_kind("card")
                  if r.set_id == "discordia" and r.model.attributes.get("treasure-kind") == "ingredient"}
    assert categories == {"xoric": "forbidden", "gamba-de-denia": "seafood", "clotxina-espia": "seafood"}


def test_set_totals(index: Index) -> None:
    sets = {r.id: r.model.totals for r in index.of_kind("set")}
    assert sets["base"].designs == 57 and sets["base"].cards == 102
    assert sets["base"].by_type == {"treasure": 28, "battle": 34, "special": 40}
    assert sets["discordia"].cards == 51 and sets["mes-enlla"].cards == 50
    misteri = card(index, "misteri-d-elx")
    assert misteri.optional and sorted(misteri.types) == ["battle", "special", "treasure"]


def test_map_access_counts(index: Index) -> None:
    board = index.by_id["kingdom-map"].model
    sides = {side.id: {s.id: s.accesses for s in side.spaces if not s.start} for side in board.sides}
    normal = {"interior": 3, "nord": 2, "muntanyes-centrals": 2, "xuquer-turia": 3, "sud": 2}
    assert sides["normal"] == normal
    assert sides["expert"] == {**normal, "benidorm": 2}
    for side in board.sides:
        assert not side.edges_complete
        assert [sorted(e.between) for e in side.edges] == [["muntanyes-centrals", "sud"]]


def test_territorial_foods_belong_to_terretes(index: Index) -> None:
    foods = {r.model.space: r.model for r in index.of_kind("component") if r.id.startswith("territorial-food-")}
    assert set(foods) == {"interior", "nord", "muntanyes-centrals", "xuquer-turia", "sud"}
    assert all(len(food.items) == 3 for food in foods.values())


def test_no_quantity_is_invented(index: Index) -> None:
    """No rulebook prints a card quantity: the only one known is the Misteri d'Elx's, one card as the
    expansion-2 rulebook speaks of it (inferred, with its source); every other is null and assumed instead."""
    from cardworks.models.certainty import field_certainty

    known = {r.id: r.model for r in index.of_kind("card") if r.model.quantity is not None}
    assert set(known) == {"misteri-d-elx"} and known["misteri-d-elx"].quantity == 1
    assert field_certainty(known["misteri-d-elx"].sources, "quantity") == "inferred"
    assumed = {(a.model.target, a.model.field) for a in index.of_kind("assumption")}
    assert all((r.id, "quantity") in assumed for r in index.of_kind("card") if r.id not in known)
    assert ("misteri-d-elx", "quantity") not in assumed, "an assumption never overrides a known value"


def test_every_card_has_sources_from_declared_documents(index: Index) -> None:
    documents = {d.id for d in index.game.documents}
    cards = list(index.of_kind("card"))
    assert len(cards) >= 57  # the base game's designs at least: the loop below checks something
    for record in cards:
        assert record.model.sources and all(s.doc in documents for s in record.model.sources)


def test_every_ruling_names_a_rulebook_or_official_source(index: Index) -> None:
    rulings = index.of_kind("ruling")
    assert len(rulings) >= 100
    assert {r.model.source.doc for r in rulings} <= {"fallera-base", "fallera-2", "fallera-3", "official-faq"}


def test_cards_listed_in_each_locale_with_no_missing_name(index: Index) -> None:
    import json

    designs = len(index.of_kind("card"))
    for locale in ("ca", "es"):
        run = run_cli("--cards", str(CARDS), "cards", "--game", "fallera", "--locale", locale, "--format", "json")
        assert run.exit_code == 0
        rows = json.loads(run.output)
        assert len(rows) == designs > 0, locale
        assert [r["id"] for r in rows if r["name_status"] != "translated"] == [], locale


def test_every_source_string_is_translated(index: Index) -> None:
    from cardworks.i18n import Localizer, source_strings

    for locale in ("ca", "es"):
        localizer = Localizer(index.db, locale)
        missing = [f"{s.record}/{s.field}" for r in index.records if r.kind not in {"assumption"}
                   for s in source_strings(r.model) if localizer.text(s.record, s.field, s.text)[1] != "translated"]
        assert missing == [], f"{locale}: {missing[:10]}"
