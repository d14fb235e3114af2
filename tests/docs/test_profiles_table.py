"""The print-shop profile table of the docs is generated from the profile data files: one row per file, its
figures read from the file, and no profile written into the page by hand."""

from __future__ import annotations

import importlib.util
import json

from conftest import REPO

PROFILES = REPO / "src" / "cardworks" / "export" / "profiles"


def _hook():
    spec = importlib.util.spec_from_file_location("profiles_hook", REPO / "docs" / "hooks" / "profiles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows(table: str) -> dict[str, list[str]]:
    rows = [line.strip("|").split(" | ") for line in table.splitlines()[2:]]
    return {cells[0].strip().strip("`"): [c.strip() for c in cells] for cells in rows}


def test_the_table_has_one_row_per_profile_file_with_its_figures() -> None:
    hook = _hook()
    rows = _rows(hook.profiles_table())
    files = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in PROFILES.glob("*.json")}
    assert files and set(rows) == set(files)
    for name, data in files.items():
        cells = dict(zip(hook.HEADER, rows[name]))
        assert cells["shop"] == data["name"] and cells["output"] == data["output"]
        assert cells["bleed"] == f"{data['bleed_mm']['value']:g} mm" and cells["dpi"] == str(data["dpi"]["value"])
        assert data["colour"]["value"]["space"] in cells["colour"]
        for row in data["sizes"]["value"] or []:
            assert f"{row['name']} {row['width_mm']:g} × {row['height_mm']:g} mm" in cells["card sizes"]
        for fact, value in data.items():
            if isinstance(value, dict) and value.get("unverified"):
                assert f"`{fact}`" in cells["unverified"], (name, fact)


def test_a_new_profile_file_is_a_new_row(tmp_path, monkeypatch) -> None:
    import cardworks.export.profile_files as files
    import cardworks.export.profiles as profiles
    from cardworks.export.profiles import load_profile

    folder = tmp_path / "profiles"
    folder.mkdir()
    for path in PROFILES.glob("*.json"):
        (folder / path.name).write_bytes(path.read_bytes())
    shop = json.loads((PROFILES / "pdf.json").read_text(encoding="utf-8"))
    shop.update(id="corner-shop", name="Corner Shop")
    (folder / "corner-shop.json").write_text(json.dumps(shop), encoding="utf-8")
    for module in (files, profiles):  # the folder the files are read from: a copy with one more shop
        monkeypatch.setattr(module, "profile_folder", lambda: folder)
    load_profile.cache_clear()
    try:
        assert _rows(_hook().profiles_table())["corner-shop"][1] == "Corner Shop"
    finally:
        load_profile.cache_clear()


def test_the_page_holds_the_marker_and_no_hand_written_profile_row() -> None:
    page = (REPO / "docs" / "exports.md").read_text(encoding="utf-8")
    assert page.count(_hook().MARKER) == 1
    for path in PROFILES.glob("*.json"):
        assert f"| `{path.stem}`" not in page, f"{path.stem} is written into exports.md by hand"
    assert "docs/hooks/profiles.py" in (REPO / "mkdocs.yml").read_text(encoding="utf-8")


def test_the_sizes_table_has_one_row_per_size_with_its_source_and_unverified_note() -> None:
    hook = _hook()
    lines = hook.sizes_table().splitlines()[2:]
    files = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in PROFILES.glob("*.json")}
    wanted = [(name, row) for name, data in sorted(files.items()) for row in data["sizes"]["value"] or []]
    assert len(wanted) >= 12 and len(lines) == len(wanted)
    for line, (name, row) in zip(lines, wanted):
        cells = dict(zip(hook.SIZES_HEADER, [c.strip() for c in line.strip("|").split(" | ")]))
        assert cells["profile"] == f"`{name}`" and cells["size"] == row["name"]
        assert cells["source"] == row["source"] and cells["unverified"] == (row.get("unverified") or "none")
