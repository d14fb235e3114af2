"""The labels of the printed documents (``templates/docs/labels/<locale>.json``) follow the same
typography as translations, and every locale has every label the source locale has."""

from __future__ import annotations

import json
from pathlib import Path

from ..i18n.plurals import PAIRS
from ..i18n.qa import typography_warnings
from ..loading.database import display_path
from ..problems import ProblemList


def labels_folder() -> Path:
    """``templates/docs/labels`` (found like ``render.jinja.templates_dir``, without importing the renderer)."""
    return Path(__file__).resolve().parents[3] / "templates" / "docs" / "labels"


def check_labels(out: ProblemList, folder: Path | None = None) -> None:
    """Warn about a label against its locale's typography, or missing from a locale; error on a broken file."""
    folder = folder or labels_folder()
    tables: dict[str, dict] = {}
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            out.error(display_path(path), "", "json-syntax", f"not a readable label file: {exc}")
            continue
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            out.error(display_path(path), "", "schema", "a label file maps each key to a string")
            continue
        tables[path.stem] = data
        for key, text in data.items():
            for code, message in typography_warnings(text, path.stem):
                out.warning(display_path(path), f"/{key}", code, message)
        for singular, plural in PAIRS.items():  # a label printed before numbers needs its plural for a range
            if singular in data and plural not in data:
                out.warning(display_path(path), f"/{plural}", "label-plural",
                            f"{singular!r} is printed before a number; the {path.stem} plural {plural!r}, printed "
                            "before a range (46-47), is missing")
            elif singular in data and data[singular] == data[plural]:
                out.warning(display_path(path), f"/{plural}", "label-plural",
                            f"{plural!r} is the same as {singular!r}: a range (46-47) takes the plural")
    known = tables.get("en", {})
    for locale, data in tables.items():
        for key in sorted(set(known) - set(data)):
            out.warning(display_path(folder / f"{locale}.json"), f"/{key}", "missing-translation",
                        f"no {locale} label {key!r}")
