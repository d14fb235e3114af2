"""The printable-text shortcut of ``invisible_characters`` is sound: no code point that Python calls printable
(and that is not a listed blank letter) is of a refused category, so a printable text holds none."""

import sys
import unicodedata

from cardworks.validate.check_invisible import BLANK, _REFUSED_CATEGORIES, invisible_characters


def test_no_printable_code_point_outside_the_blank_list_is_refused():
    refused = [hex(cp) for cp in range(sys.maxunicode + 1)
               if chr(cp).isprintable() and unicodedata.category(chr(cp)) in _REFUSED_CATEGORIES]
    assert refused == []
    assert all(ch.isprintable() for ch in BLANK)  # why the shortcut must look for them itself


def test_the_shortcut_still_finds_blank_letters_and_offsets():
    assert invisible_characters("a\u3164b") == [(1, "\u3164")]  # printable to Python, blank on paper
    assert invisible_characters("x\u200by\u202e") == [(1, "\u200b"), (3, "\u202e")]
    assert invisible_characters("sau\u00adce\u00a0!\n") == []
