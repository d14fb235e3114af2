"""Bounds on images a game or pack supplies (icons, art), checked before anything renders them.

A 2 KB SVG whose ``<use>`` elements nest ten deep expands to billions of
elements and hangs the renderer; a 20,000 × 20,000 PNG is dropped by it and
silently replaced with its alt text. Both are refused here with the file
named, by ``validate`` and again by the renderer's fetcher.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..fileio import MAX_ASSET_BYTES, UnsafeFile, read_limited

MAX_SVG_ELEMENTS = 20_000
"""Elements an SVG may draw once every ``<use>`` is expanded; the shipped icons draw under 100."""
MAX_SVG_DEPTH = 32
"""Deepest nesting of elements and ``<use>`` references; real icons need under 10."""
MAX_IMAGE_PIXELS = 6000 * 6000
"""Largest raster image (icons and art): a 63 × 88 mm card at 1,200 dpi is about 3000 × 4200."""

_RASTER_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"RIFF")
_XLINK = "{http://www.w3.org/1999/xlink}href"


def image_problems(path: Path) -> list[tuple[str, str]]:
    """(code, message) for each bound ``path`` breaks; empty when it may be rendered."""
    try:
        data = read_limited(path, MAX_ASSET_BYTES)
    except UnsafeFile as exc:
        return [(exc.code, str(exc))]
    if data.startswith(_RASTER_MAGIC):  # a PNG named .svg is still drawn as a PNG
        return raster_problems(data)
    if path.suffix.lower() in _RASTER_SUFFIXES and data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return [("image-unreadable", f"an XML or SVG document named {path.suffix}; the renderer would draw it as "
                 "an SVG and no bound here would apply (name it .svg)")]
    if path.suffix.lower() == ".svg" or b"<svg" in data[:1024]:
        return svg_problems(data)
    return raster_problems(data)


def data_url_problems(url: str) -> list[tuple[str, str]]:
    """The bounds of :func:`image_problems` for an image given inline as a ``data:`` URL (raster or SVG);
    fonts, stylesheets and other text pass."""
    data = data_url_bytes(url)
    if data is None:
        return [("image-unreadable", "a malformed data: URL")]
    if data.startswith(_RASTER_MAGIC):
        return raster_problems(data)
    if data_url_media(url) == "image/svg+xml" or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return svg_problems(data)  # the renderer tries anything that is not a raster as an SVG
    return []


_CHECKED: dict[bytes, list[tuple[str, str]]] = {}
"""Verdicts by the SHA-256 of the image's bytes: ``validate`` and the renderer's fetcher check the same art in
one build, and decoding it twice was a fifth of a deck of art's time."""


class _WholeImages:
    """SHA-256 digests of raster images that decoded completely, remembered between runs (``images.json`` in the
    user's cache folder): decoding every illustration again on each ``validate`` and ``build`` was a quarter of a
    deck of art's build. Only the full decode is skipped for them: the size bound is read from the header every
    time, and an image whose bytes changed has another digest. The table names the checker it came from
    (:data:`VERSION`, the pixel bound, Pillow's version); any other table is started afresh."""

    VERSION = 1
    """Raise when what makes a decode complete changes."""
    LIMIT = 50_000
    """Digests kept (the oldest go first): about 3.5 MB of table."""

    def __init__(self) -> None:
        self.digests: dict[str, None] | None = None
        self.fresh = False

    NAME = "images.json"
    """The table's file in the user's cache folder."""

    @staticmethod
    def checker() -> str:
        import PIL

        return f"{_WholeImages.VERSION}:{MAX_IMAGE_PIXELS}:{PIL.__version__}"

    def load(self) -> dict[str, None]:
        if self.digests is None:
            from ..fileio import read_cache_table

            table = read_cache_table(self.NAME)  # None when there is none yet, or it is damaged: started afresh
            whole = table.get("whole") if isinstance(table, dict) and table.get("checker") == self.checker() else None
            self.digests = dict.fromkeys(d for d in whole if isinstance(d, str)) if isinstance(whole, list) else {}
        return self.digests

    def known(self, digest: bytes) -> bool:
        return digest.hex() in self.load()

    def add(self, digest: bytes) -> None:
        self.load()[digest.hex()] = None
        self.fresh = True

    def save(self) -> None:
        """Write the table if it grew; a cache folder that cannot be written is simply not used."""
        if not self.fresh or self.digests is None:
            return
        from ..fileio import write_cache_table

        self.fresh = False
        write_cache_table(self.NAME, {"checker": self.checker(), "whole": list(self.digests)[-self.LIMIT:]})


_WHOLE = _WholeImages()


def save_image_verdicts() -> None:
    """Remember the images found whole in this run (``validate`` calls it when it is done)."""
    _WHOLE.save()


