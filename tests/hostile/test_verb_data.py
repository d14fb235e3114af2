"""Hostile verb data in a pack: a discard of an amount the vocabulary does not know, or an attach where no card
is played from the hand, is refused at its JSON pointer, never played blank."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from corpus import cardworks, judge

FAMILY = "data"
PACK = Path(__file__).resolve().parents[1] / "engine" / "verbs_pack"
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case, change, pointer, code", [
    ("discard a third", {"verb": "discard", "count": "third"}, "/cards/2/effects/0/do/0", "bad-value"),
    ("attach on a counter", None, "/cards/2/effects/0", "effect-never-fires"),
])
def test_bad_verb_data_in_a_pack_is_refused_at_its_pointer(tmp_path: Path, case: str, change, pointer: str,
                                                           code: str) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    path = pack / "sets" / "fixture.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    card = data["cards"][2]
    if change is None:  # the attach moved onto a treasure's turn-start: no card is played from the hand there
        card.update(types=["treasure"], attributes={"treasure-kind": "other"})
        card["effects"] = [{"when": {"event": "turn-start"}, "do": [{"verb": "attach"}]}]
        data["totals"]["by_type"] = {"battle": 2, "special": 10, "treasure": 1}
    else:
        card["effects"][0]["do"] = [change]
    path.write_text(json.dumps(data), encoding="utf-8")
    for user in pack.rglob("*.json"):  # the copy lives elsewhere: point $schema back at the repository
        text = user.read_text(encoding="utf-8")
        user.write_text(text.replace('"../../../../schema/', f'"{REPO}/schema/').replace(
            '"../../../schema/', f'"{REPO}/schema/'), encoding="utf-8")
    result = cardworks("validate", str(pack), timeout=60)
    judge(case, FAMILY, result, refuse=True, names=f"fixture.json:{pointer}", code=code)
