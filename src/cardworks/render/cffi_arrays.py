"""Fixed-length C arrays for WeasyPrint without a C parser run for each new length.

WeasyPrint's font subsetting (HarfBuzz) asks cffi for its glyph lists as ``ffi.new(f'hb_codepoint_t[{n}]',
values)``. cffi keeps the types it has parsed by their text, so each new length is a new text that pycparser
parses again, about 3 ms each: a cold main job met 577 of them, 1.7 s of its 58 s of processor time. The array
is made instead from the open type ``hb_codepoint_t[]`` (parsed once) with the length, then filled: the same
memory with the same values, so the same subset fonts and PDF bytes. Any other call goes to cffi unchanged.
"""

from __future__ import annotations

import re
from typing import Any

FIXED_ARRAY = re.compile(r"\s*([A-Za-z_][A-Za-z_0-9]*)\s*\[\s*([0-9]+)\s*\]\s*")
"""A type text naming a fixed-length array of a named type: ``hb_codepoint_t[12]``."""


def install() -> None:
    """Give WeasyPrint's ``ffi`` the ``new`` below (once a process; later calls do nothing)."""
    from weasyprint.text.ffi import ffi

    if not getattr(ffi.new, "open_array_for_fixed", False):
        ffi.new = _new_for(ffi.new)


def _new_for(plain_new: Any) -> Any:
    def new(cdecl: Any, init: Any = None) -> Any:
        fixed = FIXED_ARRAY.fullmatch(cdecl) if isinstance(cdecl, str) else None
        if fixed is None or not (init is None or isinstance(init, (list, tuple))):
            return plain_new(cdecl, init)
        length = int(fixed[2])
        if init is not None and len(init) > length:
            raise IndexError(f"too many initializers for '{cdecl}' ({len(init)} items)")
        array = plain_new(f"{fixed[1]}[]", length)
        if init:
            array[0:len(init)] = init
        return array

    new.open_array_for_fixed = True  # type: ignore[attr-defined]
    return new
