"""Which files a build read, recorded where files are read (not guessed afterwards).

The build cache (`printshop.cache`) needs to know exactly what each product depends on. The
places that read files report here: strict YAML and Markdown reading (`read_text`), the one
path check every named file passes (`safepath.resolve_inside`: images, CSS `url()` and
`@import`, fonts, templates, whatever the URL fetcher loads in a render worker), the Jinja
loader (includes, imports, extends), and the project's table dictionary (only the tables a
product looks at). A new kind of product is covered without special code as long as it reads
through those.

Each file is hashed when it is first recorded, from the bytes actually read where the caller
has them, so a file saved again while the build runs makes the entry stale rather than
wrong. Recording is per thread of control (a context variable): an HTTP thread of `serve`
that checks a path never lands in a build's record. Stdlib only: the no-op build imports this.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import threading
from pathlib import Path

ABSENT = "absent"
_active: contextvars.ContextVar[tuple["Recorder", ...]] = contextvars.ContextVar(
    "printshop_recorders", default=())


def file_digest(path: str | os.PathLike) -> str:
    """sha256 of a file's bytes, or ABSENT if there is no regular file there."""
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError):
        return ABSENT


def listing_digest(folder: str | os.PathLike, suffix: str, recursive: bool) -> str:
    """What files with `suffix` a folder holds (names only). Hidden folders are skipped."""
    base = Path(folder)
    if not base.is_dir():
        return ABSENT
    names = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel = os.path.relpath(dirpath, base)
        names += [os.path.normpath(os.path.join(rel, f)) for f in filenames
                  if f.endswith(suffix) and not f.startswith(".")]
        if not recursive:
            break
    return hashlib.sha256("\n".join(sorted(names)).encode()).hexdigest()


def listing_key(folder: str | os.PathLike, suffix: str, recursive: bool) -> str:
    return f"{os.path.abspath(folder)}|{suffix}|{'r' if recursive else '1'}"


def parse_listing_key(key: str) -> tuple[str, str, bool]:
    folder, suffix, depth = key.rsplit("|", 2)
    return folder, suffix, depth == "r"


class Recorder:
    """The files (path → sha256 or ABSENT) and folder listings one unit of work read."""

    def __init__(self, ignore: tuple[str | os.PathLike, ...] = ()):
        self.files: dict[str, str] = {}
        self.listings: dict[str, str] = {}
        self.entries: dict[str, str] = {}  # other products' manifest entries (includes)
        self.ignore = {os.path.abspath(p) for p in ignore}

    def entry(self, name: str, entry) -> None:
        self.entries.setdefault(name, entry_digest(entry))

    def file(self, path, data: bytes | None = None) -> None:
        key = os.path.abspath(path)
        if key in self.files or key in self.ignore:
            return  # the first read is what the product used
        self.files[key] = hashlib.sha256(data).hexdigest() if data is not None \
            else file_digest(key)

    def missing(self, path) -> None:
        key = os.path.abspath(path)
        if key not in self.files and key not in self.ignore and not os.path.exists(key):
            self.files[key] = ABSENT

    def listing(self, folder, suffix: str, recursive: bool) -> None:
        key = listing_key(folder, suffix, recursive)
        if key not in self.listings:
            self.listings[key] = listing_digest(folder, suffix, recursive)

    def merge(self, files: dict[str, str], listings: dict[str, str] | None = None,
              entries: dict[str, str] | None = None) -> None:
        for path, digest in files.items():
            if path not in self.files and path not in self.ignore:
                self.files[path] = digest
        for key, digest in (listings or {}).items():
            self.listings.setdefault(key, digest)
        for name, digest in (entries or {}).items():
            self.entries.setdefault(name, digest)


