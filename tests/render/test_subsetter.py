"""The fast font subsetter: detected from WeasyPrint's own libraries, and its absence reported once per build."""

from __future__ import annotations

import pytest

from cardworks.render import fonts
from conftest import REPO, run_cli


def test_this_machine_has_the_fast_subsetter() -> None:
    assert fonts.fast_subsetter()  # CI installs libharfbuzz-subset0 (.ci/run); the README asks for it


@pytest.mark.slow  # builds Diables' documents twice
def test_a_build_without_it_warns_once(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "fast_subsetter", lambda: False)
    run = run_cli("--cards", str(REPO / "cards"), "build", "--game", "diables", "--no-cards", "--out", str(tmp_path))
    assert run.exit_code == 0, run.output
    assert run.output.count("[slow-font-subsetting]") == 1 and "libharfbuzz-subset0" in run.output
    again = run_cli("--cards", str(REPO / "cards"), "build", "--game", "diables", "--no-cards", "--out", str(tmp_path))
    assert again.exit_code == 0 and "rendered" not in again.output.replace("rendered documents", "")
    assert "[slow-font-subsetting]" not in again.output  # nothing rendered: no PDF to subset fonts for
