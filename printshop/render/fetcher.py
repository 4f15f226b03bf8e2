"""The only way WeasyPrint reads anything: files inside the project, and `data:` URLs.

No network scheme ever reaches urllib, so no socket is opened. Every refusal is recorded so
the build can fail with the URL and the reason instead of silently leaving a hole.
"""

from __future__ import annotations

import io
import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from printshop.safepath import UnsafePath, resolve_inside

MAX_IMAGE_PIXELS = 40_000_000  # about 6300 × 6300: far more than any printed page needs


class Refused(Exception):
    pass


class ProjectFetcher(URLFetcher):
    def __init__(self, roots: list[Path]):
        super().__init__(allowed_protocols=["file", "data"], allow_redirects=False)
        self.roots = [Path(r).resolve() for r in roots]
        self.refused: list[tuple[str, str]] = []

    def fetch(self, url, headers=None):
        try:
            return self._fetch(url, headers)
        except Refused as exc:
            self.refused.append((url[:200], str(exc)))
            raise

    def _fetch(self, url, headers):
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file":
            raise Refused("only files inside the project can be used (no network access)")
        parts = urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            raise Refused("file URLs naming another host are refused")
        try:
            path = resolve_inside(unquote(parts.path), self.roots, allow_absolute=True)
        except UnsafePath as exc:
            raise Refused(str(exc)) from None
        data = path.read_bytes()
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if mime.startswith("image/") and mime != "image/svg+xml":
            check_image_size(data, path.name)
        return URLFetcherResponse(path.as_uri(), data, {"Content-Type": mime})


def check_image_size(data: bytes, name: str) -> tuple[int, int]:
    """Read only the image header: a tiny file can decode to gigabytes of pixels."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = None  # we check ourselves, before any decoding
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
    except Exception as exc:
        raise Refused(f"{name} is not a readable image ({exc.__class__.__name__})") from None
    if width * height > MAX_IMAGE_PIXELS:
        raise Refused(f"{name} is {width}×{height} pixels, more than the "
                      f"{MAX_IMAGE_PIXELS // 1_000_000} megapixel limit")
    return width, height
