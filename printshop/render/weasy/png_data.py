"""A PNG's compressed pixels go into the PDF as they are, instead of being decoded and
encoded again.

A PDF takes an image's rows compressed as a PNG compresses them (Flate with PNG's row
filters), so a PNG's IDAT data is a PDF image stream as it stands. WeasyPrint 70 does not
use it: for every PNG it writes, it decodes the file and has Pillow encode it again, only
to read the IDAT data back out of the new file; and a palette PNG (what pngquant and most
drawing programs' "optimised" exports make) is first converted to RGB and encoded once
more when it is loaded, since WeasyPrint writes no indexed images. The guide's cover, a
2,626 x 3,376 palette PNG of 61 KB, cost 0.2 s of CPU each time (twice a build: at its
first layout and where its page is written), and went into the PDF as 129 KB of RGB.

Here a PNG whose data can be used as it is keeps it: 8-bit grey or RGB, or a palette (an
indexed colour space over DeviceRGB, each of its colours the PNG's), not interlaced (PDF
has no Adam7), with no transparency (WeasyPrint makes a soft mask from an alpha channel).
Its data is checked first (complete, of the size its header says; a palette image's
indices within its palette), and anything else takes WeasyPrint's own way, as does an
image WeasyPrint would resize (`dpi`) or optimise (`optimize_images`). The pixels printed
are the same; the PDF's bytes are not (a smaller image stream, for a palette PNG another
colour space), which the patches' equivalence harness compares by text and pixels.
"""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass

from printshop.render.weasy.registry import Patch

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_GREY, _RGB, _PALETTE = 0, 2, 3          # PNG colour types used as they are


@dataclass(frozen=True)
class PngData:
    """What a PDF image stream needs of a PNG: its size, colours and IDAT data."""
    width: int
    height: int
    bits: int
    colour_type: int
    palette: bytes        # RGB triplets (a palette PNG's), else b""
    idat: bytes

    @property
    def colours(self) -> int:
        return 3 if self.colour_type == _RGB else 1


def png_data(data: bytes) -> PngData | None:
    """The PNG `data` as a PDF can take it, or None where it cannot (or is damaged)."""
    if not data.startswith(_SIGNATURE):
        return None
    header, palette, idat = None, b"", []
    position = len(_SIGNATURE)
    try:
        while position + 8 <= len(data):
            length, kind = struct.unpack(">I4s", data[position:position + 8])
            body = data[position + 8:position + 8 + length]
            if len(body) != length:
                return None                               # (cut short)
            if kind == b"IHDR":
                header = struct.unpack(">IIBBBBB", body)
            elif kind == b"PLTE":
                palette = body
            elif kind == b"IDAT":
                idat.append(body)
            elif kind == b"tRNS":
                return None                               # transparency: a soft mask
            elif kind == b"IEND":
                break
            position += 12 + length
    except struct.error:
        return None
    if header is None or not idat:
        return None
    width, height, bits, colour_type, compression, filtering, interlace = header
    if compression or filtering or interlace or not width or not height:
        return None
    if colour_type == _PALETTE:
        if bits not in (1, 2, 4, 8) or not palette or len(palette) % 3:
            return None
    elif colour_type not in (_GREY, _RGB) or bits != 8:
        return None
    found = PngData(width, height, bits, colour_type, palette, b"".join(idat))
    return found if _complete(found) else None


def _complete(png: PngData) -> bool:
    """Whether the IDAT data is one whole zlib stream of exactly the rows the header
    says (a truncated file, which WeasyPrint loads with its missing rows blank, is not)."""
    row = 1 + math.ceil(png.width * png.colours * png.bits / 8)   # (a filter byte a row)
    inflate = zlib.decompressobj()
    try:
        size = len(inflate.decompress(png.idat, row * png.height + 1))
    except zlib.error:
        return False
    return inflate.eof and not inflate.unused_data and size == row * png.height


