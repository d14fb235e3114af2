"""Runaway card templates: loops, ``lipsum``, powers, huge strings and output, recursion. Each ends as
``file:line: [template-error] message`` within a second, instead of a hang, a traceback or exhausted memory.

The cases render through the real environment and budget the build uses (an override folder in front of the
shipped templates); one case runs the real ``build`` to show the line reaches the user with exit 1.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from corpus import BUILD, REPO, Result, cardworks, judge, mini  # noqa: F401  (fixtures)

FAMILY = "templates/budget"

CASES = {
    "nested range(100000) loops": ("{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
                                   "range of 100,000 items"),
    "nested range(9999) loops (each allowed)": (
        "{% for i in range(9999) %}{% for j in range(9999) %}{% endfor %}{% endfor %}", "runs too long"),
    "loop over a long string in a loop": (
        "{% set s = 'x' * 999999 %}{% for i in s %}{% for j in s %}{% endfor %}{% endfor %}", "runs too long"),
    "lipsum(n=10**8)": ("{{ lipsum(n=10**8) }}", "lipsum"),
    "macro recursion": ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "calls itself"),
    "template including itself": ("a{% include 'cards/face.html.j2' %}", "calls itself"),
    "range(10**9)": ("{{ range(10**9) | length }}", "range of 1,000,000,000 items"),
    "2.0 ** 100000": ("{{ 2.0 ** 100000 }}", "overflows"),
    "2 ** 10**8": ("{{ 2 ** 100000000 }}", "bits"),
    "10 GB string by *": ("{{ 'x' * 10**10 }}", "repeating"),
    "string doubled with ~ in a loop": (
        "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}",
        "joining with ~"),
    "list doubled with + in a loop": (
        "{% set ns = namespace(s=[1]) %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s }}",
        "'+' makes"),
    "center(10**10)": ("{{ 'x' | center(10**10) }}", "filter center"),
    "str.ljust(10**10)": ("{{ 'x'.ljust(10**10) }}", "ljust"),
    "200 MB of output": ("{% for i in range(200) %}{{ 'y' * 999999 }}{% endfor %}", "writes more than"),
}


def render(folder: Path, source: str, name: str = "cards/face.html.j2") -> str:
    """Render ``source`` as ``name`` in an override folder, through the build's environment and budget of one face."""
    from cardworks.render.jinja import environment
    from cardworks.render.sandbox import render_budgeted

    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(source)
    environment.cache_clear()
    return render_budgeted(environment((str(folder),)).get_template(name), 1, {})


@pytest.mark.parametrize("case", sorted(CASES))
def test_runaway_template_is_a_template_error_at_its_line(tmp_path: Path, case: str) -> None:
    from cardworks.render.jinja import TEMPLATE_FAILURES, template_problem

    source, expected = CASES[case]
    started = time.monotonic()
    try:
        out = render(tmp_path, "\n" + source)  # on line 2, so the line is the template's, not a default
        text, code = f"rendered {len(out):,} characters", 0
    except TEMPLATE_FAILURES as exc:
        text, code = template_problem(exc).text(), 1
    seconds = time.monotonic() - started
    result = Result(code, "", text, seconds, timed_out=seconds > 10)
    judge(case, FAMILY, result, refuse=True, names="face.html.j2:2: [template-error]")
    assert expected in text, text


def test_an_ordinary_template_stays_within_every_limit(tmp_path: Path) -> None:
    """The limits leave room: loops of a few thousand, lipsum, modest powers and strings render."""
    source = ("{% for i in range(3000) %}{{ i % 7 }}{% endfor %}{{ lipsum(2) | length > 0 }}{{ 2 ** 64 }}"
              "{{ 'ab' * 1000 }}{{ ('x' ~ 'y') | center(20) }}{% macro f(n) %}{{ f(n - 1) if n else 'done' }}"
              "{% endmacro %}{{ f(50) }}")
    out = render(tmp_path, source)
    assert out.endswith("done") and "18446744073709551616" in out and "abab" in out


