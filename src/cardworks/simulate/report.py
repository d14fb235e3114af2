"""The simulation report: ``report.json`` (every figure), ``report.html`` (self-contained, matplotlib
plots as inline SVG) and a text summary for the terminal.

The JSON holds figures only, no timings or worker counts, so the same run gives the
same bytes on any executor. Plots are drawn with matplotlib's object API (no pyplot
global state) and written with a fixed SVG id salt and no date, so the HTML is
reproducible too.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from jinja2 import Environment

from ..errors import DataError
from ..fileio import OS_ERROR_CODES, remove_stale_temps, write_text_atomic
from ..problems import Problem
from .verdicts import ALPHA, MOST_UNDECIDED_GAMES, answer_label, label

INK, ACCENT, MUTED = "#1f3b57", "#c8553d", "#8a8f98"


def to_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _out_problem(path: Path, code: str, message: str) -> DataError:
    return DataError("the simulation report was not written", [Problem(str(path), "", code, message)])


def check_out(out: Path) -> None:
    """A :class:`DataError` naming ``--out`` when it cannot hold the report, said before any game is played:
    a file or a device where the folder should be, or a place no folder can be made."""
    existing = out
    while not existing.exists() and not existing.is_symlink() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        where = "--out" if existing == out else f"{existing}, on the way to --out,"
        if existing.is_symlink():  # a link to a folder is followed; one to nothing, a file or itself is not
            where += f" is a symbolic link to {os.readlink(existing)}, which"
        raise _out_problem(out, "not-a-folder", f"{where} is not a folder; the report is a folder of two files")
    try:  # a real probe: /proc and read-only mounts say yes to access() and no to a new folder
        os.rmdir(tempfile.mkdtemp(dir=existing, prefix=".cardworks-probe-"))
    except OSError as exc:
        raise _out_problem(out, OS_ERROR_CODES.get(exc.errno or 0, "output-unwritable"),
                           f"no folder can be made in {existing}: {exc.strerror or exc}") from None


def write_report(report: dict[str, Any], out: Path) -> list[Path]:
    """``out/report.json`` and ``out/report.html``, each written atomically, and both made before either is
    written: a report that cannot be made whole leaves the folder as it was."""
    check_out(out)
    paths = [out / "report.json", out / "report.html"]
    texts = [to_json(report), to_html(report)]
    try:
        for path, text in zip(paths, texts):
            remove_stale_temps(path)  # left by a run killed between writing this file and renaming it
            write_text_atomic(path, text)
    except OSError as exc:  # /proc, a full disk: said as a problem of --out
        raise _out_problem(out, OS_ERROR_CODES.get(exc.errno or 0, "output-unwritable"),
                           f"cannot write the report: {exc.strerror or exc}") from None
    return paths


# --- text -----------------------------------------------------------------------------------------------

def _pct(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:5.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _diff(d: dict[str, Any]) -> str:
    if d.get("difference") is None:
        return "-"
    mark = " *" if d["significant"] else ""
    return f"{100 * d['difference']:+.1f} pts [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]{mark}"


def to_text(report: dict[str, Any]) -> str:
    if "sweep" in report:
        return _sweep_text(report["sweep"])
    text = _compare_text(report) if "compare" in report else _run_text(report)
    return text + _trust_text(report)


def _trust_text(report: dict[str, Any]) -> str:
    rows = report.get("agent_strength")
    if not rows:
        return ""
    lines = ["How strong the agents are (win rate over their seats, 95% CI; trust verdicts as far as the agents play well):"]
    lines += [f"  {r['agent']} against {r['against']}: {_pct(r).strip()} of its seats in {r['games']} games"
              + ("  above an even share" if r["beats_even"] else "  NOT above an even share") for r in rows]
    return "\n".join(lines) + "\n"


def _sweep_text(sweep: dict[str, Any]) -> str:
    t = sweep["table"]
    lines = []
    if sweep.get("stalled"):
        lines += [f"GAMES WITHOUT A WINNER at {sweep['field']} = {', '.join(map(str, sweep['stalled']))}: more than "
                  f"{100 * MOST_UNDECIDED_GAMES:.0f}% of the games there decided nothing (not decided, never in line)", ""]
    lines += [f"Sweep of {sweep['card']}.{sweep['field']}: {t['game']} {t['set']}{''.join(' + ' + p for p in t['packs'])}, "
              f"{t['players']} players, {t['games']} games a value, seed {t['seed']}, agents {','.join(t['agents'])}",
              "  value: paired effect [95% CI] (adjusted p); its type's base band; verdict; games its effect ended; "
              "games without a winner"]
    for row in sweep["values"]:
        s, band = row["strength"] or {}, row["band"] or {"low": 0.0, "high": 0.0}
        effect = ("plain (0)" if s.get("plain") else "-" if s.get("difference") is None else
                  f"{100 * s['difference']:+.1f} pts [{100 * s['low']:+.1f}, {100 * s['high']:+.1f}] (p {s['p_adjusted']:.2g})")
        none = row.get("no_winner")
        edges = (f" (intervals {100 * band['weak_below']:+.1f} to {100 * band['strong_above']:+.1f})"
                 if "strong_above" in band else "")
        lines.append(f"  {row['value']}: {effect}; band {100 * band['low']:+.1f} to {100 * band['high']:+.1f} pts{edges}; "
                     f"{answer_label(row)}; {_pct(row['decided_by_effect']).strip()}"
                     + (f"; {_pct(none).strip()} without a winner" if none and none["rate"] else ""))
    in_line = sweep["in_line"]
    lines.append(f"In line at {sweep['field']} = {', '.join(map(str, in_line))}" if in_line
                 else f"In line at no value of {sweep['field']} swept")
    return "\n".join(lines) + "\n"


def _run_text(fig: dict[str, Any], top: int = 10) -> str:
    t = fig["table"]
    lines = _stall_lead(fig) + [f"{t['game']} {t['set']}{''.join(' + ' + p for p in t['packs'])}, {t['players']} players, "
             f"{t['games']} games, seed {t['seed']}, agents {','.join(t['agents'])}"
             + (" (seats rotate each game)" if t["rotated"] else "")] + _sequential_text(fig) + ["",
             "Win rate per seat (of decided games, 95% CI):"]
    lines += [f"  {s['seat']}: {_pct(s)}" for s in fig["seats"]]
    lines.append(f"  no winner: {_pct(fig['no_winner'])}   stalls (step cap {t['step_cap']}): {_pct(fig['stalls'])}")
    if fig["stalled_games"]:
        lines.append(f"  stalled games (replay one: --first N --games 1): {', '.join(map(str, fig['stalled_games']))}")
    lines.append("Win rate per agent (of its seats):")
    lines += [f"  {a}: {_pct(r)}{'  above an even share' if r['beats_even'] else ''}" for a, r in fig["agents"].items()]
    for d in fig["agent_differences"]:
        lines.append(f"  {d['agents'][0]} - {d['agents'][1]}: {_diff(d)}")
    lines.append("Game length (mean [95% CI], median, 10th-90th percentile):")
    for key, dist in fig["length"].items():
        if dist["n"]:
            lines.append(f"  {key}: {dist['mean']:.1f} [{dist['low']:.1f}, {dist['high']:.1f}], median {dist['median']}, "
                         f"{dist['p10']}-{dist['p90']}")
    lines.append("Endings: " + ", ".join(f"{k} {_pct(v).strip()}" for k, v in fig["endings"].items()))
    if "cards" in fig:
        cards = sorted(fig["cards"], key=lambda c: -(c["improvement"]["difference"] or 0))
        shown = cards[:top] + [c for c in cards[top:] if c["pack"]]
        lines.append(f"Cards: win rate when held minus when not (top {top}{' and pack cards' if fig.get('pack') else ''}; * significant):")
        lines += [f"  {c['card']}{' [pack]' if c['pack'] else ''}: {_diff(c['improvement'])}, held in "
                  f"{c['held']} player-games, played {c['played_per_game']:.2f}/game" for c in shown]
        if "pack" in fig:
            pack = fig["pack"]
            lines.append(f"  any pack card: {_diff(pack['improvement'])}")
            if pack["mean_improvement_pack"] is not None and pack["mean_improvement_base"] is not None:
                lines.append(f"  pack cards against the base deck: mean improvement {100 * pack['mean_improvement_pack']:+.1f} pts "
                             f"against {100 * pack['mean_improvement_base']:+.1f} pts; "
                             + ", ".join(f"{card} improves more than {rank} of {pack['base_cards']}"
                                         for card, rank in sorted(pack["rank_among_base"].items())))
        lines += _activity_text(fig["cards"], top)
    lines += _verdict_text(fig)
    lines += _left_out_text(fig)
    return "\n".join(lines) + "\n"


def _activity_text(cards: list[dict[str, Any]], top: int) -> list[str]:
    """Per card: plays, placings, triggers and firings per game, and the games it decided (pack cards, and the
    base cards most active)."""
    active = [c for c in cards if c["pack"] or c["decided"]["rate"] or c["triggers_per_game"] or c["played_per_game"]]
    active.sort(key=lambda c: (not c["pack"], -c["decided"]["rate"], -c["played_per_game"], c["card"]))
    shown = [c for c in active if c["pack"]] + [c for c in active if not c["pack"]][:top]
    if not shown:
        return []
    lines = ["Card activity per game (played, reached a counter, effects triggered, verbs fired; games it ended):"]
    for c in shown:
        effect = c["decided_by_effect"]["rate"]
        lines.append(f"  {c['card']}{' [pack]' if c['pack'] else ''}: played {c['played_per_game']:.2f}, placed "
                     f"{c['placed_per_game']:.2f}, triggers {c['triggers_per_game']:.2f}, firings {c['firings_per_game']:.2f}; "
                     f"ended {_pct(c['decided']).strip()} of games" + (f" ({100 * effect:.1f}% by its own effect)" if effect else ""))
    return lines


def _verdict_text(fig: dict[str, Any]) -> list[str]:
    verdicts = fig.get("verdicts")
    if not verdicts:
        return []
    t = verdicts["thresholds"]
    level = round(100 * (1 - t["alpha"]), 2)
    lines = [f"Verdicts (paired effect against the base cards of its type, {level:g}% intervals; strong or weak: "
             f"{t['correction']} at {t['alpha']:g} and the whole interval beyond every base card's interval; in line: "
             f"inside the band widened by {100 * t['equivalence_margin']:.0f} pts; decides games: "
             f"{100 * t['decides_margin']:.0f} pts above its type's base cards; a band of fewer than {t['thin_band']} base cards is thin; not judged: used under "
             f"{t['min_uses_per_game']:.2f} times a game):"]
    lines += [f"  {card}: {answer_label(v)}" + (f" ({v['why']})" if v["why"] else "")
              for card, v in sorted(verdicts["cards"].items())]
    answers = [v["answer"] for v in verdicts["cards"].values()]
    lines.append("  answers: " + ", ".join(f"{answers.count(a)} {a}" for a in ("in line", "out of line", "not decided")))
    return lines


def _sequential_text(fig: dict[str, Any]) -> list[str]:
    """``--games auto``: the look the run stopped at and why, and what each look left not decided."""
    seq = fig.get("sequential")
    if not seq:
        return []
    last = seq["looks"][-1]
    why = {"decided": "every pack card decided", "games decided nothing": "the games decided nothing",
           "games budget": f"--max-games {seq['max_games']} reached",
           "time budget": f"--max-minutes {seq['max_minutes'] or 0:g} reached"}
    lines = [f"Played until decided (group-sequential, alpha {seq['alpha']:g} spent by halves over looks at "
             f"{', '.join(map(str, seq['schedule']))} games): stopped at look {last['look']} of {len(seq['schedule'])}, "
             f"{last['games']} games, {100 * (1 - last['alpha']):.4g}% intervals: {why[seq['stopped']]}"]
    lines += [f"  look {look['look']} ({look['games']} games, alpha {look['alpha']:.3g}): "
              + (f"not decided: {', '.join(look['not_decided'])}" if look["not_decided"] else "nothing left open")
              for look in seq["looks"]]
    return lines


def _stall_lead(fig: dict[str, Any]) -> list[str]:
    """The first lines of a run whose games did not all end with a winner: how many, and what it means."""
    none, stalls = fig["no_winner"], fig["stalls"]
    if not none["rate"]:
        return []
    lines = [f"GAMES WITHOUT A WINNER: {_pct(none).strip()} of {none['n']} games (stalls at the step cap "
             f"{fig['table']['step_cap']}: {_pct(stalls).strip()})"]
    if none["rate"] > MOST_UNDECIDED_GAMES and fig.get("verdicts"):
        lines.append(f"  more than {100 * MOST_UNDECIDED_GAMES:.0f}% of the games decided nothing: every verdict "
                     "below is 'not decided'")
    return lines + [""]


def _left_out_text(fig: dict[str, Any]) -> list[str]:
    left = fig.get("left_out") or []
    pack = [c for c in left if c["pack"]]
    lines = []
    if pack:
        lines.append("Pack cards left out of play (the engine cannot play them yet):")
        lines += [f"  {c['card']}: {c['reason']}" for c in pack]
    if len(left) > len(pack):
        lines.append(f"Base cards left out of play: {len(left) - len(pack)} (listed with their reasons in report.json)")
    return lines


def _compare_text(report: dict[str, Any]) -> str:
    a, b, diff = report["a"], report["b"], report["compare"]
    lines = ["Deck A:", _run_text(a, top=5), "Deck B:", _run_text(b, top=5), "B - A (95% CI; * significant):"]
    lines += [f"  seat {s['seat']} win rate: {_diff(s)}" for s in diff["seats"]]
    lines.append(f"  stalls: {_diff(diff['stalls'])}")
    lines += [f"  agent {agent} win rate: {_diff(d)}" for agent, d in sorted(diff["agents"].items())]
    for key, d in diff["length"].items():
        if d["difference"] is not None:
            lines.append(f"  mean {key}: {d['difference']:+.1f} [{d['low']:+.1f}, {d['high']:+.1f}]{' *' if d['significant'] else ''}")
    new = [c for c in diff["cards"] if c["new"] or c["pack"]]
    if new:
        lines.append("  pack cards (improvement when held, in deck B):")
        lines += [f"    {c['card']}: {100 * c['improvement_b']:+.1f} pts{' *' if c['significant_b'] else ''}" for c in new]
    changed = [c for c in diff["cards"] if not c["new"] and c.get("held_win_rate_change", {}).get("significant")]
    lines.append(f"  cards of both decks whose held win rate changed significantly: {len(changed)}")
    lines += [f"    {c['card']}: {_diff(c['held_win_rate_change'])}" for c in changed]
    return "\n".join(lines) + "\n"


# --- html -----------------------------------------------------------------------------------------------

def _svg(figure: Any) -> str:
    import matplotlib

    matplotlib.rcParams["svg.hashsalt"] = "cardworks"
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _figure(width: float = 6.4, height: float = 3.2) -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    return fig, fig.add_subplot()


def _rate_bars(title: str, labels: list[str], rates: list[dict[str, Any]], even: float | None = None) -> str:
    fig, ax = _figure()
    values = [r["rate"] for r in rates]
    errors = [[r["rate"] - r["low"] for r in rates], [r["high"] - r["rate"] for r in rates]]
    ax.bar(labels, values, yerr=errors, color=INK, ecolor=ACCENT, capsize=4)
    if even is not None:
        ax.axhline(even, color=MUTED, linestyle="--", linewidth=1, label="even share")
        ax.legend(loc="upper right")
    ax.set_ylim(0, max(1e-9, max(r["high"] for r in rates)) * 1.15)
    ax.set_ylabel("rate (95% CI)")
    ax.set_title(title)
    return _svg(fig)


def _length_plot(fig_data: dict[str, Any], histogram: dict[str, int] | None) -> str:
    fig, ax = _figure()
    dist = fig_data["length"]["steps"]
    values = sorted((int(k), v) for k, v in (histogram or {}).items())
    if values:
        ax.hist([k for k, _ in values], weights=[v for _, v in values], bins=min(40, len(values)), color=INK)
    ax.axvline(dist.get("mean", 0), color=ACCENT, label=f"mean {dist.get('mean', 0):.0f} [{dist.get('low', 0):.0f}, {dist.get('high', 0):.0f}]")
    ax.legend(loc="upper right")
    ax.set_xlabel("steps per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    return _svg(fig)


def _card_plot(cards: list[dict[str, Any]]) -> str:
    rows = [c for c in cards if c["improvement"]["difference"] is not None]
    rows.sort(key=lambda c: c["improvement"]["difference"])
    fig, ax = _figure(6.4, max(2.5, 0.22 * len(rows) + 1))
    ys = range(len(rows))
    diffs = [c["improvement"]["difference"] for c in rows]
    errors = [[c["improvement"]["difference"] - c["improvement"]["low"] for c in rows],
              [c["improvement"]["high"] - c["improvement"]["difference"] for c in rows]]
    colours = [ACCENT if c["pack"] else INK for c in rows]
    ax.errorbar(diffs, list(ys), xerr=errors, fmt="none", ecolor=MUTED, capsize=2)
    ax.scatter(diffs, list(ys), color=colours, zorder=3, s=14)
    ax.axvline(0, color=MUTED, linewidth=1)
    ax.set_yticks(list(ys), [c["card"] + (" (pack)" if c["pack"] else "") for c in rows], fontsize=7)
    ax.set_xlabel("win rate when held minus when not (95% CI)")
    ax.set_title("Cards")
    return _svg(fig)


def _paired_seats(a: dict[str, Any], b: dict[str, Any]) -> str:
    """Seat win rates of deck A and deck B side by side, each with its interval."""
    fig, ax = _figure()
    seats = [s["seat"] for s in a["seats"]]
    for offset, (name, run, colour) in zip((-0.2, 0.2), (("deck A", a, INK), ("deck B", b, ACCENT))):
        rates = run["seats"]
        xs = [i + offset for i in range(len(seats))]
        ax.bar(xs, [r["rate"] for r in rates], width=0.4, color=colour, label=name,
               yerr=[[r["rate"] - r["low"] for r in rates], [r["high"] - r["rate"] for r in rates]], ecolor=MUTED, capsize=3)
    ax.axhline(1 / len(seats), color=MUTED, linestyle="--", linewidth=1)
    ax.set_xticks(range(len(seats)), seats)
    ax.set_ylabel("win rate (95% CI)")
    ax.legend(loc="upper right")
    ax.set_title("Win rate per seat, deck A and deck B")
    return _svg(fig)


def _plots(fig: dict[str, Any], histogram: dict[str, int] | None) -> list[tuple[str, str]]:
    players = fig["table"]["players"]
    plots = [("Win rate per seat", _rate_bars("Win rate per seat (decided games)", [s["seat"] for s in fig["seats"]],
                                              fig["seats"], 1 / players)),
             ("Win rate per agent", _rate_bars("Win rate per agent", list(fig["agents"]), list(fig["agents"].values()),
                                               1 / players)),
             ("Game length", _length_plot(fig, histogram)),
             ("Endings", _rate_bars("How games ended", list(fig["endings"]), list(fig["endings"].values())))]
    if fig.get("cards"):
        plots.append(("Cards", _card_plot(fig["cards"])))
    return plots


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>
<style>
body { font: 15px/1.45 "DejaVu Sans", sans-serif; color: #1d232a; max-width: 960px; margin: 2em auto; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 0.9em; } td, th { padding: 0.2em 0.6em; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
pre { background: #f6f7f9; padding: 1em; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85em; }
.wide { overflow-x: auto; max-width: 100%; } td.why { white-space: normal; min-width: 20em; }
.strong, .weak, .decides { color: #c8553d; font-weight: bold; } .not-decided, .not-judged { color: #8a5a00; font-weight: bold; }
.sig { color: #c8553d; font-weight: bold; } tr.pack td:first-child { color: #c8553d; }
caption { text-align: left; font-weight: bold; margin: 0.5em 0; }
</style></head><body>
<h1>{{ title }}</h1>
{% for section in sections %}
<section class="run"><h2>{{ section.name }}</h2>
<pre>{{ section.text }}</pre>
{% for caption, svg in section.plots %}<figure class="plot" data-plot="{{ caption }}">{{ svg | safe }}<figcaption>{{ caption }}</figcaption></figure>
{% endfor %}{% if section.verdicts %}<div class="wide"><table class="verdicts"><caption>Verdict per pack card (paired effect and games ended, against the base cards of its type)</caption>
<tr><th>card</th><th>type</th><th>answer</th><th>verdict</th><th>why</th></tr>
{% for card, v in section.verdicts %}<tr><td>{{ card }}</td><td>{{ v.type }}</td><td class="answer">{{ v.answer }}</td><td class="{{ v.verdict | join(' ') | replace('not ', 'not-') }}">{{ answer(v) }}</td><td class="why">{{ v.why }}</td></tr>
{% endfor %}</table></div>{% endif %}{% if section.cards %}<div class="wide"><table class="cards"><caption>Every card: win rate of players who held it against those who did not (95% CI)</caption>
<tr><th>card</th><th>held (player-games)</th><th>win rate held</th><th>win rate not held</th><th>improvement</th><th>paired effect</th><th>played / placed / triggers / firings per game</th><th>games it ended</th></tr>
{% for c in section.cards %}<tr{% if c.pack %} class="pack"{% endif %}><td>{{ c.card }}{% if c.pack %} (pack){% endif %}</td><td>{{ c.held }}</td>
<td>{{ pct(c.win_rate_held) }}</td><td>{{ pct(c.win_rate_not_held) }}</td><td{% if c.improvement.significant %} class="sig"{% endif %}>{{ diff(c.improvement) }}</td><td>{{ strength(c) }}</td>
<td>{{ "%.2f / %.2f / %.2f / %.2f"|format(c.played_per_game, c.placed_per_game, c.triggers_per_game, c.firings_per_game) }}</td><td>{{ pct(c.decided) }}</td></tr>
{% endfor %}</table></div>{% endif %}</section>
{% endfor %}
{% if compare %}<section class="compare"><h2>Deck B against deck A</h2>
<figure class="plot" data-plot="Seats, A and B">{{ paired | safe }}<figcaption>Win rate per seat, deck A and deck B</figcaption></figure>
<pre>{{ compare }}</pre></section>{% endif %}
{% if trust %}<section class="agents"><h2>How strong the agents are</h2><pre>{{ trust }}</pre></section>{% endif %}
</body></html>
"""


