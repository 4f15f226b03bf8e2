"""The preview server: the output folder over HTTP, preview pages, and a stream of events.

Routes:
  /                          the products, each with its files and a preview link
  /preview/NAME              a product's preview (its HTML edition, or its PDF pages as
                             images), updated in place when a build changes it
  /_events                   Server-Sent Events: the build state (files' versions, problems)
  /_pages/FILE.pdf/index.json, /_pages/FILE.pdf/N.png    a built PDF's pages as images
  /_pages/_preview/NAME.pdf/…  the same for a book's chapter rendered alone (while the
                             whole book renders after a save)
  /_assets/…                 the preview's script and style
  /make                      "Roll a pack" and "Build a kit" (serve/forms.py); POST
                             /make/pack and /make/kit queue one (302 back to /make)
  /FILE                      a built file, by its build name

Nothing else is served: not the project, not the build cache, no folder listings. Names are
checked (one plain file name, or NAME/FILE for a folder of PNG exports) and resolved inside
the output folder, so `/../../etc/passwd` is a 404.

Only requests addressed to this server are answered (`Host` is 127.0.0.1, localhost, [::1]
or what --host names): a web page open in the same browser cannot read an unpublished book
through DNS rebinding (its own name pointed at 127.0.0.1), the hole dev servers such as
Vite and webpack-dev-server closed the same way. A request that another site's page sent
(an `Origin` that is not this server's) is refused too, and no CORS header ever lets
another origin read a response.
"""

from __future__ import annotations

import ipaddress
import json
import mimetypes
import re
import secrets
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from printshop.cache import CACHE_DIR
from printshop.serve.pages import index_page, make_page, offers, preview_page

ASSETS = Path(__file__).resolve().parent / "assets"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}(/[A-Za-z0-9][A-Za-z0-9._-]{0,120})?$")
PAGE_SCALE = 1.25  # 90 dpi: a Letter page is 765 px wide
THUMB_SCALE = 0.3  # 22 dpi: a Letter page is 184 px wide


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, service):
        super().__init__(address, _Handler)
        self.service = service
        self.pages = PageImages()
        self.hosts = own_host_names(address[0])
        # in every form this server sends: a POST without it was not sent from its page
        self.form_token = secrets.token_urlsafe(24)

    def own_host(self, host_header: str | None) -> bool:
        """Is a request's `Host` one of this server's own names?"""
        name = host_name(host_header)
        if name is None:
            return False
        if name in self.hosts:
            return True
        # bound to every address (a registration desk on a LAN): any address written as
        # numbers is this machine's (a name could be anyone's, pointed here by DNS)
        return WILDCARD in self.hosts and _is_ip(name)

    def own_origin(self, origin: str | None) -> bool:
        """Is an `Origin` this server's own: http, one of its names, its port?"""
        if not origin:
            return False
        parts = urlsplit(origin)
        try:
            port = parts.port or 80
        except ValueError:
            return False
        return (parts.scheme == "http" and port == self.server_address[1]
                and self.own_host(parts.netloc))


LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = "*"


def own_host_names(bound: str) -> set[str]:
    """The names a browser uses for this server: the loopback names, the address given to
    --host, and for a wildcard address this machine's own names."""
    names = set(LOOPBACK)
    bound = bound.strip("[]").lower()
    if bound in ("", "0.0.0.0", "::"):
        names.add(WILDCARD)
        for name in (socket.gethostname(), socket.getfqdn()):
            if name:
                names.update({name.lower(), f"{name.lower()}.local"})
    else:
        names.add(bound)
    return names


