"""Image limits, checked from the file header before anything decodes the pixels.

A 100-byte PNG can claim 20000×20000 pixels: 1.6 GB once decoded. Pillow reads only the
header on open, so the size is known long before any decoding.
"""

from __future__ import annotations

import io
from pathlib import Path

MAX_IMAGE_PIXELS = 40_000_000  # about 6300 × 6300: far more than any printed page needs


class ImageRefused(Exception):
    pass


def check_image_size(data: bytes | Path, name: str) -> tuple[int, int]:
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = None  # we check ourselves, before any decoding
    source = io.BytesIO(data) if isinstance(data, (bytes, bytearray)) else data
    if isinstance(source, Path) and source.suffix.lower() == ".svg":
        return (0, 0)
    try:
        with Image.open(source) as image:
            width, height = image.size
    except Exception as exc:
        raise ImageRefused(f"{name} is not a readable image ({exc.__class__.__name__})") \
            from None
    if width * height > MAX_IMAGE_PIXELS:
        raise ImageRefused(f"{name} is {width}×{height} pixels, more than the "
                           f"{MAX_IMAGE_PIXELS // 1_000_000} megapixel limit")
    return width, height
