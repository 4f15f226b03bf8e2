"""Render results kept by the content of their job: one changed card re-renders one sheet.

A product that renders in chunks (a deck's sheets, the book's parts) hands the renderer a
list of jobs; with a `ChunkCache` attached (the builder attaches one per build), a job whose
content was rendered before is not rendered again. Its key hashes everything the job is:
the HTML, the stylesheets (file paths and generated text), the roots, base URL and flags,
the font policy, each of its extensions' own part (`JobExtension.key`, render/extension.py),
and printshop's code, the installed distributions and the text libraries
(`cache.tool_fingerprint`). What the extensions found (a card's overflows, a book part's
anchors, a form's slots) is stored with the PDF, each serialised by its own extension.
The files the render read (the stylesheets' files, @imports,
fonts, images) are stored with their sha256 and checked on lookup, so an edited stylesheet
or image is a miss even though the job's text did not change.

Entries live in `OUT/.printshop-cache/chunks/KEY`, one file each (a JSON line, then the PDF),
kept in memory until the build's files are written and then written atomically (a failed
build writes nothing). An entry whose PDF does
not match its checksum (a torn or edited file) is a miss. Deleting the folder is always
safe; the least recently used entries go when it grows past `LIMIT_BYTES`. A lazy job list
(a pregen pack, whose chunks' HTML is made only when a worker is ready) is looked up job by
job as the workers take them (`renderer._Stamped`): a cached chunk passes through a worker as its
stored result, so the pack's HTML is still never all in memory at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Callable

from printshop import deps

FORMAT = 3   # 3: extensions keep their own part of the key and their findings
LIMIT_BYTES = 256 * 1024 * 1024


def job_key(job) -> str:
    """The job's core fields (the HTML by its digest; not `epoch`, which says when) and
    each extension's `key()` (render/extension.py), with the tools that render it."""
    from printshop.cache import tool_fingerprint

    fields = {"roots": job.roots, "base_url": job.base_url, "source": job.source,
              "uncompressed": job.uncompressed, "layout_only": job.layout_only,
              "cmyk_icc": job.cmyk_icc, "fonts": repr(job.fonts),
              "stylesheets": [dataclasses.asdict(s) for s in job.stylesheets],
              "extensions": [[e.name, e.key()] for e in job.extensions],
              # a CMYK job's images go through this ICC profile: its bytes, not only its name
              "cmyk_icc_sha256": deps.file_digest(job.cmyk_icc) if job.cmyk_icc else None}
    text = json.dumps({"format": FORMAT, "job": fields, "tools": tool_fingerprint(),
                       "html": hashlib.sha256(job.html.encode("utf-8")).hexdigest()},
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ChunkCache:
    """`get(key)` → a RenderResult or None; `put(key, result)`. `reuse=False` (--force)
    stores fresh results but never reads old ones."""

    def __init__(self, folder: Path, digest: Callable[[str], str] | None = None,
                 reuse: bool = True):
        self.folder = Path(folder)
        self.digest = digest or deps.file_digest
        self.reuse = reuse
        self.reused = 0     # jobs taken from the cache, this build
        self.rendered = 0   # jobs rendered, this build
        self._pending: dict[str, bytes] = {}

    def _path(self, key: str) -> Path:
        return self.folder / key

    def get(self, key: str):
        from printshop.errors import Problem
        from printshop.render.extension import registered
        from printshop.render.job import RenderResult

        if not self.reuse:
            return None
        path = self._path(key)
        try:
            data = self._pending.get(key) or path.read_bytes()
            head, _, pdf = data.partition(b"\n")
            meta = json.loads(head)
            if meta.get("format") != FORMAT or \
                    hashlib.sha256(pdf).hexdigest() != meta["pdf_sha256"]:
                return None
            if any(self.digest(p) != d for p, d in meta["read"].items()):
                return None
            found = {}
            for name, value in meta["found"].items():
                kind = registered(name)
                if kind is None:     # (never: the job that has this key carries it)
                    return None
                found[name] = kind.found_from_json(value)
            if key not in self._pending:
                os.utime(path)   # recently used: kept when the folder is pruned
            return RenderResult(
                pdf=pdf, pages=meta["pages"],
                warnings=[Problem(*w) for w in meta["warnings"]],
                read=meta["read"], fonts=meta["fonts"], found=found)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, result) -> None:
        """Kept until `commit`."""
        from printshop.render.extension import registered

        if result.refused or result.lost or not result.strings_carried:
            return
        found = {}
        for name, value in result.found.items():
            kind = registered(name)
            if kind is None:
                return
            found[name] = kind.found_as_json(value)
        meta = {"format": FORMAT, "pdf_sha256": hashlib.sha256(result.pdf).hexdigest(),
                "pages": result.pages,
                "warnings": [[str(w.path), w.message, w.line, w.column] for w in result.warnings],
                "read": result.read, "fonts": result.fonts, "found": found}
        self._pending[key] = json.dumps(meta).encode("utf-8") + b"\n" + result.pdf

    def commit(self) -> None:
        """Write what this build rendered (once its files are in place)."""
        from printshop.output import write_atomic

        pending, self._pending = self._pending, {}
        try:
            if pending:
                self.folder.mkdir(parents=True, exist_ok=True)
            for key, data in pending.items():
                write_atomic(self._path(key), data)
        except OSError:
            pass   # the cache is a speed-up: a full disk or read-only folder is no error

    def prune(self, limit: int = LIMIT_BYTES) -> None:
        """The least recently used entries go until the folder is under `limit` bytes."""
        try:
            # (closed however the listing ends: another build may remove an entry from
            # under it, and the stat of that entry fails)
            with os.scandir(self.folder) as listing:
                entries = [(e.stat().st_mtime_ns, e.stat().st_size, e.path)
                           for e in listing if e.is_file()]
        except OSError:
            return
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= limit:
                break
            try:
                os.unlink(path)
            except OSError:
                continue
            total -= size
