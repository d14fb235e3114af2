"""WeasyPrint's libraries found from one ``ldconfig -p`` listing: the same libraries, no compiler processes."""

import ctypes.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardworks.render import libraries

SRC = str(Path(__file__).resolve().parents[2] / "src")
linux_only = pytest.mark.skipif(not (sys.platform.startswith("linux") and os.access("/sbin/ldconfig", os.X_OK)),
                                reason="the lookup is installed on Linux with ldconfig only")

IMPORT = textwrap.dedent("""
    import sys
    started = []
    sys.addaudithook(lambda event, args: started.append(str(args[0])) if event == "subprocess.Popen" else None)
    if sys.argv[1] == "listed":
        import cardworks.render  # installs the finder
    import weasyprint
    loaded = sorted({line.split()[-1] for line in open("/proc/self/maps") if ".so" in line})
    print(repr((started, loaded)))
""")


def _import_weasyprint(mode: str) -> tuple[list[str], list[str]]:
    done = subprocess.run([sys.executable, "-c", IMPORT, mode], env={**os.environ, "PYTHONPATH": SRC},
                          capture_output=True, text=True, check=True)
    return eval(done.stdout)  # noqa: S307 - our own child's repr of two lists of strings


@linux_only
def test_listed_lookup_finds_what_cpythons_first_step_finds():
    for name in ("harfbuzz", "pango-1.0", "fontconfig", "c"):
        assert libraries.listed_library(name) == ctypes.util._findSoname_ldconfig(name)
        assert libraries.listed_library(name) is not None
    assert libraries.listed_library("libgobject-2.0-0") is None  # a Windows name: a miss, no compiler asked


@linux_only
def test_weasyprint_loads_the_same_libraries_without_compiler_processes():
    stock_started, stock_loaded = _import_weasyprint("stock")
    listed_started, listed_loaded = _import_weasyprint("listed")
    assert listed_loaded == stock_loaded
    assert any("gcc" in p or p == "ld" for p in stock_started)  # what the finder saves: it could fail
    assert listed_started == ["/sbin/ldconfig"]


def test_a_failed_import_is_made_again_with_cpythons_lookup():
    seen = []

    def exec_module(module):
        seen.append(ctypes.util.find_library)
        if ctypes.util.find_library is libraries.listed_library:
            raise OSError("cannot load library 'libpango-1.0-0'")

    libraries._with_listed_lookup(exec_module)(None)
    assert seen == [libraries.listed_library, ctypes.util.find_library]
    assert ctypes.util.find_library is not libraries.listed_library


def test_a_failure_of_cpythons_lookup_too_is_raised():
    def exec_module(module):
        raise OSError("cannot load library 'libpango-1.0-0'")

    with pytest.raises(OSError, match="libpango"):
        libraries._with_listed_lookup(exec_module)(None)
