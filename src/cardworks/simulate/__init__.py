"""Balance reports from simulated play: agents, seeded games, figures with intervals, reports.

``simulate(spec, agents, games, seed, ...)`` plays ``games`` seeded games on one
machine (``workers`` processes) or a Dask cluster and returns their ``Tally``;
``report.figures`` turns it into every figure of ``report.json``.
"""
