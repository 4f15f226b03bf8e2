"""The one path check that holds: decode, resolve, then test inside-the-project and regular file.

Used for every file a source names (Markdown images, CSS, fonts, templates) and by the
renderer's URL fetcher, so `../`, `%2e%2e/`, absolute paths and symlinks that leave the
project are refused the same way everywhere.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from urllib.parse import quote, unquote

from printshop.deps import record_file

MAX_FILE_BYTES = 64_000_000


class UnsafePath(Exception):
    """A path that must not be read; the message says why, for people."""


def is_inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def resolve_inside(target: str | Path, roots: list[Path], base: Path | None = None,
                   allow_absolute: bool = False) -> Path:
    """The real path of `target` if it is a regular file inside one of `roots`."""
    text = unquote(str(target)) if isinstance(target, str) else str(target)
    if "\x00" in text:
        raise UnsafePath("the path contains a NUL character")
    candidate = Path(text)
    if candidate.is_absolute() and not allow_absolute:
        raise UnsafePath("absolute paths are not allowed; use a path relative to the file")
    if not candidate.is_absolute():
        candidate = (base or roots[0]) / candidate
    try:
        resolved = candidate.resolve(strict=True)
    except FileNotFoundError:
        raise UnsafePath("file not found") from None
    except (OSError, RuntimeError) as exc:  # symlink loops, permission
        raise UnsafePath(f"cannot be read ({exc.__class__.__name__})") from None
    if not is_inside(resolved, [r.resolve() for r in roots]):
        raise UnsafePath("is outside the project (files must be inside the project folder)")
    mode = os.stat(resolved).st_mode
    if stat.S_ISDIR(mode):
        raise UnsafePath("is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise UnsafePath("is not a regular file (a pipe or device?)")
    if os.stat(resolved).st_size > MAX_FILE_BYTES:
        raise UnsafePath(f"is larger than {MAX_FILE_BYTES // 1_000_000} MB")
    record_file(resolved)  # a file a source names is a dependency of what is being built
    return resolved


PROJECT_SCHEME = "project:"


def project_url(path: Path, root: Path) -> str:
    """A file of the project as the HTML names it: `project:art/cover.png`, relative to the
    project folder, so a build in another folder writes the same PDF (WeasyPrint names an
    image by its URL). The URL fetcher reads it inside the project, as any file."""
    try:
        relative = Path(path).resolve().relative_to(Path(root).resolve())
    except ValueError:
        return Path(path).resolve().as_uri()
    return PROJECT_SCHEME + quote(relative.as_posix())
