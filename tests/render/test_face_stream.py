"""Faces are handed over one document at a time and let go; cached faces stay on disk until assembled."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest

from cardworks.render.faces import Art, Face, FaceResult, build_job, render_faces
from cardworks.render.facecache import CachedFace, FaceCache
from cardworks.render.facepdf import assemble
from conftest import REPO


def _job():
    from cardworks.loading import load_database
    from cardworks.render.deck import build_deck

    db = load_database(REPO / "cards" / "fallera")
    return build_job(db, build_deck(db, "base"), "en")


@pytest.mark.slow
def test_documents_are_handed_over_as_read_and_one_with_a_refusal_is_kept_back(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("cardworks.render.faces.FACES_PER_CHUNK", 1)  # a document a face
    job = _job()
    faces = [replace(face) for face in job.faces if isinstance(face, Face) and (not face.rules or face.rules_unknown)][:3]
    assert len(faces) == 3, "three faces with no rules text of their own"
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"not inside the game")
    faces[-1] = replace(faces[-1], art=Art(outside.as_uri()))  # a fetch the renderer refuses
    handed: list[FaceResult] = []
    result = render_faces(replace(job, faces=faces), done=handed.append)
    assert [len(part.pdfs) for part in handed] == [1, 1]  # the clean documents, each on its own
    assert [set(part.pages) for part in handed] == [{faces[0].id}, {faces[1].id}]
    assert len(result.pdfs) == 1 and set(result.pages) == {faces[2].id}  # kept back: it refused
    assert result.refused and str(outside) in result.refused[0]
    assert set(result.fits) == {face.id for face in faces}  # the verdicts cover every face


def test_a_cached_face_stays_on_disk_and_is_assembled_from_it(tmp_path: Path) -> None:
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 280))
    pdf.pages[0].obj.Contents = pdf.make_stream(b"% " + b"x" * 1000 + b"\n0 0 10 10 re f")
    pdf.save(tmp_path / "face.pdf", compress_streams=False)
    face = (tmp_path / "face.pdf").read_bytes()
    cache = FaceCache(tmp_path / "cache")
    stored = cache.put("face", CachedFace(face, 1, (), "g"))
    assert isinstance(stored.stored, Path) and stored.pdf == face and cache.get("face").stored == stored.stored
    out = assemble({"face": stored.stored}, ["face"], 3.0, "en")
    assert b"0 0 10 10 re f" in out.pages[0].Contents.read_bytes()


def test_a_cached_face_whose_page_is_gone_is_a_miss(tmp_path: Path) -> None:
    cache = FaceCache(tmp_path / "cache")
    cache.put("face", CachedFace(b"%PDF-1.7 face", 0, (), "g"))
    (tmp_path / "cache" / "face.pdf").unlink()
    assert cache.get("face") is None
