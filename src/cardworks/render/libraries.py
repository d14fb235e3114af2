"""One look at the dynamic linker's cache for the shared libraries WeasyPrint opens, not fifty child processes.

WeasyPrint finds pango, harfbuzz and fontconfig through cffi, which asks ``ctypes.util.find_library`` for each
of 22 names it tries (Windows-style ones first, an optional library that is often absent). On Linux every call
runs ``ldconfig -p`` and, for a name the cache lacks, ``gcc`` and ``ld`` as well: about 50 child processes and
0.15 to 0.2 s of processor time in every process that imports WeasyPrint (a rebuild's main process and each
worker). :func:`quick_find_library` answers from one read of ``ldconfig -p``, with the same pattern the standard
library uses; a name the cache lacks goes to the standard lookup whenever a file that could be it lies in a folder
the loader searches besides its cache (``LD_LIBRARY_PATH`` and the default folders), so no library the standard
lookup would have found is missed. Anywhere but Linux with ``/sbin/ldconfig``, nothing changes.
"""

from __future__ import annotations

import ctypes.util
import os
import re
import struct
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

LDCONFIG = "/sbin/ldconfig"
DEFAULT_FOLDERS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64")
"""Folders the loader searches after its cache (ld.so(8)); a library only there is not listed by ``ldconfig -p``."""
_ABI = {"x86_64-64": "libc6,x86-64", "ppc64-64": "libc6,64bit", "sparc64-64": "libc6,64bit",
        "s390x-64": "libc6,64bit", "ia64-64": "libc6,IA-64"}
"""The standard library's table (``ctypes.util._findSoname_ldconfig``): which ``ldconfig -p`` entries suit this Python."""

_standard = ctypes.util.find_library


@lru_cache(maxsize=1)
def _linker_cache() -> bytes | None:
    """``ldconfig -p`` as the standard lookup runs it (C locale), once a process; None if it cannot run."""
    try:
        return subprocess.run([LDCONFIG, "-p"], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, env={"LC_ALL": "C", "LANG": "C"}, check=False).stdout
    except OSError:
        return None


def _abi() -> str:
    machine = os.uname().machine + ("-32" if struct.calcsize("l") == 4 else "-64")
    return _ABI.get(machine, "libc6")


def _elsewhere(name: str) -> bool:
    """Whether a file named like library ``name`` lies in a folder the loader searches besides its cache."""
    folders = [part for part in os.environ.get("LD_LIBRARY_PATH", "").split(":") if part] + list(DEFAULT_FOLDERS)
    for folder in folders:
        try:
            if any(Path(folder).glob(f"lib{name}.so*")):
                return True
        except (OSError, ValueError):
            continue
    return False


@lru_cache(maxsize=256)
def quick_find_library(name: str) -> str | None:
    """What ``ctypes.util.find_library(name)`` returns, from one read of the linker's cache where that suffices."""
    listing = _linker_cache()
    if listing is None:
        return _standard(name)
    found = re.search(os.fsencode(rf"\s+(lib{re.escape(name)}\.[^\s]+)\s+\({_abi()}"), listing)
    if found:
        return os.fsdecode(found.group(1))
    return _standard(name) if _elsewhere(name) else None


def install() -> None:
    """Make :func:`quick_find_library` the process's ``ctypes.util.find_library`` (Linux with ldconfig only)."""
    if sys.platform.startswith("linux") and os.path.exists(LDCONFIG):
        ctypes.util.find_library = quick_find_library
