"""Line numbers of JSON pointers: every value of every shipped data file and schema, checked against its text."""

from __future__ import annotations

import json

from hypothesis import given, strategies as st

from cardworks.loading.jsonfile import pointer_escape
from cardworks.serve.pointer_lines import pointer_lines

from serve_fixtures import REPO


def all_pointers(value, pointer: str = ""):
    yield pointer
    if isinstance(value, dict):
        for key, item in value.items():
            yield from all_pointers(item, f"{pointer}/{pointer_escape(key)}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from all_pointers(item, f"{pointer}/{index}")


def test_every_member_is_found_on_the_line_that_names_it() -> None:
    files = sorted((REPO / "cards").rglob("*.json")) + sorted((REPO / "schema").glob("*.json"))
    checked = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        lines = pointer_lines(text)
        rows = text.splitlines()
        assert set(lines) == set(all_pointers(json.loads(text))), path
        for pointer, line in lines.items():
            key = pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
            if pointer and not key.isdigit():
                assert json.dumps(key, ensure_ascii=False)[1:-1] in rows[line - 1], (path, pointer, line)
                checked += 1
    assert checked > 10_000


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                           | st.text(), lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)


@given(json_values, st.sampled_from([None, 1, 2]))
def test_any_json_text_maps_every_value(value, indent) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    lines = pointer_lines(text)
    assert set(lines) == set(all_pointers(value))
    assert all(1 <= line <= text.count("\n") + 1 for line in lines.values())
