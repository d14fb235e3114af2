"""Backs that give a hidden card away: in one shuffled deck, cards of one type printed with different backs.

A pack may give its battle cards their own back; built into the game's deck,
those cards can then be told from the game's battle cards face down. That is
the designer's call, so it is a warning (naming the types), never an error.
"""

from __future__ import annotations

from .faces import Face, FaceJob


def telltale_backs(job: FaceJob) -> dict[str, list[str]]:
    """Card type → the backs its cards carry, for each type whose cards in this deck carry more than one."""
    backs: dict[str, list[str]] = {}
    for face in job.faces:
        if isinstance(face, Face) and face.back not in backs.setdefault(face.type, []):
            backs[face.type].append(face.back)
    return {kind: found for kind, found in backs.items() if len(found) > 1}


def describe(deck: str, found: dict[str, list[str]]) -> str:
    """One warning line naming each type and its backs."""
    parts = "; ".join(f"{kind} cards carry {len(backs)} backs ({', '.join(backs)})" for kind, backs in found.items())
    return (f"[back-tells-apart] deck {deck}: {parts}; face down, these cards can be told apart "
            "(give them one back, or keep them in separate decks)")
