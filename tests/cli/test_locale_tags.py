"""Every command reads a language tag the same way (``i18n/locales.resolve_locale``): a locale of the game, one
of its aliases (``es_ES`` here), or the pseudo-locale; an unknown tag is refused with one message.

The mini game stands in for a real one (fast); export and serve, which take only games with a card stylesheet,
run on the shipped Fallera data (aliases ``ca_ES@valencia`` and others) and are marked slow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardworks.errors import UsageError
from cardworks.i18n.locales import resolve_locale
from conftest import REPO, run_cli

UNKNOWN = "game 'mini' has no locale 'xx'; it has en, es and the pseudo-locale qps-ploc"


@pytest.fixture
def mini(game) -> Path:
    game.data("game.json")["locale_aliases"] = {"es_ES": "es", "es-419": "es"}
    game.write()
    return game.cards_root


def test_resolve_locale_reads_locales_aliases_and_the_pseudo_locale(mini: Path) -> None:
    from cardworks.loading.database import Database, load_game

    doc = Database(game=load_game(mini / "mini")).game_doc
    assert [resolve_locale(doc, tag) for tag in ("es", "ES", "es_es", "ES-419", "qps-ploc", "QPS_ploc")] == \
        ["es", "es", "es", "es", "qps-ploc", "qps-ploc"]
    with pytest.raises(UsageError) as caught:
        resolve_locale(doc, "xx")
    assert str(caught.value) == UNKNOWN


def test_cards_accepts_an_alias_and_the_pseudo_locale(mini: Path) -> None:
    spanish = run_cli("--cards", str(mini), "cards", "--game", "mini", "--locale", "es_ES")
    assert spanish.exit_code == 0 and "capità" in spanish.output and "[" not in spanish.output
    pseudo = run_cli("--cards", str(mini), "cards", "--game", "mini", "--locale", "qps-ploc")
    assert pseudo.exit_code == 0 and "[çöñîłłĕŵ]" in pseudo.output
    refused = run_cli("--cards", str(mini), "cards", "--game", "mini", "--locale", "xx")
    assert refused.exit_code != 0 and UNKNOWN in refused.output


def test_build_resolves_aliases_and_refuses_an_unknown_tag(mini: Path, tmp_path: Path) -> None:
    from cardworks.loading.database import Database, load_game
    from cardworks.render.build import _locales

    db = Database(game=load_game(mini / "mini"))
    assert _locales(db, ["es_ES", "qps-ploc", "es"], every_game=False) == ["es", "qps-ploc"]
    assert _locales(db, ["xx", "ES-419"], every_game=True) == ["es"]
    refused = run_cli("--cards", str(mini), "build", "--game", "mini", "--locale", "xx", "--out", str(tmp_path / "b"))
    assert refused.exit_code != 0 and UNKNOWN in refused.output
    assert not (tmp_path / "b" / "manifest.json").exists()


def test_translate_exports_for_an_alias_and_the_pseudo_locale(mini: Path) -> None:
    spanish = run_cli("--cards", str(mini), "i18n", "export", "--game", "mini", "--locale", "es_ES")
    assert spanish.exit_code == 0 and '"Language: es\\n"' in spanish.output and 'msgstr "Roba un {treasure} a un rival."' in spanish.output
    pseudo = run_cli("--cards", str(mini), "i18n", "export", "--game", "mini", "--locale", "qps-ploc")
    assert pseudo.exit_code == 0 and '"Language: qps-ploc\\n"' in pseudo.output
    assert "{treasure}" in pseudo.output and 'msgstr ""\n\n' not in pseudo.output.split("\n\n", 1)[1]
    refused = run_cli("--cards", str(mini), "i18n", "export", "--game", "mini", "--locale", "xx")
    assert refused.exit_code != 0 and UNKNOWN in refused.output


def test_translate_import_refuses_the_pseudo_locale(mini: Path, tmp_path: Path) -> None:
    exported = run_cli("--cards", str(mini), "i18n", "export", "--game", "mini", "--locale", "qps-ploc")
    po = tmp_path / "pseudo.po"
    po.write_text(exported.output, encoding="utf-8")
    refused = run_cli("--cards", str(mini), "i18n", "import", str(po), "--game", "mini")
    assert refused.exit_code != 0 and "nothing to import into it" in refused.output
    assert not (mini / "mini" / "i18n" / "qps-ploc.json").exists()


@pytest.mark.slow
def test_export_resolves_an_alias_and_the_pseudo_locale_and_refuses_an_unknown_tag() -> None:
    from cardworks.export.common import load_deck

    cards = REPO / "cards"
    assert load_deck(cards, "fallera", "base", None, "ca_ES@valencia")[2] == "ca"
    assert load_deck(cards, "fallera", "base", None, "qps-ploc")[2] == "qps-ploc"
    with pytest.raises(UsageError, match="^game 'fallera' has no locale 'xx'; it has en, ca, es and the pseudo-locale"):
        load_deck(cards, "fallera", "base", None, "xx")


@pytest.mark.slow
def test_serve_opens_on_an_alias_or_the_pseudo_locale_and_refuses_an_unknown_tag() -> None:
    from cardworks.serve import Preview, ServeOptions

    cards = REPO / "cards"
    for tag, shown in (("ca-valencia", "ca"), ("qps-ploc", "qps-ploc")):
        preview = Preview(ServeOptions(cards, game="fallera", locale=tag))
        try:
            assert preview.snapshot.default_locale == shown and preview.options.locale == shown
            assert preview.locale_or_default("ca_ES@valencia") == "ca" and preview.locale_or_default("xx") == shown
        finally:
            preview.close()
    refused = run_cli("--cards", str(cards), "serve", "--game", "fallera", "--locale", "xx")
    assert refused.exit_code == 2
    assert "game 'fallera' has no locale 'xx'; it has en, ca, es and the pseudo-locale qps-ploc" in refused.output