def test_the_budget_is_per_render(tmp_path: Path) -> None:
    """A render that spent most of a budget leaves nothing owed by the next one."""
    heavy = "{% for i in range(9000) %}{{ i }}{% endfor %}"
    for _ in range(3):
        assert render(tmp_path, heavy).endswith("8999")


@pytest.mark.slow
def test_build_with_a_runaway_face_template_exits_1_naming_its_line(tmp_path: Path) -> None:
    """The real build: a game's face template with nested loops; the line reaches the user, nothing is written."""
    cards = tmp_path / "cards"
    shutil.copytree(REPO / "cards" / "diables", cards / "diables")
    face = cards / "diables" / "templates" / "cards" / "face.html.j2"
    face.parent.mkdir(parents=True)
    face.write_text("<div>\n{% for i in range(9999) %}{% for j in range(9999) %}{{ '' }}{% endfor %}{% endfor %}\n</div>")
    result = cardworks("--cards", str(cards), "build", "--out", str(tmp_path / "out"), *BUILD, timeout=120)
    judge("build with nested range(9999) loops in a face template", FAMILY, result, refuse=True,
          names="face.html.j2:2: [template-error]")
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_back_templates_that_are_missing_escape_or_loop_are_errors_at_their_pointers(mini) -> None:
    """One ``validate`` run: the game's battle back names a missing template, its treasure back climbs out with
    ``..``, and the set's back is the deck template (which would include itself; the build would stop it on its
    step budget at the shipped face's line, which points nowhere useful)."""
    import json

    game, sets = mini.root / "game.json", mini.root / "sets" / "base.json"
    doc = json.loads(game.read_text())
    doc["backs"] = {"battle": {"template": "cards/back-night.html.j2"},
                    "treasure": {"template": "../../../etc/passwd"}}
    game.write_text(json.dumps(doc))
    doc = json.loads(sets.read_text())
    doc["back"] = {"template": "cards/./cards.html.j2"}
    sets.write_text(json.dumps(doc))
    result = cardworks("--cards", str(mini.cards_root), "validate", timeout=30)
    for case, where, code in (("missing back template", "game.json:/backs/battle/template:", "missing-template"),
                              ("back template climbing out with ..", "game.json:/backs/treasure/template:",
                               "path-escape"),
                              ("back template naming the deck template", "base.json:/back/template:",
                               "template-loop")):
        judge(case, FAMILY, result, refuse=True, names=where, code=code)


def test_the_deck_template_does_not_fall_back_to_the_common_back(tmp_path: Path) -> None:
    """A back template removed after validation: the deck template fails on it instead of drawing the common back."""
    from cardworks.render.faces import Back
    from cardworks.render.jinja import TEMPLATE_FAILURES, environment, template_problem
    from cardworks.render.sandbox import render_budgeted

    doc = {key: 1 for key in ("layout_w", "layout_h", "page_w", "page_h", "bleed", "trim_w", "trim_h", "rules_h",
                              "card_w", "card_h", "art_h", "stats_top", "rules_top", "scale", "text_scale")}
    doc.update(lang="en", title="t", font_css="", fit_sizes=[], stylesheets=[])
    template = environment().get_template("cards/cards.html.j2")
    common = Back(title="Deck", emblem_url="", emblem_alt="")
    assert 'class="page back"' in render_budgeted(template, 1, {"doc": doc, "faces": [common], "icons": {}})
    gone = Back(title="Deck", emblem_url="", emblem_alt="", template="cards/back-gone.html.j2")
    try:
        out = render_budgeted(template, 1, {"doc": doc, "faces": [gone], "icons": {}})
        result = Result(0, out[-300:], "", 0.0, False)
    except TEMPLATE_FAILURES as exc:
        result = Result(1, "", template_problem(exc).text(), 0.0, False)
    judge("back template removed after validation", FAMILY, result, refuse=True, names="back-gone.html.j2",
          code="template-error")
