"""Art decks against silhouette-card-maker and the pikepdf floor: processor time and peak memory, same images.

Run: python bench/peer_art.py [--sizes 54,540] [--rounds 3] [--layout grid|silhouette] [--art-layout art-only|full-bleed]
     [--peer FOLDER] [--jpeg-quality N]

Each size is a deck of ``art-only`` cards (``--art-layout full-bleed``: the card's text printed over the art, the
deck's own back) as ``bench/scale.py --art`` makes it (each card its own 825 × 1125 px
noise PNG, a poker card with 3 mm bleed at 300 dpi; the deck's back an image too), validated once untimed, then,
alternated in each round, as whole processes:

- cardworks: a cold ``build --game fallera --set bench --locale en --no-docs --jobs 1`` (A4; ``--layout``);
- the pikepdf floor (always): the same PNGs embedded undecoded, nine to an A4 page (``scale.py --floor``);
- silhouette-card-maker, when a checkout of it is given (``--peer`` or ``SILHOUETTE_CARD_MAKER``): its
  ``create_pdf.py`` on the same fronts and back, ``--card_size standard --paper_size a4 --crop 3mm`` (its
  cards are 63 × 88 mm like these; ``--crop 3mm`` takes off the images' bleed, which it draws again itself).
  To get it: clone the public repository Alan-Cha/silhouette-card-maker (GitHub) and install what its
  requirements.txt names (click, natsort, Pillow, pydantic; the versions installed here serve);
- with ``--jpeg-quality N``: the same build with ``--jpeg-quality N`` (art re-encoded as JPEG), whose sheets and
  print-shop file are then weighed against the lossless build's (the peer writes JPEG at its default quality 75).

Processor time is the process's and its waited-for children's (``os.wait4``), the least of the rounds (a shared
machine's noise only adds time); peak memory the largest resident set of the process or a child, the most of
the rounds. Ratios are cardworks against the floor and against the peer, of one run: compare only those.
The build's sheets are then read back to check the art went in losslessly: every image of the print-shop file
is the bytes of its PNG's rows.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale import ART_LAYOUTS, REPO, Run, make_database, noise_png, numbers, run, selection, warm  # noqa: E402


def peer_folder(given: str | None) -> Path | None:
    """The silhouette-card-maker checkout to run, or None (then only cardworks and the floor are measured)."""
    found = given or os.environ.get("SILHOUETTE_CARD_MAKER")
    if not found:
        return None
    folder = Path(found).resolve()
    if not (folder / "create_pdf.py").is_file():
        raise SystemExit(f"{folder}: no create_pdf.py there; give a checkout of silhouette-card-maker")
    return folder


def build(cards_root: Path, out: Path, layout: str, jpeg_quality: int | None = None) -> Run:
    lossy = ["--jpeg-quality", str(jpeg_quality)] if jpeg_quality else []
    return run([sys.executable, "-m", "cardworks", "build", "--game", "fallera", "--set", selection(cards_root), "--locale",
                "en", "--no-docs", "--out", str(out), "--jobs", "1", "--paper", "a4", "--layout", layout, *lossy],
               cards_root.parent)


def floor(folder: Path, images: list[Path]) -> Run:
    listing = folder / "images.txt"
    listing.write_text("\n".join(map(str, images)), encoding="utf-8")
    return run([sys.executable, str(REPO / "bench" / "scale.py"), "--floor", str(listing), str(folder / "floor.pdf")], folder)


def peer(checkout: Path, game: Path, folder: Path) -> Run:
    empty = folder / "double-sided"
    empty.mkdir(exist_ok=True)
    return run([sys.executable, "create_pdf.py", "--front_dir_path", str(game / "art"), "--back_dir_path",
                str(game / "backs"), "--double_sided_dir_path", str(empty), "--output_path", str(folder / "peer.pdf"),
                "--card_size", "standard", "--paper_size", "a4", "--crop", "3mm"], checkout)


def lossless(out: Path, images: list[Path]) -> tuple[int, int]:
    """(images of the print-shop file that are a source PNG's rows byte for byte, images in it)."""
    import pikepdf

    from cardworks.render.rawpng import png_rows

    rows = {png_rows(path.read_bytes()).data for path in images}  # type: ignore[union-attr]
    [shop] = (out / "fallera" / "en" / "print-shop").glob("cards-*.pdf")
    same = total = 0
    with pikepdf.open(shop) as pdf:
        for page in pdf.pages:  # images inside forms too (a face laid out by WeasyPrint draws its art in one)
            for image in page.get_images().values():
                total += 1
                same += image.read_raw_bytes() in rows
    return same, total


def weights(out: Path) -> dict[str, int]:
    """Bytes of the build's sheets file and print-shop file (``sheets``, ``print-shop``)."""
    shop = next((out / "fallera" / "en" / "print-shop").glob("cards-*.pdf"))
    sheets = next((out / "fallera" / "en").glob("cards-*.pdf"))
    return {"sheets": sheets.stat().st_size, "print-shop": shop.stat().st_size}


def jpeg_images(out: Path) -> tuple[int, int]:
    """(images of the print-shop file written as JPEG, images in it)."""
    import pikepdf

    [shop] = (out / "fallera" / "en" / "print-shop").glob("cards-*.pdf")
    with pikepdf.open(shop) as pdf:
        filters = [o.get("/Filter") for o in pdf.objects
                   if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    return sum(f == "/DCTDecode" for f in filters), len(filters)


def least(runs: list[Run]) -> Run:
    return Run(min(r.cpu for r in runs), max(r.peak_mb for r in runs))


def measure(designs: int, rounds: int, layout: str, checkout: Path | None, tmp: Path, art_layout: str,
            jpeg_quality: int | None = None) -> None:
    folder = tmp / f"art-{designs}"
    cards_root = make_database(folder, designs, art=True, layout=art_layout)
    game = cards_root / "fallera"
    fronts = sorted((game / "art").glob("*.png"))
    back = game / "backs" / "back.png"
    images = [*fronts, *([back] if back.is_file() else [])]
    if checkout is not None and not back.is_file():  # full-bleed: the deck's back is drawn; the peer gets an image
        back.parent.mkdir()
        noise_png(back)
    warm(cards_root)
    ours, floors, peers, lossy = [], [], [], []
    for _ in range(rounds):  # alternated, so a change in the machine's load falls on all three alike
        shutil.rmtree(folder / "out", ignore_errors=True)
        ours.append(build(cards_root, folder / "out", layout))
        if jpeg_quality:
            shutil.rmtree(folder / "out-jpeg", ignore_errors=True)
            lossy.append(build(cards_root, folder / "out-jpeg", layout, jpeg_quality))
        floors.append(floor(folder, fronts))
        if checkout is not None:
            peers.append(peer(checkout, game, folder))
    built, base = least(ours), least(floors)
    same, total = lossless(folder / "out", images)
    line = (f"{designs} {art_layout} cards ({layout}, A4): cardworks {built.cpu:.2f} s, peak {built.peak_mb:.0f} MB; pikepdf floor "
            f"{base.cpu:.2f} s, peak {base.peak_mb:.0f} MB; cardworks/floor {built.cpu / base.cpu:.2f}×")
    if peers:
        other = least(peers)
        line += (f"; silhouette-card-maker {other.cpu:.2f} s, peak {other.peak_mb:.0f} MB; cardworks/peer "
                 f"{built.cpu / other.cpu:.2f}× time, {built.peak_mb / other.peak_mb:.2f}× memory")
    else:
        line += "; silhouette-card-maker not run (give --peer FOLDER or SILHOUETTE_CARD_MAKER)"
    print(line, flush=True)
    print(f"{designs} cards: {same} of {total} images in the print-shop file are their PNG's own rows (lossless); "
          f"least of {rounds} round(s)", flush=True)
    if lossy:
        small, big, made = weights(folder / "out-jpeg"), weights(folder / "out"), least(lossy)
        jpegs, images = jpeg_images(folder / "out-jpeg")
        sizes = "; ".join(f"{kind} {small[kind] / 1e6:.1f} MB against {big[kind] / 1e6:.1f} MB lossless "
                          f"({small[kind] / big[kind]:.2f}×)" for kind in small)
        line = (f"{designs} cards with --jpeg-quality {jpeg_quality}: {sizes}; {jpegs} of {images} images JPEG; "
                f"{made.cpu:.2f} s, peak {made.peak_mb:.0f} MB ({made.cpu / built.cpu:.2f}× the lossless build's time")
        if peers:
            peer_mb = (folder / "peer.pdf").stat().st_size / 1e6
            line += f", {made.cpu / least(peers).cpu:.2f}× the peer's; its PDF {peer_mb:.1f} MB"
        print(line + ")", flush=True)
    shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=numbers, default=[54, 540], help="deck sizes (default 54,540)")
    parser.add_argument("--rounds", type=int, default=1, help="alternated rounds; the least time of each is kept")
    parser.add_argument("--layout", default="grid", help="cardworks's sheet layout (grid, silhouette, …)")
    parser.add_argument("--art-layout", choices=ART_LAYOUTS, default="art-only",
                        help="art-only (default): each image the whole face, the back an image; full-bleed: the "
                        "card's text printed over its art, the deck's own back")
    parser.add_argument("--peer", help="a silhouette-card-maker checkout (else $SILHOUETTE_CARD_MAKER; else not run)")
    parser.add_argument("--jpeg-quality", type=int,
                        help="also build with --jpeg-quality N each round and weigh its files")
    args = parser.parse_args()
    checkout = peer_folder(args.peer)
    with tempfile.TemporaryDirectory() as tmp:
        for designs in args.sizes:
            measure(designs, args.rounds, args.layout, checkout, Path(tmp), args.art_layout, args.jpeg_quality)


if __name__ == "__main__":
    main()