def _indices_within(pillow_image, entries: int) -> bool:
    """Whether every pixel of a palette image names one of the palette's `entries`."""
    low, high = pillow_image.getextrema()
    return 0 <= low and high < entries


def _x_object(png: PngData, interpolate: bool, stream):
    import pydyf

    if png.colour_type == _PALETTE:
        space = pydyf.Array(["/Indexed", "/DeviceRGB", len(png.palette) // 3 - 1,
                             b"<" + png.palette.hex().encode() + b">"])
    else:
        space = "/DeviceRGB" if png.colour_type == _RGB else "/DeviceGray"
    # (the dictionary WeasyPrint writes for a PNG, but for the colour space and the bits)
    extra = pydyf.Dictionary({
        "Type": "/XObject",
        "Subtype": "/Image",
        "Width": png.width,
        "Height": png.height,
        "ColorSpace": space,
        "BitsPerComponent": png.bits,
        "Interpolate": "true" if interpolate else "false",
        "Filter": "/FlateDecode",
        "DecodeParms": pydyf.Dictionary({
            "Predictor": 15,
            "Columns": png.width,
            "Colors": png.colours,
            "BitsPerComponent": png.bits,
        }),
    })
    return pydyf.Stream([stream], extra)


def _install():
    from weasyprint import DEFAULT_OPTIONS
    from weasyprint.images import RasterImage, rotate_pillow_image

    original_init = RasterImage.__init__
    original_x_object = RasterImage.get_x_object

    def __init__(self, pillow_image, image_id, image_data, filename=None, cache=None,
                 orientation="none", options=DEFAULT_OPTIONS):
        png = None
        if image_data is not None and pillow_image.format == "PNG" and \
                not options["dpi"] and not options["optimize_images"] and \
                "transparency" not in pillow_image.info and \
                rotate_pillow_image(pillow_image, orientation) is pillow_image:
            png = png_data(image_data)
        if png is not None and png.colour_type == _PALETTE and pillow_image.mode == "P" \
                and _indices_within(pillow_image, len(png.palette) // 3):
            # (WeasyPrint's __init__ would convert it to RGB and encode that: set what it
            # sets for an image it keeps as it is, in the mode it is in)
            self.id = image_id
            self._cache = {} if cache is None else cache
            self._jpeg_quality = options["jpeg_quality"]
            self._dpi = options["dpi"]
            self.mode = "P"
            self.width, self.height = pillow_image.width, pillow_image.height
            self.ratio = (self.width / self.height) if self.height != 0 else math.inf
            self.optimize = options["optimize_images"]
            self.invert_colors = False
            self.format = "PNG"
            self.image_data = self.cache_image_data(image_data, filename)
        else:
            original_init(self, pillow_image, image_id, image_data, filename, cache,
                          orientation, options)
            if png is None or png.colour_type == _PALETTE or self.mode != \
                    ("RGB" if png.colour_type == _RGB else "L"):
                png = None
        self.printshop_png = png

    def get_x_object(self, interpolate, dpi_ratio):
        png = getattr(self, "printshop_png", None)
        if png is None or dpi_ratio != 1:
            return original_x_object(self, interpolate, dpi_ratio)
        return _x_object(png, interpolate, self.cache_image_data(png.idat, slot="stream"))

    return [(RasterImage, "__init__", __init__), (RasterImage, "get_x_object", get_x_object)]


PATCH = Patch(
    name="png-data",
    kind="speed",
    targets={"weasyprint.images.RasterImage.__init__": "f2f27bf6bb9cf72b",
             "weasyprint.images.RasterImage.get_x_object": "1f590111444639aa",
             "weasyprint.images.rotate_pillow_image": "5d81fb4d762fe502"},
    why="WeasyPrint decodes and encodes every PNG again to write it (and a palette PNG "
        "once more, as RGB, when it is loaded); a PNG's own data is a PDF image stream",
    gain="0.4 s of the guide's cold-build CPU (its cover, 2,626 x 3,376)",
    install=_install,
)
