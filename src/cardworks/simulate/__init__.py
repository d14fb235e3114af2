"""Balance reports from simulated play: agents, seeded games, figures with intervals, reports.

``simulate(spec, agents, games, seed, ...)`` plays ``games`` seeded games on one
machine (``workers`` processes) or a Dask cluster and returns their ``Tally``;
``figures`` turns a tally into every figure of ``report.json``, and
``write_report`` writes ``report.json`` and ``report.html``.

    spec = TableSpec("cards", "fallera", "base", 4)
    tally = simulate(spec, parse_agents("mcts,greedy,greedy,greedy", 4, budget=50), 200, seed=1, workers=2)
    write_report(figures(tally, build_table(spec), ["mcts-50", "greedy", "greedy", "greedy"], 1), Path("out"))
"""

from .agents import Agent, parse_agents
from .executors import simulate
from .figures import compare, figures
from .report import write_report
from .stats import Tally
from .tables import TableSpec, build_table

__all__ = ["Agent", "TableSpec", "Tally", "build_table", "compare", "figures", "parse_agents", "simulate", "write_report"]
