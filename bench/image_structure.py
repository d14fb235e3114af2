"""Measure what checking an image's structure costs against decoding it (issue 49).

Run: python bench/image_structure.py [--rounds 5]

A cached "decodes whole" verdict (``images.json`` in the user's cache folder) spares the full decode, but the
structure (``loading.assets.structure_problem``) is checked on every run, so that a verdict forged for a
truncated file is not believed. For card art of two sizes (noise, so the files are as large as art gets, and
the same noise blurred, as painted art compresses) in each format the renderer draws, this prints the file size,
the median milliseconds of the structure check and of the full decode, and their ratio.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

FORMATS = [("PNG", {}), ("JPEG", {"quality": 90}), ("JPEG", {"quality": 90, "progressive": True}), ("GIF", {}),
           ("WEBP", {})]


def _median_ms(function, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    from PIL import Image, ImageFilter

    from cardworks.loading.assets import _decoded_problems, structure_problem

    print(f"{'art':<22} {'format':<16} {'MB':>6} {'structure ms':>13} {'decode ms':>10} {'ratio':>7}")
    for size in [(750, 1050), (3000, 4200)]:
        noise = Image.effect_noise(size, 64).convert("RGB")
        for label, image in [("noise", noise), ("blurred", noise.filter(ImageFilter.GaussianBlur(6)))]:
            for fmt, options in FORMATS:
                buffer = io.BytesIO()
                image.save(buffer, fmt, **options)
                data = buffer.getvalue()
                assert structure_problem(data) is None and _decoded_problems(data) == []
                check = _median_ms(lambda: structure_problem(data), rounds)
                decode = _median_ms(lambda: _decoded_problems(data), rounds)
                name = fmt + (" progressive" if options.get("progressive") else "")
                art = f"{label} {size[0]}x{size[1]}"
                print(f"{art:<22} {name:<16} {len(data) / 1e6:6.2f} {check:13.2f} {decode:10.1f} "
                      f"{check / decode:7.1%}")


if __name__ == "__main__":
    main()
