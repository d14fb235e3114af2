"""Names and texts that print blank or reordered: zero-width and bidi-control characters. ``validate`` refuses
them (with or without ``--strict``) at the text's JSON pointer, naming the code point; soft hyphens and no-break
spaces, which real texts use, pass."""

from __future__ import annotations

import json

from corpus import cardworks, judge, mini  # noqa: F401  (fixtures)

FAMILY = "text/invisible"


def _edit(path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc, ensure_ascii=False))


def test_invisible_and_bidi_characters_are_refused_at_their_pointers(mini) -> None:
    """One ``validate --strict`` run: a name of zero-width spaces, rules with a right-to-left override, a
    translated name wrapped in a bidi isolate; each judged at its own pointer."""
    sets, es = mini.root / "sets" / "base.json", mini.root / "i18n" / "es.json"

    def cards(doc) -> None:
        doc["cards"][0]["name"] = "\u200b\u200b\u200b"
        doc["cards"][1]["rules"] = "Steal one {treasure} \u202efrom a rival."

    _edit(sets, cards)
    _edit(es, lambda doc: doc["entries"]["capita"]["name"].update(text="\u2067capità\u2069"))
    result = cardworks("--cards", str(mini.cards_root), "validate", "--strict", timeout=30)
    for case, where, point in (("name of zero-width spaces", "base.json:/cards/0/name:", "U+200B"),
                               ("rules with a right-to-left override", "base.json:/cards/1/rules:", "U+202E"),
                               ("translation in a bidi isolate", "es.json:/entries/capita/name/text:", "U+2067")):
        judge(case, FAMILY, result, refuse=True, names=where, code="invisible-character")
        assert any(where in line and point in line for line in result.stdout.splitlines()), result.stdout[-2000:]


def test_soft_hyphens_and_no_break_spaces_pass(mini) -> None:
    _edit(mini.root / "sets" / "base.json",
          lambda doc: doc["cards"][1].update(rules="Steal one\u00a0{treasure} from a ri\u00adval\u202f!"))
    # English only: the edited source leaves its Spanish translation stale, which a Spanish build refuses
    result = cardworks("--cards", str(mini.cards_root), "validate", "--locale", "en", timeout=30)
    judge("soft hyphen and no-break spaces in rules", FAMILY, result, refuse=False,
          check=lambda: "invisible" in result.stdout and "a visible character was refused" or None)
