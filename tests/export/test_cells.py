"""Formula-leading text in sheets: neutralised on export (OWASP's leading quote), restored exactly on import."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardworks.export.cells import FORMULA_START, neutralise, restore

TEXT = st.text(alphabet=st.sampled_from(["=", "+", "-", "@", "\t", "\r", "'", "a", " ", "{", "}"])) | st.text()


@given(TEXT)
def test_every_text_comes_back_exactly_and_no_cell_starts_a_formula(text: str) -> None:
    cell = neutralise(text)
    assert restore(cell) == text
    assert cell[:1] not in FORMULA_START


def test_the_quote_is_added_only_where_a_spreadsheet_would_run_the_cell() -> None:
    assert neutralise("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert neutralise("-1 {treasure}") == "'-1 {treasure}"
    assert neutralise("Steal one") == "Steal one"
    assert neutralise("'tis") == "'tis" and restore("'tis") == "'tis"  # a quote before a letter is the text's own
    assert neutralise("'=x") == "''=x"


def test_the_print_shop_order_sheet_writes_formula_names_inert(tmp_path) -> None:
    import csv

    from cardworks.export.printshop import write_quantities

    path = tmp_path / "quantities.csv"
    write_quantities(path, [{"file": "a.pdf", "card_id": "x", "name": '=HYPERLINK("https://example.org")', "copies": 2},
                            {"file": "a.pdf", "card_id": "y", "name": "capità", "copies": -1}])
    rows = list(csv.DictReader(path.open(encoding="utf-8", newline="")))
    assert [row["name"] for row in rows] == ['\'=HYPERLINK("https://example.org")', "capità"]
    assert rows[1]["copies"] == "-1"  # numbers stay numbers
