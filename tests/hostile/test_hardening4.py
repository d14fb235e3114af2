"""Issue 49 (hardening 4), the findings on inputs: a garbage cache table, a forged image verdict, contents pages
naming files that are not there, ``check --save-failures`` overwriting a kept scenario or writing into an unusable
folder, typed expectations taking other types, imports taking invisible characters or dropping plurals unnamed,
and Tabletop Simulator base URLs that are no URLs."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import cardworks, judge, mini  # noqa: F401  (fixtures)


@pytest.mark.parametrize("url", ["http://", "https://", "http:///decks", "http://example.org/my decks/",
                                 "https://example.org/decks/\nhttp://evil.example/", "http://exa\tmple.org/"])
def test_a_tts_base_url_that_is_no_url_is_refused_naming_the_option(mini, tmp_path: Path, url: str) -> None:
    out = tmp_path / "tts"
    result = cardworks("--cards", str(mini.cards_root), "export", "tts", "--out", str(out), "--base-url", url,
                       timeout=60)
    judge(f"export tts --base-url {url!r}", "exports", result, refuse=True)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "--base-url" in lines[0], result.stderr
    assert not out.exists()


def _png(size: tuple[int, int] = (660, 380)) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.effect_noise(size, 64).convert("RGB").save(out, "PNG")
    return out.getvalue()


def _with_art(mini, data: bytes, name: str = "art.png") -> None:
    import json

    (mini.root / "art").mkdir(exist_ok=True)
    (mini.root / "art" / name).write_bytes(data)
    sets = mini.root / "sets" / "base.json"
    doc = json.loads(sets.read_text())
    doc["cards"][0]["art"] = f"art/{name}"
    sets.write_text(json.dumps(doc))


@pytest.mark.parametrize("table", ["language.json", "images.json"])
def test_a_cache_table_of_deeply_nested_json_is_started_afresh(mini, tmp_path: Path, table: str) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / table).write_text("[" * 200_000 + "]" * 200_000)
    _with_art(mini, _png())  # so the image table is read
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=60, env={"CARDWORKS_CACHE": str(cache)})

    def afresh() -> str | None:
        import json

        if table == "images.json" and not isinstance(json.loads((cache / table).read_text()), dict):
            return "the image table was not started afresh"
        return None

    judge(f"{table} in the cache folder nested 200,000 deep", "options-and-state", result, refuse=False,
          check=afresh)


@pytest.mark.parametrize("sees, where", [({"deck_size": 1.0}, "deck_size"), ({"hand_sizes.1": False}, "hand_sizes.1"),
                                         ({"hand_sizes": [1.0, 0, 0, 0, 0]}, "hand_sizes"),
                                         ({"turn": True}, "turn")])
def test_a_typed_observation_of_another_type_is_refused_at_its_pointer(tmp_path: Path, sees: dict,
                                                                        where: str) -> None:
    """The starting position shows ``deck_size`` 1, ``hand_sizes`` [1, 0, 0, 0, 0], ``turn`` 1: each expectation
    here is right but for its type (``1.0 == 1`` and ``False == 0`` in Python), and used to pass both commands."""
    import json

    from conftest import FIXTURE_CARDS

    source = json.loads((FIXTURE_CARDS / "fallera/scenarios/base.json").read_text(encoding="utf-8"))
    source["scenarios"] = [s for s in source["scenarios"] if s["id"] == "scenario-base-five-player-cabeca-d-alls"]
    source["scenarios"][0]["expect"].append({"after": 0, "observe": "p1", "sees": sees})
    n = len(source["scenarios"][0]["expect"]) - 1
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(source), encoding="utf-8")
    pointer = f"{path.name}:/scenarios/0/expect/{n}/sees/{where}:"
    result = cardworks("--cards", str(FIXTURE_CARDS), "check", "--game", "fallera", "--scenarios", str(path),
                       "--playouts", "0", timeout=60)
    judge(f"check: sees {json.dumps(sees)} where the game shows integers", "options-and-state", result,
          refuse=True, names=pointer, code="expectation-type")