def entry_digest(entry) -> str:
    """A manifest entry as written (or None: no such product)."""
    import json

    text = json.dumps(entry, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@contextlib.contextmanager
def recording(recorder: Recorder):
    token = _active.set(_active.get() + (recorder,))
    try:
        yield recorder
    finally:
        _active.reset(token)


@contextlib.contextmanager
def paused():
    """Reads that are not a dependency by themselves (loading every table at once: each
    product then records only the tables it looks at)."""
    token = _active.set(())
    try:
        yield
    finally:
        _active.reset(token)


def active() -> bool:
    return bool(_active.get())


def current() -> Recorder | None:
    """The innermost recorder (the product being built), if any."""
    stack = _active.get()
    return stack[-1] if stack else None


def record_file(path, data: bytes | None = None) -> None:
    for recorder in _active.get():
        recorder.file(path, data)


def record_missing(path) -> None:
    """A file whose absence matters (a project template that would shadow a built-in one)."""
    for recorder in _active.get():
        recorder.missing(path)


def record_listing(folder, suffix: str, recursive: bool = False) -> None:
    """The set of `*suffix` files in a folder matters (chapters of a book, every table)."""
    for recorder in _active.get():
        recorder.listing(folder, suffix, recursive)


def record_entry(name: str, entry) -> None:
    """A product's manifest entry was read (a convention kit includes another product)."""
    for recorder in _active.get():
        recorder.entry(name, entry)


def merge(files: dict[str, str], listings: dict[str, str] | None = None,
          entries: dict[str, str] | None = None) -> None:
    """Reads reported by a render worker process, or made for another product earlier."""
    for recorder in _active.get():
        recorder.merge(files, listings, entries)


class SharedRenders(dict):
    """Things made once per build and used by several products (an included product's
    pages, the blank sheet). Each keeps what its making read, and every product that uses
    it records that, so the cache stays exact whichever product happened to make it."""

    def __init__(self):
        super().__init__()
        self.reads: dict = {}
        # products build on threads of their own: a second asking for a thing being made
        # waits for it rather than making it again
        self._lock = threading.Lock()
        self._making: dict = {}    # key → the lock held while it is made

    def make(self, key, function):
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            if key in self.reads:
                files, listings, entries = self.reads[key]
                merge(files, listings, entries)
                return dict.__getitem__(self, key)
            recorder = Recorder()
            with recording(recorder):  # also into the product's own recorder, outside
                value = function()
            self[key] = value
            self.reads[key] = (recorder.files, recorder.listings, recorder.entries)
            return value


class RecordingTables(dict):
    """The project's tables, loaded all at once; a product depends on those it looks at.

    Looking a table up records its file (or that `tables/ID.yaml` does not exist); going
    through all of them (listing, sorting, "did you mean") records every file and the list.
    """

    def __init__(self, tables: dict, folder: Path, broken=()):
        super().__init__(tables)
        self.folder = Path(folder)
        # tables whose files have problems (reported already): they are there, but looking
        # one up stops the product that does, without a second problem about it
        self.broken = frozenset(broken)

    def _stop_if_broken(self, key) -> None:
        if key in self.broken:
            from printshop.errors import PrintshopError

            raise PrintshopError([])

    def _one(self, key) -> None:
        if not active():
            return
        table = dict.get(self, key)
        if table is not None and getattr(table, "path", None) is not None:
            record_file(table.path)
            for source in getattr(table, "sources", ()):   # a spreadsheet holding its rows
                record_file(source)
        elif isinstance(key, str):
            record_missing(self.folder / f"{key}.yaml")

    def _all(self) -> None:
        if not active():
            return
        record_listing(self.folder, ".yaml")
        for table in dict.values(self):
            if getattr(table, "path", None) is not None:
                record_file(table.path)
            for source in getattr(table, "sources", ()):
                record_file(source)

    def __getitem__(self, key):
        self._one(key)
        self._stop_if_broken(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self._one(key)
        self._stop_if_broken(key)
        return dict.get(self, key, default)

    def __contains__(self, key):
        self._one(key)
        return dict.__contains__(self, key) or key in self.broken

    def __iter__(self):
        self._all()
        return dict.__iter__(self)

    def __len__(self):
        self._all()
        return dict.__len__(self)

    def keys(self):
        self._all()
        return dict.keys(self)

    def values(self):
        self._all()
        return dict.values(self)

    def items(self):
        self._all()
        return dict.items(self)
