"""Every generated PDF read back as text (pdftotext): no value below ``stated`` appears without its mark, every
page that shows a mark shows its legend, and both editions pass ``qpdf --check``.

A face is checked for its stats, types, kind, markers, icons, rules and flavour, and also for its set badge (a
set the rulebooks do not state is marked, one no source gives prints the unknown mark, which is an empty box,
never the game's own "?" icon), its name (a name only a fan list gives is marked) and a rules box no source
fills (it says the text is unknown). A board side prints each access count the rulebooks do not state marked,
each access whose destination no source gives with the unknown mark, and the legend of both.

The expectations come from the database (sources and assumptions), not from the renderer; the checker is
shown failing on a face rendered with its marks stripped.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from cardworks.loading import load_database
from cardworks.loading.records import Index
from cardworks.models.certainty import field_certainty, is_stated
from cardworks.render.deck import build_deck
from cardworks.render.docs.texts import DocTexts
from cardworks.render.faces import Face, build_job, render_pass
from conftest import REPO, run_cli

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (shutil.which("pdftotext") and shutil.which("qpdf")), reason="needs poppler-utils and qpdf")]

MARK, UNKNOWN = "†", "\u25a1"
"""The two marks as docs/building.md defines them: unknown is an empty box, never "?" (the game's own icon)."""


def _flat(text: str) -> str:
    """Text without whitespace or the hyphens line breaking adds, so a phrase is found across lines."""
    return re.sub(r"[\s\u00ad\u2010]+", "", text)


def page_texts(pdf: Path) -> list[str]:
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1] if out.endswith("\f") else out.split("\f")


def expected(db, card, locale: str, edition: str) -> tuple[list[str], int, int]:
    """What a face of ``card`` must show: the marked tokens (``2†``, ``†`` + start of a rules text), how many
    ``†`` it prints besides its legend, and how many unknowns (``?``)."""
    texts, assumed = DocTexts(db, locale), Index(db).assumed()
    game = db.game_doc
    stat_defs = {s.id: s for s in game.stats}
    tokens, marks, unknown = [], 0, 0
    missing = {m.field for m in card.missing}
    for stat in stat_defs.values():
        if stat.id not in card.stats and f"stats/{stat.id}" not in missing:
            continue
        value = card.stats.get(stat.id)
        if value is None and stat.default is not None:
            continue
        if value is None:
            stand_in = assumed.get((card.id, f"stats/{stat.id}"))
            if edition == "playtest" and isinstance(stand_in, int):
                tokens.append(f"{stand_in}{MARK}")
                marks += 1
            else:
                unknown += 1
        elif not is_stated(card.sources, f"stats/{stat.id}"):
            tokens.append(f"{value}{MARK}")
            marks += 1
    for field in ("rules", "flavour"):
        if getattr(card, field) and not is_stated(card.sources, field):
            tokens.append(MARK + _flat(str(texts.text(card.id, field, getattr(card, field))))[:12])
            marks += 1
    if card.rules is None and field_certainty(card.sources, "rules") is None:
        tokens.append(UNKNOWN + _flat(str(texts.label("rules_unknown")))[:12])  # the box says no source gives it
        unknown += 1
    marks += field_certainty(card.sources, "name") not in (None, "stated")  # a name from a fan list
    marks += not is_stated(card.sources, "types")
    kinds = {v.id for a in game.attributes if a.id == "treasure-kind" for v in a.values}
    marks += card.attributes.get("treasure-kind") in kinds and not is_stated(card.sources, "attributes/treasure-kind")
    marks += len(card.markers) * (not is_stated(card.sources, "markers"))
    marks += len(card.icons) * (not is_stated(card.sources, "icons"))
    return tokens, marks, unknown


def face_problems(db, cards: list, pages: list[str], locale: str, edition: str) -> list[str]:
    """For one face per page: each value below ``stated`` missing its mark, a wrong count of marks, or a
    missing legend (``card: what``)."""
    texts = DocTexts(db, locale)
    not_stated = _flat(str(texts.label("mark_not_stated_playtest" if edition == "playtest" else "mark_not_stated")))
    unknown_label = _flat(str(texts.label("mark_unknown")))
    problems = []
    for card, page in zip(cards, pages):
        flat = _flat(page)
        tokens, marks, unknown = expected(db, card, locale, edition)
        if card.set_certainty != "stated" and field_certainty(card.sources, "set") is None:
            unknown += 1  # no source gives the set: its badge is the unknown mark, never a guessed set marked
        else:
            # a set mark printed after a set the rulebooks do not state is marked; a set whose cards print no
            # mark (the base game) prints its number as the badge, marked, when its set is not stated
            marks += card.set_certainty != "stated"
        problems += [f"{card.id}: {token!r} not printed" for token in tokens if token not in flat]
        if flat.count(MARK) != marks + (marks > 0):
            problems.append(f"{card.id}: {flat.count(MARK)} marks printed, {marks} values not stated (+1 legend)")
        if marks and not_stated not in flat:
            problems.append(f"{card.id}: no legend for {MARK}")
        if unknown and (flat.count(UNKNOWN) != unknown + 1 or unknown_label not in flat):
            problems.append(f"{card.id}: {unknown} unknown value(s), {flat.count(UNKNOWN)} '{UNKNOWN}' printed "
                            f"(+1 legend) or no legend")
        if not unknown and UNKNOWN in flat:
            problems.append(f"{card.id}: '{UNKNOWN}' printed and nothing is unknown")
        icon = card.attributes.get("treasure-kind") == "other"  # the game's own "?" icon (its SVG draws a "?")
        if flat.count("?") > icon:
            problems.append(f"{card.id}: '?' printed, which reads as the game's own icon")
    return problems


