"""The objects a PDF's save will write: those its trailer reaches, not every object of its file.

``pdf.objects`` parses every object in the file, reached or not, and keeps it parsed; the passes that prepare
a save (fixing font dates, naming subsets) need only what will be written. A deck's joined file holds no
unreached copies any more (``pdfjoin._share``; qpdf's save would parse them anyway), but a file edited after
it was opened may, and such objects are neither parsed nor renamed here.
"""

from __future__ import annotations

from collections.abc import Iterator

import pikepdf

_STREAM, _DICTIONARY, _ARRAY = pikepdf.ObjectType.stream, pikepdf.ObjectType.dictionary, pikepdf.ObjectType.array


def reachable(pdf: pikepdf.Pdf) -> Iterator[pikepdf.Object]:
    """Every indirect dictionary and stream the trailer of ``pdf`` reaches, each once (depth first, keys in
    order). A direct part whose text names no reference (`` R``) is not entered: nothing indirect is inside."""
    seen: set[tuple[int, int]] = set()
    stack: list[pikepdf.Object] = [pdf.trailer]
    while stack:
        obj = stack.pop()
        kind = obj._type_code if isinstance(obj, pikepdf.Object) else None
        if kind not in (_STREAM, _DICTIONARY, _ARRAY):
            continue
        if obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
            if kind is not _ARRAY:
                yield obj
        if kind is _STREAM:
            stack.append(obj.stream_dict)
            continue
        if not obj.is_indirect and b" R" not in obj.unparse():
            continue
        if kind is _DICTIONARY:
            stack.extend(obj.get(key) for key in reversed(sorted(obj.keys())))
        else:
            stack.extend(reversed(list(obj)))
