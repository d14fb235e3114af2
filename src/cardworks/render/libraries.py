"""WeasyPrint's system libraries found with one ``ldconfig -p`` instead of 54 processes.

``weasyprint.text.ffi`` opens seven libraries by trying names for every platform in turn; cffi hands each
name it cannot open directly to ``ctypes.util.find_library``, which on Linux runs ``ldconfig -p`` and, on a
miss, ``gcc`` and then ``ld`` (``libgobject-2.0-0``, a Windows name, misses all three). That made 22
``ldconfig``, 16 ``gcc`` and 16 ``ld`` processes in every process importing WeasyPrint, about 0.2 s of
processor time each time (a rebuild after an edit costs about 2 s in all).

While that module is imported, names are looked up in one ``ldconfig -p`` listing with the pattern and
architecture CPython's first step uses, and a name it misses is a miss (WeasyPrint goes on to its next name,
and its ``.so`` names open directly). Should the import fail that way (a library only the compiler's search
path knows), it is imported again with CPython's lookup, so nothing that imported before fails now.
"""

from __future__ import annotations

import ctypes.util
import importlib.machinery
import os
import re
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

MODULE = "weasyprint.text.ffi"
_ABI = {"x86_64-64": "libc6,x86-64", "ppc64-64": "libc6,64bit", "sparc64-64": "libc6,64bit",
        "s390x-64": "libc6,64bit", "ia64-64": "libc6,IA-64"}
"""CPython's ``ctypes.util`` table: the ``ldconfig -p`` tag of this machine's libraries."""


@lru_cache(maxsize=1)
def _listing() -> bytes:
    """``ldconfig -p``'s output (empty when it cannot run)."""
    try:
        return subprocess.run(["/sbin/ldconfig", "-p"], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, env={"LC_ALL": "C", "LANG": "C"}, check=False).stdout
    except OSError:
        return b""


def listed_library(name: str) -> str | None:
    """The soname ``ldconfig -p`` lists for ``name`` (as ``find_library``'s first step finds it), or None."""
    machine = os.uname().machine + ("-32" if struct.calcsize("l") == 4 else "-64")
    pattern = rf"\s+(lib{re.escape(name)}\.[^\s]+)\s+\({_ABI.get(machine, 'libc6')}"
    found = re.search(os.fsencode(pattern), _listing())
    return os.fsdecode(found.group(1)) if found else None


@contextmanager
def listed_lookup() -> Iterator[None]:
    """``ctypes.util.find_library`` answered from :func:`listed_library` meanwhile."""
    stock, ctypes.util.find_library = ctypes.util.find_library, listed_library
    try:
        yield
    finally:
        ctypes.util.find_library = stock


class _FfiFinder:
    """A meta-path finder that imports :data:`MODULE` (only it) under :func:`listed_lookup`."""

    @staticmethod
    def find_spec(name: str, path=None, target=None):  # noqa: ANN001 - the finder protocol
        if name != MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None:
            return spec
        spec.loader.exec_module = _with_listed_lookup(spec.loader.exec_module)
        return spec


def _with_listed_lookup(exec_module: Callable) -> Callable:
    def run(module) -> None:  # noqa: ANN001 - a module
        try:
            with listed_lookup():
                exec_module(module)
        except OSError:  # a library ldconfig does not list: CPython's full lookup, as WeasyPrint does alone
            exec_module(module)
    return run


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once), on Linux with ``/sbin/ldconfig`` only (elsewhere
    ``find_library`` starts no such processes, or this lookup could not answer)."""
    if (sys.platform.startswith("linux") and os.access("/sbin/ldconfig", os.X_OK)
            and not any(isinstance(f, _FfiFinder) for f in sys.meta_path)):
        sys.meta_path.insert(0, _FfiFinder())
