"""`printshop serve`: build, serve the output folder with live preview pages, rebuild on save.

`service.BuildService` watches and builds (through the build cache, on a warm render pool);
`http.PreviewServer` serves the built files, the preview pages and the event stream.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Callable

from printshop.errors import PrintshopError


class Preview:
    """A running preview: `start()`, then `url`; `stop()` ends the server, the watcher and
    the render workers."""

    def __init__(self, source: Path, out: Path, names: list[str] | None = None,
                 host: str = "127.0.0.1", port: int = 8000, jobs: int | None = None,
                 log: Callable[[str], None] = print, colour: bool = False):
        from printshop.serve.http import PreviewServer
        from printshop.serve.service import BuildService

        self.service = BuildService(source, out, names, jobs=jobs, log=log, colour=colour)
        try:
            self.server = PreviewServer((host, port), self.service)
        except OSError as exc:
            raise PrintshopError.at(f"--port {port}", f"cannot listen on {host}:{port}: "
                                    f"{exc.strerror or exc}") from None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        if isinstance(host, bytes):
            host = host.decode()
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def start(self) -> "Preview":
        self.service.out.mkdir(parents=True, exist_ok=True)
        self.service.start()
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True,
                                        name="preview-server")
        self._thread.start()
        return self

    def stop(self) -> None:
        self.service.stop()
        self.server.shutdown()
        self.server.server_close()
        if self._thread:
            self._thread.join(10)


def run(source: Path, out: Path, names: list[str] | None, host: str, port: int,
        jobs: int | None, log: Callable[[str], None], colour: bool = False) -> None:
    """Serve until Ctrl-C (or SIGTERM)."""
    from printshop.project import Project

    Project.load(source)  # a folder that is no project: say so now, not in the browser
    preview = Preview(source, out, names, host, port, jobs, log, colour).start()
    log(f"printshop: serving {out} at {preview.url} (Ctrl-C to stop)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        log(f"printshop: listening on {host}: other machines can read the built files")
    # A flag, not an Event: a signal handler runs inside whatever the main thread is doing,
    # and a second SIGTERM arriving inside the first handler's Event.set waited for the
    # lock that handler held, for ever (a process manager and `timeout` both sending one)
    stopped: list[bool] = []

    def on_sigterm(*_) -> None:
        stopped.append(True)

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        while not stopped:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        log("printshop: stopping")
        try:
            preview.stop()     # (bounded; a SIGTERM meanwhile only sets the flag again)
        finally:
            signal.signal(signal.SIGTERM, previous)