def board_problems(db, pages: list[str], locale: str) -> list[str]:
    """For one board side per page (in the order of the boards' sides): an access count the rulebooks do not
    state printed without its mark, an access whose destination no source gives without the unknown mark,
    either mark without its legend, or a "?" (``side: what``)."""
    from cardworks.render.docs.generated import _stated_count

    texts = DocTexts(db, locale)
    sides = [(record, side) for record in Index(db).of_kind("board") for side in record.model.sides]
    problems = []
    for (record, side), page in zip(sides, pages):
        flat = _flat(page)
        unsure = [s for s in side.spaces if s.accesses is not None and not s.start and not _stated_count(record, side, s)]
        inferred = [e for e in side.edges if e.certainty != "stated" or (e.source and e.source.certainty != "stated")]
        degree = {s.id: sum(s.id in e.between for e in side.edges) for s in side.spaces}
        open_ends = sum(max(0, (s.accesses or 0) - degree[s.id]) for s in side.spaces if not s.start)
        marked_counts = len(re.findall(rf"\d{MARK}", flat))
        if marked_counts < len(unsure):
            problems.append(f"{side.id}: {len(unsure)} access counts not stated, {marked_counts} printed marked")
        if (unsure or inferred) and flat.count(MARK) < len(unsure) + len(inferred) + 1:
            problems.append(f"{side.id}: {flat.count(MARK)} '{MARK}' printed for {len(unsure) + len(inferred)} values (+1 legend)")
        if (unsure or inferred) and _flat(str(texts.label("map_inferred"))) not in flat:
            problems.append(f"{side.id}: no legend for {MARK}")
        if open_ends and (flat.count(UNKNOWN) < open_ends + 1 or _flat(str(texts.label("map_unknown"))) not in flat):
            problems.append(f"{side.id}: {open_ends} accesses lead nowhere known, {flat.count(UNKNOWN)} '{UNKNOWN}' printed")
        if "?" in flat:
            problems.append(f"{side.id}: '?' printed, which reads as the game's own icon")
    return problems


def legend_problems(pdf: Path, labels: list[str]) -> list[str]:
    """Pages that print a mark without one of the legends that explain it."""
    return [f"{pdf.name} page {n}" for n, page in enumerate(page_texts(pdf), 1)
            if MARK in page and not any(label in _flat(page) for label in labels)]


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, Path]:
    """Fallera (rulebook, FAQ and cards) in both editions, and Diables, in English."""
    outs = {}
    for name, args in {"fact": ["--game", "fallera"], "playtest": ["--game", "fallera", "--edition", "playtest", "--no-docs"],
                       "diables": ["--game", "diables"]}.items():
        out = tmp_path_factory.mktemp(name)
        run = run_cli("--cards", str(REPO / "cards"), "build", "--out", str(out), "--locale", "en", "--jobs", "2", *args)
        assert run.exit_code == 0, run.output
        outs[name] = out
    return outs


def _records(out: Path) -> list[dict]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))["outputs"]


@pytest.mark.parametrize("name", ["fact", "playtest", "diables"])
def test_no_value_below_stated_is_printed_unmarked(builds, name: str) -> None:
    out = builds[name]
    game = "diables" if name == "diables" else "fallera"
    edition = "playtest" if name == "playtest" else "fact"
    db = load_database(REPO / "cards" / game)
    shops = [r for r in _records(out) if r["kind"] == "cards-print-shop"]
    assert shops
    for record in shops:
        deck = build_deck(db, record["selection"], edition=edition)
        cards = [entry.card for entry in deck.cards]
        pages = page_texts(out / record["path"])
        assert face_problems(db, cards, pages[:len(cards)], "en", edition) == []
    labels = [_flat(str(DocTexts(db, "en").label(key))) for key in ("mark_not_stated", "mark_not_stated_playtest")]
    pdfs = [out / r["path"] for r in _records(out) if r["path"].endswith(".pdf")]
    assert [p for pdf in pdfs for p in legend_problems(pdf, labels)] == []


