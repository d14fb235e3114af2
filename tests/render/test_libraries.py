"""The renderer's library lookup: the standard answer, from one read of the linker's cache."""

from __future__ import annotations

import ctypes.util
import subprocess
import sys
from pathlib import Path

import pytest

from cardworks.render import libraries

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or not Path(libraries.LDCONFIG).exists(),
                                reason="the quick lookup is installed on Linux with ldconfig only")

WEASYPRINT_NAMES = ["libgobject-2.0-0", "gobject-2.0-0", "gobject-2.0", "libpango-1.0-0", "pango-1.0-0", "pango-1.0",
                    "libharfbuzz-0", "harfbuzz", "libharfbuzz-subset-0", "harfbuzz-subset", "harfbuzz-vector",
                    "libfontconfig-1", "fontconfig-1", "fontconfig", "libpangoft2-1.0-0", "pangoft2-1.0"]


@pytest.fixture(autouse=True)
def _fresh_answers():
    libraries.quick_find_library.cache_clear()
    yield
    libraries.quick_find_library.cache_clear()


@pytest.mark.parametrize("name", WEASYPRINT_NAMES + ["c", "m", "z", "no-such-library-anywhere"])
def test_the_same_answer_as_the_standard_lookup(name):
    assert libraries.quick_find_library(name) == libraries._standard(name)


def test_a_library_outside_the_cache_goes_to_the_standard_lookup(tmp_path, monkeypatch):
    asked = []
    monkeypatch.setattr(libraries, "_standard", lambda name: asked.append(name) or "found-by-the-standard-lookup")
    monkeypatch.setenv("LD_LIBRARY_PATH", str(tmp_path))
    assert libraries.quick_find_library("cardworksprobe") is None and asked == []  # nowhere: no slow lookup
    libraries.quick_find_library.cache_clear()
    (tmp_path / "libcardworksprobe.so.1").write_bytes(b"")
    assert libraries.quick_find_library("cardworksprobe") == "found-by-the-standard-lookup"
    assert asked == ["cardworksprobe"]


def test_without_ldconfig_the_standard_lookup_answers(monkeypatch):
    monkeypatch.setattr(libraries, "LDCONFIG", "/no/such/ldconfig")
    libraries._linker_cache.cache_clear()
    monkeypatch.setattr(libraries, "_standard", lambda name: "standard")
    try:
        assert libraries.quick_find_library("c") == "standard"
    finally:
        libraries._linker_cache.cache_clear()


def test_the_renderer_installs_it():
    import cardworks.render  # noqa: F401

    assert ctypes.util.find_library is libraries.quick_find_library


def test_importing_weasyprint_through_the_renderer_starts_one_child_process():
    """Without the quick lookup the import starts about fifty (ldconfig, gcc and ld for each name tried)."""
    probe = ("import subprocess\nstarted = []\nbefore = subprocess.Popen.__init__\n"
             "def counting(self, *a, **k):\n    started.append(a[0] if a else k.get('args'))\n    before(self, *a, **k)\n"
             "subprocess.Popen.__init__ = counting\n"
             "import cardworks.render\nimport weasyprint\nprint(len(started))")
    counted = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert int(counted.stdout.strip().splitlines()[-1]) <= 1, counted.stdout