def raster_problems(data: bytes) -> list[tuple[str, str]]:
    """A raster image must be at most :data:`MAX_IMAGE_PIXELS` (read from its header, before decoding) and
    decode completely: a truncated PNG or JPEG is refused, where the renderer would print it partly blank."""
    import hashlib

    digest = hashlib.sha256(data).digest()
    if digest not in _CHECKED:
        if len(_CHECKED) >= 4096:
            _CHECKED.clear()
        # The cached verdict only saves the full decode; the structure is checked every time, whatever the cache
        # folder says (a verdict written there by hand for a truncated file is not believed).
        incomplete = structure_problem(data)
        decode = incomplete is not None or not _WHOLE.known(digest)
        _CHECKED[digest] = _decoded_problems(data, decode)
        if incomplete is not None and not _CHECKED[digest]:  # Pillow read it whole: the structure check was wrong
            _CHECKED[digest] = []
        if decode and not _CHECKED[digest] and incomplete is None:
            _WHOLE.add(digest)
    return list(_CHECKED[digest])


def structure_problem(data: bytes) -> str | None:
    """Why ``data`` cannot be a whole image, from its structure alone (a few milliseconds for a card's art, against
    a tenth of a second or more to decode it), or None. A PNG must be a chain of chunks whose CRCs hold, from
    ``IHDR`` through ``IDAT`` to ``IEND``; a JPEG must end its last scan with an ``EOI`` marker; a GIF must end
    with its trailer; a WebP must be as long as its RIFF header says. A truncated file fails all of these."""
    import struct
    import zlib

    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        at, seen = 8, []
        while at + 12 <= len(data):
            (length,) = struct.unpack(">I", data[at:at + 4])
            end = at + 12 + length
            if end > len(data):
                return f"the {data[at + 4:at + 8].decode('latin-1')} chunk at byte {at} runs past the end of the file"
            kind = data[at + 4:at + 8]
            if zlib.crc32(data[at + 4:end - 4]) != struct.unpack(">I", data[end - 4:end])[0]:
                return f"the {kind.decode('latin-1')} chunk at byte {at} fails its CRC"
            seen.append(kind)
            at = end
            if kind == b"IEND":
                break
        if not seen or seen[0] != b"IHDR" or seen[-1] != b"IEND" or b"IDAT" not in seen:
            return "the PNG does not run from IHDR through IDAT to IEND"
        return None
    if data.startswith(b"\xff\xd8"):
        at = 2
        while at + 4 <= len(data) and data[at] == 0xFF:  # the segments before the first scan
            marker = data[at + 1]
            if marker == 0xFF:
                at += 1
                continue
            (length,) = struct.unpack(">H", data[at + 2:at + 4])
            at += 2 + length
            if marker == 0xDA:  # start of scan: entropy-coded data follows, where 0xFF is always stuffed
                return None if data.rfind(b"\xff\xd9", at) >= 0 else "the JPEG has no end-of-image marker"
        return "the JPEG has no scan"
    if data.startswith(b"GIF8"):
        return _gif_structure_problem(data)
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        (size,) = struct.unpack("<I", data[4:8])
        return None if size + 8 <= len(data) else "the WebP is shorter than its header says"
    return None


def _gif_structure_problem(data: bytes) -> str | None:
    """A GIF walked block by block (colour tables, extensions, images and their data sub-blocks) to its trailer."""
    def table(flags: int) -> int:
        return 3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0

    if len(data) < 13:
        return "the GIF is shorter than its header"
    at = 13 + table(data[10])
    while at < len(data):
        kind = data[at]
        if kind == 0x3B:
            return None
        if kind == 0x21:
            at += 2
        elif kind == 0x2C:
            if at + 10 > len(data):
                break
            at += 10 + table(data[at + 9]) + 1  # the descriptor, its colour table, the LZW code size
        else:
            return f"the GIF has an unknown block at byte {at}"
        while at < len(data) and data[at]:  # data sub-blocks, to the empty one
            at += 1 + data[at]
        at += 1
    return "the GIF ends before its trailer"


def _decoded_problems(data: bytes, decode: bool = True) -> list[tuple[str, str]]:
    import io

    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > MAX_IMAGE_PIXELS:
                return [("image-too-large", f"image is {width} × {height} pixels; the limit is "
                         f"{MAX_IMAGE_PIXELS:,} pixels (scale it down)")]
            if decode:
                with _strict_decoding():
                    image.load()
    except Image.DecompressionBombError as exc:
        return [("image-too-large", f"{exc}".split(",")[0] + "; scale the image down")]
    except Exception as exc:  # Pillow raises many kinds for a broken header or body
        return [("image-unreadable", f"not a readable image (truncated or damaged): {exc}")]
    return []


@contextmanager
def _strict_decoding() -> Iterator[None]:
    """Pillow refuses truncated data while this holds (WeasyPrint allows it for the whole process on import)."""
    from PIL import ImageFile

    before = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        yield
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = before