def test_the_board_marks_what_is_not_stated_and_what_is_unknown_on_every_side(builds) -> None:
    """The board's A3 file, one side a page: the unknown destinations (the empty-box mark) are checked here."""
    db = load_database(REPO / "cards" / "fallera")
    pages = page_texts(builds["fact"] / "fallera/en/board-a3.pdf")
    problems = board_problems(db, pages, "en")
    assert problems == []


def test_the_board_marks_its_unstated_access_counts(builds) -> None:
    db = load_database(REPO / "cards" / "fallera")
    assert board_problems(db, page_texts(builds["fact"] / "fallera/en/board-a3.pdf"), "en") == []


def test_the_editions_are_named_recorded_and_different(builds) -> None:
    fact = {r["path"]: r for r in _records(builds["fact"]) if r["kind"] == "cards"}
    play = {r["path"]: r for r in _records(builds["playtest"]) if r["kind"] == "cards"}
    assert set(fact) == {"fallera/en/cards-expert-a4.pdf"} and set(play) == {"fallera/en/cards-expert-playtest-a4.pdf"}
    assert [r["edition"] for r in (*fact.values(), *play.values())] == ["fact", "playtest"]
    sangonera = [p for p in page_texts(builds["playtest"] / "fallera/en/print-shop/cards-expert-playtest.pdf")
                 if _flat(p).startswith("elTioSangonera")][0]
    assert "A2†" in _flat(sangonera) and "D1†" in _flat(sangonera), "the stand-ins print, marked"


@pytest.mark.parametrize("name", ["fact", "playtest", "diables"])
def test_every_pdf_passes_qpdf_check(builds, name: str) -> None:
    assert any(r["path"].endswith(".pdf") for r in _records(builds[name]))
    for record in _records(builds[name]):
        if record["path"].endswith(".pdf"):
            check = subprocess.run(["qpdf", "--check", str(builds[name] / record["path"])], capture_output=True, text=True)
            assert check.returncode == 0, (record["path"], check.stdout[-500:], check.stderr[-500:])


def test_the_checker_fails_on_a_face_printed_without_its_marks(tmp_path: Path) -> None:
    db = load_database(REPO / "cards" / "fallera")
    deck = build_deck(db, "base")
    chosen = ("espill-lluent", "el-tio-sangonera", "el-capita-moro", "rata-penada-cleptomana", "garrofo", "el-momo")
    job = build_job(db, deck, "en")
    faces = [f for f in job.faces if isinstance(f, Face) and f.id in chosen]
    cards = [next(e.card for e in deck.cards if e.card.id == f.id) for f in faces]
    honest = tmp_path / "honest.pdf"
    honest.write_bytes(render_pass(replace(job, faces=faces)).pdf)
    assert face_problems(db, cards, page_texts(honest), "en", "fact") == []
    stripped = [replace(f, stats=[{**s, "value": str(s["value"]).rstrip(MARK).replace(UNKNOWN, "")} for s in f.stats],
                        rules=None if f.rules_unknown else f.rules.lstrip(MARK) if f.rules else f.rules, unverified="",
                        name_mark="", marks=[m for m in f.marks if m.url]) for f in faces]
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(render_pass(replace(job, faces=stripped)).pdf)
    problems = face_problems(db, cards, page_texts(bad), "en", "fact")
    assert any(p.startswith("espill-lluent: '1†' not printed") for p in problems), problems
    assert any(p.startswith("espill-lluent: '†Attach") for p in problems), problems
    assert any(p.startswith("el-tio-sangonera: 3 unknown") for p in problems), problems  # A, D and its blank rules box
    assert not [p for p in problems if p.startswith("el-capita-moro")], "a stated card has nothing to mark"
    assert any(p.startswith("rata-penada-cleptomana: 0 marks printed, 1") for p in problems), problems  # its name
    assert any(p.startswith("rata-penada-cleptomana: '□rulestext") for p in problems), problems  # a blank rules box
    assert any(p.startswith("garrofo: 2 marks printed, 3") for p in problems), problems  # its base set badge
    assert any(p.startswith("el-momo: 4 unknown value(s), 0") for p in problems), problems  # its unknown set badge
    guessed = [replace(f, marks=[replace(m, text="", mark=MARK, url=f.type_icons[0].url) if not m.url else m
                                 for m in f.marks]) for f in faces if f.id == "el-momo"]
    old_way = tmp_path / "guess.pdf"  # a set no source gives printed as a guessed badge, marked (as it was)
    old_way.write_bytes(render_pass(replace(job, faces=guessed)).pdf)
    momo = [c for c in cards if c.id == "el-momo"]
    found = face_problems(db, momo, page_texts(old_way), "en", "fact")
    assert "el-momo: 1 marks printed, 0 values not stated (+1 legend)" in found, found
