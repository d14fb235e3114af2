"""A pack names the engine features its own cards wait on (``pack.json``'s ``waits_for``): such a need is no
dangling reference, the card is left out of play with the pack's feature named, and ``check`` counts it among
the cards waiting; a name neither the engine nor the pack declares is still refused at its pointer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cardworks.i18n import source_hash
from conftest import REPO, run_cli

EXAMPLE = REPO / "examples" / "fallera-pack"
WAITING = {"id": "example-rescat", "quantity": 1, "types": ["special"], "name": "rescat d'exemple",
           "needs": [{"feature": "cemetery-swap", "behaviour": "trades a hand card for one in the discard pile"}],
           "rules": "Play it on your turn: swap a card of your hand for one of the discard pile.",
           "sources": [{"doc": "fallera-base", "section": "Special Cards", "lines": "38-51", "certainty": "inferred",
                        "note": "An invented card for a test: a mechanism the engine does not have."}]}


def pack_with_a_waiting_card(tmp_path: Path, waits_for: dict[str, str] | None) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(EXAMPLE, pack)
    card_set = json.loads((pack / "sets" / "example.json").read_text("utf-8"))
    card_set["cards"].append(WAITING)
    totals = card_set["totals"]
    totals["designs"], totals["cards"] = totals["designs"] + 1, totals["cards"] + 1
    totals["by_type"]["special"] += 1
    (pack / "sets" / "example.json").write_text(json.dumps(card_set, ensure_ascii=False), "utf-8")
    spanish = json.loads((pack / "i18n" / "es.json").read_text("utf-8"))  # the pack builds in Spanish too
    spanish["entries"]["example-rescat"] = {
        field: {"text": text, "source": WAITING[field], "source_hash": source_hash(WAITING[field])}
        for field, text in (("name", "rescat de ejemplo"),
                            ("rules", "Juégala en tu turno: cambia una carta de tu mano por una de la pila de descarte."))}
    (pack / "i18n" / "es.json").write_text(json.dumps(spanish, ensure_ascii=False), "utf-8")
    if waits_for is not None:
        doc = json.loads((pack / "pack.json").read_text("utf-8"))
        (pack / "pack.json").write_text(json.dumps({**doc, "waits_for": waits_for}, ensure_ascii=False), "utf-8")
    return pack


def test_an_undeclared_feature_is_refused_at_its_pointer(tmp_path: Path) -> None:
    pack = pack_with_a_waiting_card(tmp_path, None)
    run = run_cli("validate", str(pack))
    assert run.exit_code == 1
    assert "/needs/0/feature: [dangling-ref] unknown engine feature 'cemetery-swap'" in run.output
    assert "waits_for" in run.output  # says where a pack declares its own


def test_a_feature_the_pack_declares_is_waited_on_and_counted_by_check(tmp_path: Path) -> None:
    pack = pack_with_a_waiting_card(tmp_path, {"cemetery-swap": "trading a hand card for one in the discard pile"})
    assert run_cli("validate", str(pack)).exit_code == 0
    run = run_cli("check", str(pack), "--playouts", "0", "--format", "json")
    report = json.loads(run.output)
    assert "cemetery-swap" in report["left_out"]["example-rescat"]
    assert report["features_waited_on"]["cemetery-swap"] == {"cards": 1, "freed_alone": 1}


def test_a_pack_declaring_a_feature_the_engine_has_is_told(tmp_path: Path) -> None:
    pack = pack_with_a_waiting_card(tmp_path, {"cemetery-swap": "x", "attachments": "attached specials"})
    run = run_cli("validate", str(pack))
    assert "pack.json:/waits_for/attachments: [feature-known] warning: the engine already declares 'attachments'" in run.output
