"""Text for documents in one locale, falling back along the game's declared chain when allowed.

Without ``allow_fallback`` every missing string is collected and the build
fails listing them; with it, the text comes from the next locale of the chain,
and in proof mode it is marked visibly for translators.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from ...i18n import Localizer
from ...i18n.pseudo import PSEUDO_LOCALE, pseudo_text
from ...loading.database import Database
from ..jinja import templates_dir


class DocTexts:
    """Strings, labels and rulebook sections of one locale."""

    def __init__(self, db: Database, locale: str, allow_fallback: bool = False, proof: bool = False) -> None:
        game = db.game_doc
        chain = [locale, *game.fallbacks.get(locale, []), game.source_locale]
        self.chain = list(dict.fromkeys(chain))
        self.locale = locale
        self.allow_fallback = allow_fallback
        self.proof = proof
        self.localizers = {code: Localizer(db, code) for code in self.chain}
        self.missing: list[str] = []
        self.fallbacks: list[str] = []
        self.rules_root = db.game.root / "rules"
        self.source_locale = game.source_locale
        self._labels: dict[str, dict[str, str]] = {}
        """Labels per locale, read once per document (a document asks for thousands of labels)."""

    def _mark(self, text: str, used: str, what: str) -> str | Markup:
        if used == self.locale:
            return text
        self.fallbacks.append(fallback_entry(what, used))
        if self.proof:
            return Markup(f'<span class="fallback" data-locale="{escape(used)}">{escape(text)}</span>')
        return text

    def text(self, record_id: str, field: str, source: str) -> str | Markup:
        """The record's string in this locale, or from the fallback chain."""
        for code in self.chain if self.allow_fallback else self.chain[:1]:
            found, status = self.localizers[code].text(record_id, field, source)
            if status in {"source", "translated"}:
                return self._mark(found, code, f"{record_id}/{field}")
        self.missing.append(f"{record_id}/{field}")
        return source

    def label(self, key: str) -> str | Markup:
        """A user-interface label of the documents (``templates/docs/labels/<locale>.json``)."""
        for code in self.chain if self.allow_fallback else self.chain[:1]:
            labels = self._labels.get(code)
            if labels is None:
                labels = _pseudo_labels(self.source_locale) if code == PSEUDO_LOCALE else _labels(code)
                self._labels[code] = labels
            if key in labels:
                return self._mark(labels[key], code, f"label {key}")
        self.missing.append(f"label {key}")
        return key

    def section_file(self, name: str) -> tuple[Path, str] | None:
        """The Markdown file of a rulebook section in this locale (or along the chain), and its locale."""
        for code in self.chain if self.allow_fallback else self.chain[:1]:
            path = self.rules_root / code / f"{name}.md"
            if path.is_file():
                if code != self.locale:
                    self.fallbacks.append(fallback_entry(f"rules/{name}", code))
                return path, code
        self.missing.append(f"rules/{self.locale}/{name}.md")
        return None


def fallback_entry(string: str, used: str) -> str:
    """How a fallen-back string is noted: ``card-id/field (es)``: the string, then the locale its text came from."""
    return f"{string} ({used})"


def fallen_back(entries: list[str]) -> list[dict[str, str]]:
    """The notes of :func:`fallback_entry` as records (``string``, ``used``), each string once, in first-seen order,
    for the manifest, the warnings and the contents page."""
    seen: dict[str, str] = {}
    for entry in entries:
        string, _, used = entry.rpartition(" (")
        seen.setdefault(string, used.removesuffix(")"))
    return [{"string": string, "used": used} for string, used in seen.items()]


def icon_urls(index: Any, texts: DocTexts) -> dict[str, tuple[str, str]]:
    """Each icon's file URL and its alt text in the locale, for ``markup_html``."""
    return {r.id: ((r.bundle.root / r.model.svg).resolve().as_uri(), str(texts.text(r.id, "alt", r.model.alt)))
            for r in index.of_kind("icon")}


class Labels:
    """Attribute access to the labels of a locale, for templates: ``t.contents``."""

    def __init__(self, texts: DocTexts) -> None:
        self._texts = texts

    def __getattr__(self, key: str) -> str | Markup:
        return self._texts.label(key)


def _pseudo_labels(source: str) -> dict[str, str]:
    """The pseudo-locale's labels: the source locale's, accented and lengthened like its card texts."""
    return {key: pseudo_text(value) for key, value in _labels(source).items()}


def _labels(locale: str) -> dict[str, str]:
    path = templates_dir() / "docs" / "labels" / f"{locale}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