def _sweep_plot(sweep: dict[str, Any]) -> str:
    """The card's paired effect (with its interval) against the swept value, over its type's base band."""
    fig, ax = _figure()
    rows = [r for r in sweep["values"] if r["strength"] and r["strength"].get("difference") is not None]
    xs = [r["value"] for r in sweep["values"]]
    bands = [r["band"] or {"low": 0.0, "high": 0.0} for r in sweep["values"]]
    ax.fill_between(xs, [b["low"] for b in bands], [b["high"] for b in bands], color=MUTED, alpha=0.3,
                    label="base cards of its type")
    if rows:
        ax.errorbar([r["value"] for r in rows], [r["strength"]["difference"] for r in rows], fmt="o-", color=INK, ecolor=ACCENT,
                    capsize=3, yerr=[[r["strength"]["difference"] - r["strength"]["low"] for r in rows],
                                     [r["strength"]["high"] - r["strength"]["difference"] for r in rows]], label="paired effect")
    ax.axhline(0, color=MUTED, linewidth=1)
    ax.set_xlabel(f"{sweep['card']}.{sweep['field']}")
    ax.set_ylabel("win rate: real minus plain (95% CI)")
    ax.legend(loc="upper left")
    ax.set_title("Strength against the swept value")
    return _svg(fig)


