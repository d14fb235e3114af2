"""A normal install works: the wheel carries templates, fonts and the shipped database.

Builds the wheel from this checkout, installs it in a fresh virtualenv and runs
``cardworks build --game diables`` from an empty folder, where no ``cards/`` or
``templates/`` of the checkout can be found by accident. The virtualenv sees the
machine's site packages so that dependencies already installed are not
downloaded again (a fully isolated install takes 30-110 s here); the test
checks that ``cardworks`` itself is imported from the virtualenv, not from this
checkout's editable install.

The wheel is built from a copy of the checkout's sources, not the checkout itself:
``pip wheel`` builds in the tree it is given (setuptools' ``build/`` folder), and
tests running beside this one write into the checkout's ``build/`` (an export's
default face cache is ``build/.cache/faces`` under the current folder), so a
build from the live checkout could see files appear and vanish under it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from conftest import REPO


def _run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # a checkout on it would shadow the install
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done


_NOT_SOURCES = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis",
                                      ".benchmarks", ".venv", ".cache", "site", "tests")
"""What other runs write into the checkout (and the tests): not what a wheel is built from."""


@pytest.mark.slow
def test_wheel_installs_and_builds_from_an_empty_folder(tmp_path: Path) -> None:
    wheels, source = tmp_path / "wheels", tmp_path / "source"
    shutil.copytree(REPO, source, ignore=_NOT_SOURCES)
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, source, cwd=tmp_path)
    wheel = next(wheels.glob("cardworks-*.whl"))
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--system-site-packages", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    _run(python, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", wheel, cwd=tmp_path)
    _run(python, "-m", "pip", "install", "-q", wheel, cwd=tmp_path)  # its dependencies, from the index if missing
    empty = tmp_path / "empty"
    empty.mkdir()
    where = _run(python, "-c", "import cardworks; print(cardworks.__file__)", cwd=empty).stdout.strip()
    assert Path(where).is_relative_to(venv), where  # the installed package, not this checkout
    _run(python, "-c", "from cardworks.games.fallera import rollouts; assert rollouts.KERNEL is not None", cwd=empty)
    # the wheel carries the compiled rollout loop (``setup.py`` builds ``_rollouts.c``)
    _run(venv / "bin" / "cardworks", "build", "--game", "diables", cwd=empty)
    outputs = {r["kind"]: r for r in json.loads((empty / "build/manifest.json").read_text())["outputs"]}
    cards = PdfReader(empty / "build" / outputs["cards"]["path"])
    assert len(cards.pages) == outputs["cards"]["pages"] > 0
    shop = pikepdf.open(empty / "build" / outputs["cards-print-shop"]["path"])
    fonts = {str(obj.FontName) for obj in shop.objects
             if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor" and "/FontFile2" in obj}
    assert any(name.endswith("+CardSans") for name in fonts), fonts  # the bundled DejaVu faces, embedded
    assert "tiles" in outputs and "player-aid" in outputs
