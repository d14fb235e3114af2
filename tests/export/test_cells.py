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
