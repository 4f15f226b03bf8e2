"""The only way WeasyPrint reads anything: files inside the project, and `data:` URLs.

No network scheme ever reaches urllib, so no socket is opened. Every refusal is recorded so
the build can fail with the URL and the reason instead of silently leaving a hole.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from printshop.safepath import PROJECT_SCHEME, UnsafePath, resolve_inside
from printshop.source.icons import inked, split_ink
from printshop.source.images import ImageRefused
from printshop.source.images import check_image_size as check_size


class Refused(Exception):
    pass


class _Converted(URLFetcherResponse):
    """An image converted for the press. WeasyPrint 70 embeds a raster image by re-reading
    the file at a response's `path` (any file: URL) rather than the bytes it was given, which
    put the original PNG into a DCTDecode stream marked DeviceCMYK: no path, so the
    converted bytes are what the PDF holds."""

    @property
    def path(self):
        return None


def check_image_size(data: bytes, name: str) -> tuple[int, int]:
    try:
        return check_size(data, name)
    except ImageRefused as exc:
        raise Refused(str(exc)) from None


class ProjectFetcher(URLFetcher):
    def __init__(self, roots: list[Path], cmyk_icc: str | None = None):
        super().__init__(allowed_protocols=["file", "data"], allow_redirects=False)
        self.roots = [Path(r).resolve() for r in roots]
        self.refused: list[tuple[str, str]] = []
        # a CMYK print profile's output profile: raster images are converted to it
        self.cmyk_icc = cmyk_icc

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
        if scheme == "project":     # project:art/cover.png (safepath.project_url)
            # (an SVG icon's ?ink=COLOUR: source/icons.py; "?" in a file name is quoted)
            name, ink = split_ink(url[len(PROJECT_SCHEME):])
            try:
                path = resolve_inside(unquote(name), self.roots[:1], base=self.roots[0])
            except UnsafePath as exc:
                raise Refused(str(exc)) from None
            return self._response(path, url, ink)
        if scheme != "file":
            raise Refused("only files inside the project can be used (no network access)")
        parts = urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            raise Refused("file URLs naming another host are refused")
        try:
            path = resolve_inside(unquote(parts.path), self.roots, allow_absolute=True)
        except UnsafePath as exc:
            raise Refused(str(exc)) from None
        ink = split_ink("?" + parts.query)[1] if parts.query else None
        return self._response(path, path.as_uri() + (f"?{parts.query}" if ink else ""), ink)

    def _response(self, path: Path, url: str, ink: str | None = None):
        data = path.read_bytes()
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if ink and mime == "image/svg+xml":
            data = inked(data, ink)
        if mime.startswith("image/") and mime != "image/svg+xml":
            check_image_size(data, path.name)
            if self.cmyk_icc:
                from printshop.render.images import press_image

                data, mime = press_image(data, self.cmyk_icc)
                return _Converted(url, data, {"Content-Type": mime})
        return URLFetcherResponse(url, data, {"Content-Type": mime})
