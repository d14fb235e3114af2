"""An image's verdict is kept by its bytes: the same art checked by ``validate`` and by the renderer's fetcher is
decoded once, and other bytes at the same path (a file swapped or damaged after validation) are decoded again."""

from __future__ import annotations

import io

from PIL import Image

from cardworks.loading import assets


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), "teal").save(buffer, format="PNG")
    return buffer.getvalue()


def test_the_same_bytes_are_decoded_once_and_damaged_ones_still_refused(tmp_path, monkeypatch) -> None:
    decoded = []
    real = assets._decoded_problems
    monkeypatch.setattr(assets, "_decoded_problems", lambda data: decoded.append(len(data)) or real(data))
    art = tmp_path / "art.png"
    art.write_bytes(_png())
    assert assets.image_problems(art) == [] and assets.image_problems(art) == []
    assert len(decoded) == 1
    art.write_bytes(_png()[:-30])  # cut short after validation: new bytes, decoded again and refused
    assert [code for code, _ in assets.image_problems(art)] == ["image-unreadable"]
    assert len(decoded) == 2
