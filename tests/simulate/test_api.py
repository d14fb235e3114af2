"""``cardworks.simulate``'s public API is what its ``__all__`` says, sorted; and it runs without the CLI."""

from __future__ import annotations

import json

import cardworks.simulate as simulate_api

from simulate_helpers import CARDS


def test_all_is_sorted_and_complete() -> None:
    public = {name for name in vars(simulate_api) if not name.startswith("_") and not isinstance(getattr(simulate_api, name), type(simulate_api))}
    assert simulate_api.__all__ == sorted(simulate_api.__all__)
    assert set(simulate_api.__all__) == public


def test_the_api_plays_tallies_and_writes_a_report(tmp_path) -> None:
    spec = simulate_api.TableSpec(str(CARDS), "fallera", "base-3", 3)
    agents = simulate_api.parse_agents("greedy", 3)
    done = []
    tally = simulate_api.simulate(spec, agents, 9, seed=4, workers=1, size=4, progress=done.append)
    assert done == [4, 4, 1] and tally.games == 9
    report = simulate_api.figures(tally, simulate_api.build_table(spec), [a.label for a in agents], 4)
    paths = simulate_api.write_report(report, tmp_path)
    assert json.loads(paths[0].read_text()) == json.loads(json.dumps(report))
    assert report["table"]["set"] == "base-3" and report["length"]["steps"]["n"] == 9
