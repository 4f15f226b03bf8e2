"""Images for a CMYK press: converted once, with the print profile's ICC output profile,
never left for the printer to convert (WeasyPrint embeds images as they are)."""

from __future__ import annotations

import io
from functools import lru_cache

JPEG_QUALITY = 95


@lru_cache(maxsize=64)
def _transform(icc_path: str, source_icc: bytes | None, mode: str):
    from PIL import ImageCms

    source = (ImageCms.ImageCmsProfile(io.BytesIO(source_icc)) if source_icc
              else ImageCms.createProfile("sRGB"))
    return ImageCms.buildTransform(source, ImageCms.ImageCmsProfile(icc_path), mode, "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def press_image(data: bytes, icc_path: str) -> tuple[bytes, str]:
    """(bytes, mime) of the image for the press: grayscale stays gray (it prints on K);
    colour becomes a CMYK JPEG through `icc_path`; transparency is flattened onto white
    (PDF/X-1a and X-3 forbid soft masks)."""
    from PIL import Image, ImageCms

    image = Image.open(io.BytesIO(data))
    image.load()
    if image.mode in ("1", "L") and "transparency" not in image.info:
        out = io.BytesIO()
        image.convert("L").save(out, format="PNG")
        return out.getvalue(), "image/png"
    source_icc = image.info.get("icc_profile")
    rgb_like: Image.Image | None
    if image.mode == "CMYK":
        rgb_like = image
    else:
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        rgb_like = flat
        try:
            transform = _transform(icc_path, source_icc, "RGB")
        except Exception:  # an unusable embedded profile: the image is taken as sRGB
            transform = _transform(icc_path, None, "RGB")
        rgb_like = ImageCms.applyTransform(rgb_like, transform)
    assert rgb_like is not None    # (applyTransform makes a new image)
    out = io.BytesIO()
    rgb_like.save(out, format="JPEG", quality=JPEG_QUALITY, subsampling=0,
                  dpi=image.info.get("dpi", (72, 72)))
    return out.getvalue(), "image/jpeg"