def host_name(header: str | None) -> str | None:
    """`Host: example.org:8000` → example.org; `[::1]:8000` → ::1; None when malformed."""
    if not header or len(header) > 300:
        return None
    header = header.strip().lower()
    match = re.fullmatch(r"\[([0-9a-f:.]+)\](?::\d{1,5})?|([^:\[\]/@\s]+)(?::\d{1,5})?", header)
    if not match:
        return None
    return (match[1] or match[2]).rstrip(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # the terminal is for builds and problems
        pass

    def do_HEAD(self):
        self.do_GET(head=True)

    def _refused(self, head: bool = False) -> bool:
        """A request not addressed to this server, or sent by another site's page: 403."""
        if not self.server.own_host(self.headers.get("Host")):
            why = "this server answers only to its own address (Host), not "
            why += repr(self.headers.get("Host") or "no Host")
        elif "Origin" in self.headers and not self.server.own_origin(self.headers["Origin"]):
            why = f"requests from other sites ({self.headers['Origin']!r}) are refused"
        else:
            return False
        self._send(403, f"forbidden: {why}\n", "text/plain; charset=utf-8", head)
        return True

    def do_GET(self, head: bool = False):
        if self._refused(head):
            return None
        path = unquote(urlsplit(self.path).path)
        try:
            if path == "/":
                return self._send(200, index_page(self.server.service.snapshot()),
                                  "text/html; charset=utf-8", head)
            if path.startswith("/preview/"):
                name = path[len("/preview/"):]
                state = self.server.service.snapshot()
                if name not in state["products"]:
                    return self._not_found(head)
                return self._send(200, preview_page(name, state),
                                  "text/html; charset=utf-8", head)
            if path == "/_events":
                return self._events()
            if path == "/make":
                return self._send(200, make_page(self.server), "text/html; charset=utf-8",
                                  head)
            if path.startswith("/_assets/"):
                return self._asset(path[len("/_assets/"):], head)
            if path.startswith("/_pages/"):
                return self._page(path[len("/_pages/"):], head)
            return self._file(path.lstrip("/"), head)
        except (BrokenPipeError, ConnectionResetError):
            return None

    def do_POST(self):
        """The form page's two forms, and nothing else: from this server's own page (an
        Origin of its own, its token), with only their fields, counts within bounds."""
        if self._refused():
            return None
        from printshop.serve import forms

        path = urlsplit(self.path).path
        if path not in ("/make/pack", "/make/kit"):
            return self._not_found()
        if not self.server.own_origin(self.headers.get("Origin")):
            return self._send(403, "forbidden: a form is accepted from this server's own "
                              "page only (no Origin)\n", "text/plain; charset=utf-8")
        try:
            length = int(self.headers.get("Content-Length") or -1)
        except ValueError:
            length = -1
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/x-www-form-urlencoded" or not 0 <= length <= forms.MAX_BODY:
            return self._send(400, "bad request: not this page's form\n",
                              "text/plain; charset=utf-8")
        body = self.rfile.read(length)
        try:
            what = "pack" if path == "/make/pack" else "kit"
            values = forms.parse(body, forms.PACK_FIELDS if what == "pack"
                                 else forms.KIT_FIELDS)
            token = (values.get("token") or [""])[0]
            if not secrets.compare_digest(token.encode(), self.server.form_token.encode()):
                return self._send(403, "forbidden: the form's token is missing or out of "
                                  "date: reload the page\n", "text/plain; charset=utf-8")
            if what == "pack":
                request = forms.pack_request(values)
            else:
                request = forms.kit_request(values, offers(self.server)[1])
        except forms.FormError as exc:
            return self._send(400, f"bad request: {exc}\n", "text/plain; charset=utf-8")
        number = self.server.service.submit(what, request)
        if number is None:
            return self._send(409, "busy: the pack or kit asked for before is not made yet\n",
                              "text/plain; charset=utf-8")
        self.send_response(303)
        self.send_header("Location", f"/make#job-{number}")
        self.send_header("Content-Length", "0")
        self.end_headers()
        return None

    # --- responses ---------------------------------------------------------------------------
    def _send(self, status: int, body: bytes | str, content_type: str, head: bool = False):
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        # no other site may embed what is served here, in a frame or as an image
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("X-Frame-Options", "SAMEORIGIN")
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def _not_found(self, head: bool = False):
        self._send(404, "not found\n", "text/plain; charset=utf-8", head)

    def _output_path(self, name: str) -> Path | None:
        """A built file by its name, never anything else."""
        if not _NAME.match(name) or ".." in name or name.startswith(CACHE_DIR):
            return None
        out = self.server.service.out
        candidate = (out / name).resolve()
        if out not in candidate.parents or not candidate.is_file() or \
                any(part.startswith(".") for part in candidate.relative_to(out).parts):
            return None
        return candidate

    def _file(self, name: str, head: bool):
        path = self._output_path(name)
        if path is None:
            return self._not_found(head)
        data = path.read_bytes()  # whole: a file replaced meanwhile is the old or the new
        self._send(200, data, mimetypes.guess_type(path.name)[0] or "application/octet-stream",
                   head)

    def _asset(self, name: str, head: bool):
        if name not in ("preview.js", "preview.css"):
            return self._not_found(head)
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        self._send(200, (ASSETS / name).read_bytes(), f"{kind}; charset=utf-8", head)

    def _preview_path(self, name: str) -> Path | None:
        """A book's chapter preview, while there is one."""
        service = self.server.service
        product = name.removesuffix(".pdf")
        if not name.endswith(".pdf") or product not in service.snapshot()["previews"]:
            return None
        path = service.preview_file(product)
        return path if path.is_file() else None

    def _page(self, rest: str, head: bool):
        file_name, _, page = rest.rpartition("/")
        if file_name.startswith("_preview/"):
            path = self._preview_path(file_name[len("_preview/"):])
        else:
            path = self._output_path(file_name) if file_name.endswith(".pdf") else None
        if path is None:
            return self._not_found(head)
        if page == "index.json":
            sizes = self.server.pages.sizes(path)
            return self._send(200, json.dumps({"pages": sizes}), "application/json", head)
        if page == "thumb.png":   # the index's picture of a product: its first page, small
            image = self.server.pages.image(path, 1, THUMB_SCALE)
            return self._not_found(head) if image is None else \
                self._send(200, image, "image/png", head)
        match = re.fullmatch(r"(\d{1,5})\.png", page)
        if not match:
            return self._not_found(head)
        image = self.server.pages.image(path, int(match[1]))
        if image is None:
            return self._not_found(head)
        self._send(200, image, "image/png", head)

    def _events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.end_headers()
        self.close_connection = True
        service = self.server.service
        state = service.snapshot()
        while True:
            self.wfile.write(f"event: state\ndata: {json.dumps(state)}\n\n".encode())
            self.wfile.flush()
            state = service.wait_for_change(state["build"], timeout=15)
            if service._stop.is_set():
                return


class PageImages:
    """A PDF's pages as PNGs (pypdfium2), made when asked and kept for the file's version."""

    def __init__(self):
        self.lock = threading.Lock()  # pdfium is not thread-safe
        self.cache: dict[tuple, bytes] = {}
        self.docs: dict[str, tuple[tuple, object]] = {}

    def _document(self, path: Path):
        import pypdfium2

        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        known = self.docs.get(str(path))
        if known is None or known[0] != version:
            document = pypdfium2.PdfDocument(path.read_bytes())
            self.docs[str(path)] = (version, document)
            self.cache = {k: v for k, v in self.cache.items() if k[0] != str(path)}
        return self.docs[str(path)]

    def sizes(self, path: Path) -> list[list[int]]:
        with self.lock:
            _, document = self._document(path)
            return [[round(w * PAGE_SCALE), round(h * PAGE_SCALE)]
                    for w, h in (document.get_page_size(i) for i in range(len(document)))]

    def image(self, path: Path, number: int, scale: float = PAGE_SCALE) -> bytes | None:
        import io

        with self.lock:
            version, document = self._document(path)
            key = (str(path), version, number, scale)
            if key not in self.cache:
                if not 1 <= number <= len(document):
                    return None
                page = document[number - 1]
                bitmap = page.render(scale=scale)
                buffer = io.BytesIO()
                bitmap.to_pil().save(buffer, format="PNG", optimize=False, compress_level=1)
                self.cache[key] = buffer.getvalue()
            return self.cache[key]
