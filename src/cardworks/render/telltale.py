"""Backs that give a hidden card away: in one shuffled deck, cards of one type printed with different backs.

A pack may give its battle cards their own back; built into the game's deck,
those cards can then be told from the game's battle cards face down. That is
the designer's call, so it is a warning (naming the types), never an error.
Cards of different sizes are not compared: their size already tells them apart,
and each size is printed with backs of its own.
"""

from __future__ import annotations

from .faces import Face, FaceJob


def telltale_backs(job: FaceJob) -> dict[str, list[str]]:
    """Card type → the backs its cards carry, for each type whose cards of one size carry more than one in this
    deck. Cards of another size are told apart by their size whatever their back (and each size has backs of
    its own), so only cards of one size are compared; a type found at several sizes is named with the size
    (``battle 70 × 70 mm``)."""
    backs: dict[tuple[str, float, float], list[str]] = {}
    for face in job.faces:
        if isinstance(face, Face):
            found = backs.setdefault((face.type, face.trim_w, face.trim_h), [])
            if face.back not in found:
                found.append(face.back)
    sizes: dict[str, int] = {}
    for kind, _, _ in backs:
        sizes[kind] = sizes.get(kind, 0) + 1
    return {kind if sizes[kind] == 1 else f"{kind} {width:g} × {height:g} mm": found
            for (kind, width, height), found in backs.items() if len(found) > 1}


def describe(deck: str, found: dict[str, list[str]]) -> str:
    """One warning line naming each type and its backs."""
    parts = "; ".join(f"{kind} cards carry {len(backs)} backs ({', '.join(backs)})" for kind, backs in found.items())
    return (f"[back-tells-apart] deck {deck}: {parts}; face down, these cards can be told apart "
            "(give them one back, or keep them in separate decks)")
