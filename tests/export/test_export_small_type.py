"""Issue 44 item 6 for the exports: type printed under the smallest legible size is reported by ``export
print-shop`` (every profile) and ``export tts`` as ``cardworks build`` reports it, one ``[type-too-small]``
warning per card naming its parts, and written to ``export.json``. Before, only build and validate said so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO, run_cli

pytestmark = pytest.mark.slow

CARDS = REPO / "cards"


def _pack(folder: Path, minimum: dict[str, float]) -> Path:
    """The example pack (14 poker cards) asking for type at least ``minimum`` points."""
    shutil.copytree(REPO / "examples" / "fallera-pack", folder)
    manifest = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    manifest["min_type_pt"] = minimum
    (folder / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def _warnings(output: str) -> list[str]:
    return [line for line in output.splitlines() if "[type-too-small]" in line]


@pytest.fixture(scope="module")
def strict_pack(tmp_path_factory) -> Path:
    """Rules text and credits must print at 12 pt or more: the example cards print their rules smaller."""
    return _pack(tmp_path_factory.mktemp("small") / "pack", {"text": 12.0, "credits": 12.0})


def test_print_shop_export_warns_as_build_does(strict_pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "shop"
    result = run_cli("--cards", str(CARDS), "export", "print-shop", str(strict_pack), "--profile", "pdf",
                     "--locale", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    warned = _warnings(result.output)
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    small = record["small_type"]
    assert len(warned) == len(small) >= 10, result.output  # most of the 14 cards: their rules are under 12 pt
    for line in warned:
        card = line.split()[4]
        assert line.startswith(f"warning: [type-too-small] example-pack en {card} (") and card in small, line
        assert "rules" in line and "(12 pt; docs/templates.md)" in line, line
    assert all(least == 12 and size < 12 for parts in small.values() for size, least in parts.values())

    build = tmp_path / "build"
    built = run_cli("--cards", str(CARDS), "build", str(strict_pack), "--out", str(build), "--locale", "en",
                    "--jobs", "1", "--no-docs")
    assert built.exit_code == 0, built.output
    assert sorted(_warnings(built.output)) == sorted(warned)  # the same faces, parts and sizes, the same words


def test_shop_profile_and_tts_warn_too(strict_pack: Path, tmp_path: Path) -> None:
    shop = run_cli("--cards", str(CARDS), "export", "print-shop", str(strict_pack), "--profile", "thegamecrafter",
                   "--locale", "en", "--out", str(tmp_path / "tgc"))
    assert shop.exit_code == 0, shop.output
    tts = run_cli("--cards", str(CARDS), "export", "tts", str(strict_pack), "--locale", "en",
                  "--out", str(tmp_path / "tts"))
    assert tts.exit_code == 0, tts.output
    assert _warnings(shop.output) and sorted(_warnings(shop.output)) == sorted(_warnings(tts.output))
    record = json.loads((tmp_path / "tgc" / "export.json").read_text(encoding="utf-8"))
    assert set(record["small_type"]) == {line.split()[4] for line in _warnings(shop.output)}


def test_no_warning_when_the_type_is_large_enough(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "pack", {"text": 3.0, "credits": 3.0})
    out = tmp_path / "shop"
    result = run_cli("--cards", str(CARDS), "export", "print-shop", str(pack), "--profile", "pdf", "--locale", "en",
                     "--out", str(out), "--strict")  # nothing too small, nothing overflowing: --strict exports it
    assert result.exit_code == 0, result.output
    assert not _warnings(result.output)
    assert json.loads((out / "export.json").read_text(encoding="utf-8"))["small_type"] == {}


def test_strict_refuses_and_leaves_the_folder_as_it_was(strict_pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "shop"
    first = run_cli("--cards", str(CARDS), "export", "print-shop", str(strict_pack), "--profile", "pdf",
                    "--locale", "en", "--out", str(out))
    assert first.exit_code == 0, first.output
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    refused = run_cli("--cards", str(CARDS), "export", "print-shop", str(strict_pack), "--profile", "pdf",
                      "--locale", "en", "--out", str(out), "--strict")
    assert refused.exit_code == 1, refused.output
    assert "type too small to read on example-orxata (" in refused.output and "nothing was exported" in refused.output
    assert "sets/example.json:/cards/0/rules" in refused.output and "[type-too-small]" in refused.output
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before  # the earlier export stays


def test_tts_strict_refuses_as_print_shop_does(strict_pack: Path, tmp_path: Path) -> None:
    """``export tts --strict`` is the print-shop export's ``--strict``: the same refusal, before any file is
    written, and the earlier export left as it was (before, tts had no ``--strict`` and only warned)."""
    out = tmp_path / "tts"
    first = run_cli("--cards", str(CARDS), "export", "tts", str(strict_pack), "--locale", "en", "--out", str(out))
    assert first.exit_code == 0, first.output
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    refused = run_cli("--cards", str(CARDS), "export", "tts", str(strict_pack), "--locale", "en", "--out", str(out),
                      "--strict")
    assert refused.exit_code == 1, refused.output
    assert "type too small to read on example-orxata (" in refused.output and "nothing was exported" in refused.output
    assert "sets/example.json:/cards/0/rules" in refused.output and "[type-too-small]" in refused.output
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert not list(tmp_path.glob(".tts.staging-*"))  # the refused run's staging folder is gone too
