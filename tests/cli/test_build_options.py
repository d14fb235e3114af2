"""``cardworks build`` lists its options in sections, every documented option still parses into the same
``BuildOptions``, and a section naming an option the command lacks is refused when the command is defined."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cardworks.cli.commands import BUILD_SECTIONS, build, build_options
from cardworks.cli.sections import SectionedCommand
from conftest import REPO


def _parsed(*args: str) -> dict:
    context = build.make_context("build", list(args))
    return dict(context.params)


def test_every_option_of_the_reference_usage_line_is_in_a_section() -> None:
    usage = (REPO / "docs" / "cli.md").read_text(encoding="utf-8").split("cardworks build", 1)[1].split("cardworks export")[0]
    documented = set(re.findall(r"--[a-z][a-z-]+", usage))
    flags = {flag: p.name for p in build.params for flag in (*p.opts, *p.secondary_opts)}
    assert documented and documented <= set(flags), documented - set(flags)
    placed = {name for names in BUILD_SECTIONS.values() for name in names}
    assert {flags[flag] for flag in documented} <= placed
    text = CliRunner().invoke(build, ["--help"]).output
    for title in BUILD_SECTIONS:
        assert f"\n{title}:\n" in text


def test_the_options_become_the_same_build_options() -> None:
    given = _parsed("--game", "fallera", "--set", "expert", "--locale", "ca", "--locale", "qps-ploc", "--players", "3",
                    "--paper", "letter", "--layout", "gutterfold", "--duplex", "short", "--back-offset", "1.5,-2",
                    "--out", "elsewhere", "--no-docs", "--png", "--strict", "--jobs", "2", "--proof",
                    "--with-optional", "a, b", "--edition", "playtest", "--scheduler", "tcp://h:8786")
    options = build_options((Path("pack"),), given)
    assert (options.game, options.selection, options.locales, options.players) == ("fallera", "expert", ["ca", "qps-ploc"], 3)
    assert (options.layout.paper, options.layout.name, options.layout.duplex) == ("letter", "gutterfold", "short")
    assert (options.layout.offset_x, options.layout.offset_y) == (1.5, -2.0)
    assert options.out == Path("elsewhere") and not options.documents and options.cards and options.png and options.strict
    assert options.jobs == 2 and options.proof and options.allow_fallback  # --proof implies fallbacks
    assert options.optional == ("a", "b") and options.edition == "playtest" and options.packs == [Path("pack")]
    assert options.scheduler == "tcp://h:8786" and build_options((), _parsed()).scheduler is None
    defaults = build_options((), _parsed())
    assert defaults.locales is None and defaults.optional == () and defaults.layout.name == "grid" and defaults.jobs >= 1


def test_a_section_naming_a_missing_option_is_refused() -> None:
    with pytest.raises(ValueError, match="name unknown options: --nope|name unknown options: nope"):
        SectionedCommand("demo", params=[click.Option(["--paper"])], sections={"Sheets": ("paper", "nope")})


def test_the_layout_choices_are_read_from_the_shipped_layouts() -> None:
    """A layout file added to ``layouts/`` is offered by ``--layout``'s help and must be named in docs/cli.md's
    synopsis: the test fails on a synopsis that misses one (checked on a planted list below)."""
    from cardworks.resources import shipped_layouts

    shipped = shipped_layouts()
    assert {"grid", "gutterfold", "silhouette"} <= set(shipped)
    help_text = " ".join(CliRunner().invoke(build, ["--help"]).output.split())
    assert all(name in help_text for name in shipped), help_text

    def documented(text: str) -> set[str]:
        found = re.search(r"\[--layout ([a-z0-9|-]+)\|NAME\]", text)
        assert found, "docs/cli.md's synopsis lost its [--layout …|NAME] list"
        return set(found[1].split("|"))

    synopsis = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    assert documented(synopsis) == set(shipped), "name every shipped layout in docs/cli.md's --layout list"
    assert documented("[--layout grid|cricut|NAME]") != set(shipped)  # the comparison does see a missing one