def svg_problems(data: bytes) -> list[tuple[str, str]]:
    """An SVG must parse without network, declare no entities and embed no other SVG (see
    :func:`_embedding_problems`), and stay under the element and depth bounds with every ``<use>`` expanded
    (counted with memoised sizes, so the count itself stays cheap)."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        return [("svg-syntax", f"not a well-formed SVG: {exc}")]
    refused = _embedding_problems(root)
    if refused:
        return refused
    alive = list(root.iter())  # lxml makes element proxies on demand: kept alive, their id() is stable
    by_id = {node.get("id"): node for node in alive if isinstance(node.tag, str) and node.get("id")}
    sizes: dict[int, tuple[int, int]] = {}
    visiting: set[int] = set()

    def measure(node, level: int = 0) -> tuple[int, int]:
        """(elements drawn, depth) of ``node`` with its ``<use>`` references expanded."""
        key = id(node)
        if level > MAX_SVG_DEPTH:
            return 1, MAX_SVG_DEPTH + 1
        if key in sizes:
            return sizes[key]
        if key in visiting:
            raise RecursionError("a <use> refers back to itself")
        visiting.add(key)
        count, depth = 1, 1
        children = [child for child in node if isinstance(child.tag, str)]
        if isinstance(node.tag, str) and node.tag.rsplit("}", 1)[-1] == "use":
            reference = (node.get("href") or node.get(_XLINK) or "").removeprefix("#")
            if reference in by_id:
                children.append(by_id[reference])
        for child in children:
            child_count, child_depth = measure(child, level + 1)
            count += child_count
            depth = max(depth, child_depth + 1)
            if count > MAX_SVG_ELEMENTS or depth > MAX_SVG_DEPTH:
                break
        visiting.discard(key)
        if depth <= MAX_SVG_DEPTH:  # a result cut short at the depth bound depends on where it was reached
            sizes[key] = (count, depth)
        return count, depth

    try:
        count, depth = measure(root)
    except RecursionError:
        return [("svg-too-complex", "a <use> element refers (through others) back to itself")]
    if depth > MAX_SVG_DEPTH:
        return [("svg-too-complex", f"elements and <use> references nest more than {MAX_SVG_DEPTH} levels deep")]
    if count > MAX_SVG_ELEMENTS:
        return [("svg-too-complex", f"the SVG draws more than {MAX_SVG_ELEMENTS:,} elements once its <use> "
                 "references are expanded")]
    return []


_RASTER_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")


def _embedding_problems(root) -> list[tuple[str, str]]:
    """Entities and nested SVG are refused, not measured: the renderer's XML parser expands internal entities
    (a ``<use>`` bomb can hide inside one, unseen by the bounds above), drops external ones without a word,
    and draws an SVG nested as a ``data:`` image with a bound check of its own that nothing here would run.
    A raster ``data:`` image inside an SVG is held to the raster bounds."""
    from lxml import etree

    dtd = root.getroottree().docinfo.internalDTD
    declared = [entity.name for entity in dtd.entities()] if dtd is not None else []
    used = sorted({node.name for node in root.iter() if isinstance(node, etree._Entity)})
    if declared or used:
        names = ", ".join(f"&{name};" for name in (declared or used)[:5])
        return [("svg-entity", f"the SVG declares or uses XML entities ({names}); entities are not allowed in "
                 "images (save it again without a DOCTYPE)")]
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        for name, value in node.attrib.items():
            target = value.strip()
            if target.startswith("data:"):
                embedded = data_url_bytes(target)
                if embedded is None:
                    return [("svg-syntax", f"an unreadable data: URL in attribute {name}")]
                if not embedded.startswith(_RASTER_MAGIC):  # the renderer draws anything else as an SVG
                    return [("svg-nested", f"the SVG embeds a {data_url_media(target)} data: URL that is not a "
                             "PNG, JPEG, GIF or WebP image; nested SVG images are not allowed (draw its shapes "
                             "in this file instead)")]
                for code, message in raster_problems(embedded):
                    return [(code, f"the image embedded as a data: URL: {message}")]
            elif node.tag.rsplit("}", 1)[-1] in {"image", "feImage"} and name.rsplit("}", 1)[-1] == "href" and \
                    not target.startswith("#") and \
                    not target.split("#", 1)[0].split("?", 1)[0].lower().endswith(_RASTER_SUFFIXES):
                return [("svg-nested", f"the SVG draws {target!r} as an image; an SVG may draw only PNG, JPEG, GIF "
                         "or WebP files (nested SVG images are not allowed)")]
    return []


def data_url_bytes(url: str) -> bytes | None:
    """The bytes a ``data:`` URL holds (base64 or percent-encoded), or None when it is malformed."""
    import base64
    import binascii
    from urllib.parse import unquote_to_bytes

    header, comma, body = url[5:].partition(",")
    if not comma:
        return None
    if header.lower().endswith(";base64"):
        try:
            return base64.b64decode("".join(body.split()), validate=True)
        except (binascii.Error, ValueError):
            return None
    return unquote_to_bytes(body)


def data_url_media(url: str) -> str:
    """The media type of a ``data:`` URL, lower case (``text/plain`` when it names none)."""
    return url[5:].split(",", 1)[0].split(";", 1)[0].strip().lower() or "text/plain"
