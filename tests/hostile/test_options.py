"""Hostile options and state: numbers that are not numbers, selections that select nothing, a damaged
manifest, a damaged language cache, half a character in a flavour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus import cardworks, judge, mini  # noqa: F401  (fixtures)

FAMILY = "options-and-state"


@pytest.mark.parametrize("args", [("--gutter", "nan"), ("--back-offset", "nan,0"), ("--back-offset", "inf,0"),
                                  ("--back-offset", "0,-inf"), ("--set", "+"), ("--set", "base+")])
def test_bad_build_option_is_a_usage_error(mini, tmp_path: Path, args: tuple[str, str]) -> None:
    result = cardworks("--cards", str(mini.cards_root), "build", "--out", str(tmp_path / "out"), *args, timeout=30)
    judge(f"build {' '.join(args)}", FAMILY, result, refuse=True)
    assert result.exit_code == 2 and not (tmp_path / "out").exists()


@pytest.mark.parametrize("manifest", [
    {"outputs": [{"game": "mini", "locale": "es", "kind": "cards", "path": None, "pages": 1, "sha256": "x",
                  "input_hash": "y"}]},
    {"outputs": [{"game": 3, "locale": [], "kind": "cards", "path": "a.pdf", "pages": "many", "sha256": "x",
                  "input_hash": "y", "overflow": [1]}]},
    {"outputs": [{"game": "mini", "locale": "es", "kind": "cards", "path": "../../etc/passwd", "pages": 1,
                  "sha256": "x", "input_hash": "y"}]},
    {"outputs": None}, [], None,
], ids=["path-null", "wrong-types", "path-escape", "outputs-null", "list", "null"])
def test_damaged_manifest_is_ignored_not_a_traceback(mini, tmp_path: Path, manifest) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps(manifest))
    result = cardworks("--cards", str(mini.cards_root), "i18n", "status", "--build", str(out), timeout=30)
    judge(f"i18n status with a damaged manifest ({json.dumps(manifest)[:40]})", FAMILY, result, refuse=False)
    # the mini game prints its cards (default look) and its Spanish lacks some card strings: build English
    result = cardworks("--cards", str(mini.cards_root), "build", "--out", str(out), "--locale", "en", timeout=30)

    def rewritten() -> str | None:
        import hashlib

        records = json.loads((out / "manifest.json").read_text())["outputs"]
        bad = [r for r in records if not isinstance(r.get("path"), str) or ".." in r["path"]
               or not (out / r["path"]).is_file() or hashlib.sha256((out / r["path"]).read_bytes()).hexdigest() != r["sha256"]]
        written = {r["path"] for r in records}  # the mini game's pieces (its board) and the calibration sheet
        if bad or "calibration-a4.pdf" not in written:
            return f"manifest kept bad records: {bad or records}"
        return None

    judge(f"build over a damaged manifest ({json.dumps(manifest)[:40]})", FAMILY, result, refuse=False, check=rewritten)


@pytest.mark.parametrize("content", ["[]", "null", '{"abc": 5}', '{"abc": ["xx", "sure"]}', "{", "\x00\xff"])
def test_damaged_language_cache_is_started_afresh(mini, tmp_path: Path, content: str) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "language.json").write_text(content, encoding="latin-1")
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30, env={"CARDWORKS_CACHE": str(cache)})
    judge(f"language cache holding {content!r}", FAMILY, result, refuse=False)


def test_lone_surrogate_in_a_flavour_is_refused(mini) -> None:
    text = (mini.root / "sets/base.json").read_text().replace('"name": "olla"', '"name": "olla", "flavour": "bad \\ud800 half"')
    (mini.root / "sets/base.json").write_text(text)
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    judge("lone surrogate in a flavour", FAMILY, result, refuse=True, names="sets/base.json", code="json-surrogate")