def to_html(report: dict[str, Any]) -> str:
    """A self-contained page: the text figures and every plot inline (no script, no external file)."""
    env = Environment(autoescape=True)
    if "sweep" in report:
        return env.from_string(PAGE).render(title="Sweep report", sections=[{
            "name": f"{report['sweep']['card']}.{report['sweep']['field']}", "text": _sweep_text(report["sweep"]),
            "plots": [("Strength against the swept value", _sweep_plot(report["sweep"]))], "cards": [], "verdicts": []}])
    runs = [("Deck A", report["a"]), ("Deck B", report["b"])] if "compare" in report else [("Results", report)]
    sections = []
    for name, fig in runs:
        t = fig["table"]
        heading = f"{name}: {t['game']} {t['set']}{''.join(' + ' + p for p in t['packs'])}"
        sections.append({"name": heading, "text": _run_text(fig), "plots": _plots(fig, fig.get("histograms", {}).get("steps")),
                         "cards": sorted(fig.get("cards", []), key=lambda c: -(c["improvement"]["difference"] or 0)),
                         "verdicts": sorted(fig.get("verdicts", {}).get("cards", {}).items())})
    title = "Simulation report" + (" (comparison)" if "compare" in report else "")
    compare = _compare_text(report).split("B - A", 1)[1] if "compare" in report else None
    paired = _paired_seats(report["a"], report["b"]) if compare else None
    return env.from_string(PAGE).render(title=title, sections=sections, compare=("B - A" + compare) if compare else None,
                                        paired=paired, pct=lambda r: _pct(r).strip(), diff=_diff, label=label, answer=answer_label,
                                        strength=_strength, trust=_trust_text(report))


def _strength(card: dict[str, Any]) -> str:
    """A card's paired effect as the cards table writes it."""
    strength = card.get("strength")
    if not strength:
        return "-"
    if strength.get("plain"):
        return "plain (0)"
    if strength["difference"] is None:
        return "-"
    return f"{_diff({**strength, 'significant': strength['p_adjusted'] < ALPHA})} (adj. p {strength['p_adjusted']:.2g})"
