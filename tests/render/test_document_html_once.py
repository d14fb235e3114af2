"""A build generates each rulebook's and FAQ index's HTML once: the main process keys the document by it and
hands it to the worker that lays it out (a proof FAQ's scenarios are run inside its HTML, so once too)."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest

from cardworks.render.build import BuildOptions, build
from cardworks.render.docs import documents
from conftest import GameDir, mini_files

pytestmark = pytest.mark.slow  # lays out four small PDFs (with --proof: the FAQ runs scenarios in its HTML)


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """Calls of the HTML generators, by (document kind, locale)."""
    calls: Counter[tuple[str, str]] = Counter()
    for kind, name in (("rulebook", "rulebook_html"), ("faq", "faq_html")):
        real = getattr(documents, name)

        def counted(db, locale, *args, _real=real, _kind=kind, **kwargs):
            calls[(_kind, locale)] += 1
            return _real(db, locale, *args, **kwargs)
        monkeypatch.setattr(documents, name, counted)
    return calls


def test_each_document_html_is_generated_once_per_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = GameDir(tmp_path / "cards", copy.deepcopy(mini_files()))
    for locale in ("en", "es"):
        game.files[f"rules/{locale}/01-intro.md"] = "# Intro\n\nSteal one {treasure} from a rival.\n"
    game.write()
    calls = _counting(monkeypatch)
    options = BuildOptions(out=tmp_path / "out", game="mini", locales=["en", "es"], cards=False, jobs=1,
                           allow_fallback=True, proof=True)  # jobs=1: the worker runs here, where the counter is
    report = build(game.cards_root, options)
    assert sum(rendered for _, _, rendered in report.documents) == 4  # every document was laid out...
    assert calls == {(kind, locale): 1 for kind in ("rulebook", "faq") for locale in ("en", "es")}  # ...from one HTML
    calls.clear()
    again = build(game.cards_root, options)
    assert not any(rendered for _, _, rendered in again.documents)
    assert calls == Counter()  # nothing they are made from changed: no HTML is made only to key them (issue 47)
