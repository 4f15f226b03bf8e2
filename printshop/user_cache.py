"""The user's cache folder for what printshop makes once and reads on every later start:
the parsed English hyphenation patterns (render/weasy/hyphenation.py), compiled templates
(render/jinja.py), each font's WOFF and code points (render/fonts), the source of each
WeasyPrint function a patch replaces (render/weasy/registry.py `source_of`).
`$XDG_CACHE_HOME/printshop`, else `~/.cache/printshop`; deleting it is always safe.
Nothing a build writes into `build/` goes here, and a cache that cannot be read or written
is passed over (printshop then does the work, as the first time)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Callable


def folder(*parts: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base, "printshop", *parts)


def write_atomically(path: Path, data: bytes) -> None:
    """`data` into `path` (a temporary file renamed into place: another process reads
    the old file or the new one, never half of one); nothing if it cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # the writer's own name: two threads writing one file never write the same temporary
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        pass


def made_from(kind: str, source: bytes, make: Callable[[], bytes],
              valid: Callable[[bytes], bool] = bool) -> bytes:
    """What `make()` makes from `source` (a file's bytes), kept under `kind` by the source's
    digest: made once a machine, read back in every later build (a font's WOFF for the
    HTML editions, the code points a font covers). `kind` names the maker and its version:
    a maker that changes what it makes takes a new kind. A cached file that cannot be read,
    or that `valid` refuses, is made again."""
    import hashlib

    path = folder(kind, hashlib.sha256(source).hexdigest()[:32])
    try:
        data = path.read_bytes()
    except OSError:
        data = b""
    if data and valid(data):
        return data
    data = make()
    write_atomically(path, data)
    return data
