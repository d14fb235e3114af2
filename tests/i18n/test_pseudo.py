"""The pseudo-locale accents a label's words, never its format fields: a field it mangled would stop the build
with a KeyError when the label is filled in (the contents page's "cannot be played" labels did)."""

from __future__ import annotations

from cardworks.i18n.pseudo import pseudo_text


def test_a_labels_format_fields_survive_and_fill_in() -> None:
    label = "{unknown} of the {box} cards ({set})"
    pseudo = pseudo_text(label)
    assert pseudo != f"[{label}]", "the words are accented"
    assert pseudo.format(unknown=108, box=124, set="x").startswith("[108 ") and "124" in pseudo.format(
        unknown=108, box=124, set="x")


def test_card_text_tokens_are_kept_as_before() -> None:
    assert "{treasure}" in pseudo_text("Draw a {treasure} card", markup=True)
