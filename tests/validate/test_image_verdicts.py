"""An image's verdict is kept by its bytes: the same art checked by ``validate`` and by the renderer's fetcher is
decoded once, and other bytes at the same path (a file swapped or damaged after validation) are decoded again.
An image found whole is remembered between runs, so the next run reads only its header."""

from __future__ import annotations

import io
import json

from PIL import Image

import pytest

from cardworks.loading import assets


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), "teal").save(buffer, format="PNG")
    return buffer.getvalue()


def test_the_same_bytes_are_decoded_once_and_damaged_ones_still_refused(tmp_path, monkeypatch) -> None:
    decoded = []
    real = assets._decoded_problems
    monkeypatch.setattr(assets, "_decoded_problems", lambda data, decode=True: decoded.append(len(data)) or real(data, decode))
    art = tmp_path / "art.png"
    art.write_bytes(_png())
    assert assets.image_problems(art) == [] and assets.image_problems(art) == []
    assert len(decoded) == 1
    art.write_bytes(_png()[:-30])  # cut short after validation: new bytes, decoded again and refused
    assert [code for code, _ in assets.image_problems(art)] == ["image-unreadable"]
    assert len(decoded) == 2


@pytest.fixture
def next_run(tmp_path, monkeypatch):
    """A cache folder of its own, and a way to start the next run: the process's memo and table forgotten."""
    monkeypatch.setenv("CARDWORKS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(assets, "_WHOLE", assets._WholeImages())

    def start() -> list[bool]:
        assets._CHECKED.clear()
        monkeypatch.setattr(assets, "_WHOLE", assets._WholeImages())
        decodes: list[bool] = []
        real = assets._decoded_problems
        monkeypatch.setattr(assets, "_decoded_problems", lambda data, decode=True: decodes.append(decode) or real(data, decode))
        return decodes

    return start


def _noise_png(size=(64, 48)) -> bytes:
    import random

    rng = random.Random(len(size) + size[0])
    buffer = io.BytesIO()
    Image.frombytes("RGB", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * 3))).save(buffer, format="PNG")
    return buffer.getvalue()


def test_an_image_found_whole_is_not_decoded_again_in_the_next_run(tmp_path, next_run) -> None:
    art = tmp_path / "art.png"
    art.write_bytes(_noise_png())
    first = next_run()
    assert assets.image_problems(art) == [] and first == [True]
    assets.save_image_verdicts()
    second = next_run()
    assert assets.image_problems(art) == [] and second == [False]  # the header is read, the pixels are not


def test_a_damaged_image_is_never_remembered_and_is_refused_in_every_run(tmp_path, next_run) -> None:
    art = tmp_path / "art.png"
    art.write_bytes(_noise_png()[:-40])
    for _ in range(2):
        decodes = next_run()
        assert [code for code, _ in assets.image_problems(art)] == ["image-unreadable"] and decodes == [True]
        assets.save_image_verdicts()
    assert not (tmp_path / "cache" / "images.json").exists()


def test_a_remembered_digest_does_not_lift_the_size_bound(tmp_path, next_run, monkeypatch) -> None:
    """A table that names a too-large image (planted, or a bound lowered since) still gets it refused."""
    data = _noise_png((80, 60))
    art = tmp_path / "art.png"
    art.write_bytes(data)
    next_run()
    assert assets.image_problems(art) == []
    assets.save_image_verdicts()
    monkeypatch.setattr(assets, "MAX_IMAGE_PIXELS", 80 * 60 - 1)
    table = json.loads((tmp_path / "cache" / "images.json").read_text())
    table["checker"] = assets._WholeImages.checker()  # the table made to fit the lowered bound
    (tmp_path / "cache" / "images.json").write_text(json.dumps(table))
    decodes = next_run()
    assert [code for code, _ in assets.image_problems(art)] == ["image-too-large"] and decodes == [False]


@pytest.mark.parametrize("table", ["not json", '{"checker": "another", "whole": []}', '{"checker": 1}', "[]"])
def test_a_damaged_or_foreign_table_is_started_afresh(tmp_path, next_run, table) -> None:
    art = tmp_path / "art.png"
    data = _noise_png((32, 32))
    art.write_bytes(data)
    (tmp_path / "cache").mkdir()
    import hashlib

    digest = hashlib.sha256(data).hexdigest()
    (tmp_path / "cache" / "images.json").write_text(table.replace("[]", f'["{digest}"]') if "another" in table else table)
    decodes = next_run()
    assert assets.image_problems(art) == [] and decodes == [True]


def test_a_fifo_in_place_of_the_table_is_not_waited_on(tmp_path, next_run) -> None:
    """A FIFO named like the table is refused unread (a read would wait forever), and the run starts afresh."""
    import os

    art = tmp_path / "art.png"
    art.write_bytes(_noise_png((24, 24)))
    (tmp_path / "cache").mkdir()
    os.mkfifo(tmp_path / "cache" / "images.json")
    decodes = next_run()
    assert assets.image_problems(art) == [] and decodes == [True]
    assets.save_image_verdicts()  # the FIFO is replaced by an atomic rename, never opened for writing
    assert (tmp_path / "cache" / "images.json").is_file()


def test_an_unwritable_cache_folder_is_simply_not_used(tmp_path, next_run, monkeypatch) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("CARDWORKS_CACHE", str(blocked))
    art = tmp_path / "art.png"
    art.write_bytes(_noise_png((20, 20)))
    decodes = next_run()
    assert assets.image_problems(art) == [] and decodes == [True]
    assets.save_image_verdicts()  # no error
    assert blocked.read_text() == "a file where the cache folder should be"


def _saved(image: Image.Image, fmt: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


@pytest.mark.parametrize("fmt, options", [("PNG", {}), ("JPEG", {}), ("JPEG", {"progressive": True}), ("GIF", {}),
                                          ("WEBP", {})])
def test_the_structure_check_passes_whole_images_and_refuses_every_cut(fmt: str, options: dict) -> None:
    """What is checked even when the cache says an image is whole: every whole image passes (with bytes after its
    end too, as cameras append), and every cut of it fails (issue 49)."""
    data = _saved(Image.effect_noise((64, 48), 64).convert("RGB"), fmt, **options)
    assert assets.structure_problem(data) is None
    assert assets.structure_problem(data + b"\0" * 16 + b"appended") is None
    for cut in range(len(data) // 2, len(data), max(1, len(data) // 40)):
        assert assets.structure_problem(data[:cut]) is not None, (fmt, cut, len(data))


def test_a_cut_png_remembered_as_whole_is_decoded_and_refused(tmp_path, next_run) -> None:
    """A verdict forged in the cache folder for a truncated file is not believed."""
    import hashlib

    cut = _noise_png()[:-40]
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "images.json").write_text(json.dumps(
        {"checker": assets._WholeImages.checker(), "whole": [hashlib.sha256(cut).hexdigest()]}))
    art = tmp_path / "art.png"
    art.write_bytes(cut)
    decodes = next_run()
    assert [code for code, _ in assets.image_problems(art)] == ["image-unreadable"] and decodes == [True]
