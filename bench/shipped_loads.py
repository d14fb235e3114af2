"""Count the fast tests that load the shipped card database rather than a fixture game (issue 30 item 6).

Runs ``pytest -m "not slow"`` (or the test paths given) with ``CARDWORKS_SHIPPED_LOADS`` set, so the hook in
``tests/conftest.py`` notes every load of a folder under ``cards/`` or of a copy of one, and prints how many
tests did so, how many loads that was, and the test files ranked by loads. In-process loads only: a test that
starts ``python -m cardworks`` as a subprocess is not seen.

    python3 bench/shipped_loads.py [--json OUT] [pytest args...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def count(pytest_args: list[str]) -> dict:
    """Run pytest with the recording hook on and summarise what it recorded."""
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "loads.jsonl"
        env = dict(os.environ, CARDWORKS_SHIPPED_LOADS=str(record), PYTHONPATH=str(REPO / "src"))
        command = [sys.executable, "-m", "pytest", "-m", "not slow", "-q", "-rf", "-p", "no:cacheprovider", *pytest_args]
        run = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
        tail = run.stdout.strip().splitlines()[-1:] if run.stdout.strip() else []
        failed = [line for line in run.stdout.splitlines() if line.startswith("FAILED ")]
        if run.returncode not in (0, 1):
            raise SystemExit(f"pytest exited {run.returncode}:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
        loads = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()] if record.exists() else []
    tests = Counter(load["test"] for load in loads)
    files = Counter(load["test"].split("::")[0].split(" (")[0] for load in loads)
    return {"pytest": tail[0] if tail else "", "failed": failed, "loads": len(loads), "tests": len(tests),
            "files": dict(files.most_common()), "by_test": dict(tests.most_common())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the full count (every test) to this file")
    args, pytest_args = parser.parse_known_args()
    result = count(pytest_args)
    print(f"pytest: {result['pytest']}")
    for line in result["failed"]:  # a count taken from a run with failures is worth knowing as such
        print(f"  {line}")
    print(f"fast tests loading the shipped database: {result['tests']} ({result['loads']} loads, "
          f"{len(result['files'])} test files)")
    for name, loads in result["files"].items():
        print(f"  {loads:5d}  {name}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
