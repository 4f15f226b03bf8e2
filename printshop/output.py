"""Writing into the output folder: all or nothing.

Products render into memory; only when every requested product has succeeded are the files
written, each to a temporary name in the same folder and then `os.replace`d over the old
one. A failed or interrupted build leaves the previous outputs byte-identical.

Builds may write into one folder at the same moment (`serve` running while the author types
`printshop build`, two terminals), and so may threads of one process: each temporary file's
name is its writer's own (process id and a counter), and only the temporaries of processes
that have ended are removed as stale. Whichever build renames its file last wins; each file
is always one build's whole file, and the build cache's entries check the outputs' hashes
(an output another build replaced is built again next time, never trusted).
"""

from __future__ import annotations

import itertools
import os
import re
import time
from pathlib import Path

from printshop.errors import PrintshopError, Problem

TMP_PREFIX = ".printshop-tmp-"
STALE_AFTER_S = 6 * 3600    # a temporary this old is stale even if its process id runs
                            # (ids are reused): a write takes seconds
_unique = itertools.count()   # (next() on it is atomic: threads never share a name)
_SAFE_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}


def check_output_name(name: str, what: str = "output file") -> str:
    """A single, portable file name: never a path, never a device name."""
    stem = name.split(".")[0].lower()
    if not _SAFE_NAME_RE.match(name) or ".." in name or stem in _RESERVED:
        raise PrintshopError(Problem(what, f"'{name}' cannot be used as a file name: use "
                                     "letters, digits, '-' and '_' (and not a device name "
                                     "such as con or nul)"))
    return name


class BuildOutput:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.files: dict[str, bytes] = {}
        self.unchanged: list[Path] = []  # already there with the same bytes: not rewritten

    def add(self, name: str, data: bytes | str) -> None:
        check_output_name(name)
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.files[name] = data

    def add_tree(self, name: str, files: dict[str, bytes]) -> None:
        """A folder of outputs (PNG exports): `name/` + flat file names."""
        check_output_name(name)
        for file_name, data in files.items():
            check_output_name(file_name)
            self.files[f"{name}/{file_name}"] = data

    def commit(self, progress=None) -> list[Path]:
        """Every file written (`progress`: how far, as printshop.progress counts)."""
        from printshop.progress import Counter

        self.folder.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(self.folder)
        written = []
        counter = Counter(progress, "writing", sum(map(len, self.files.values())), "MB")
        counter.unit_scale = 1_000_000
        for name, data in self.files.items():
            target = self.folder / name
            if _same_bytes(target, data):  # keep its time: nothing to reload or re-copy
                self.unchanged.append(target)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                written.append(write_atomic(target, data))
            counter.update(step=len(data))
        return written


def _same_bytes(target: Path, data: bytes) -> bool:
    try:
        if target.is_symlink() or target.stat().st_size != len(data):
            return False
        return target.read_bytes() == data
    except OSError:
        return False


def write_atomic(target: Path, data: bytes) -> Path:
    temporary = target.with_name(f"{TMP_PREFIX}{os.getpid()}-{next(_unique)}-{target.name}")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


def remove_stale_temporaries(folder: Path) -> None:
    """Leftovers of a build that was killed while writing: those whose process has ended.
    Another build's, written into the same folder at this moment, are left alone (removing
    them failed its rename: "FileNotFoundError: .printshop-tmp-NNNN-stat.json")."""
    from printshop.processes import running

    now = time.time()
    for stale in folder.rglob(f"{TMP_PREFIX}*"):
        pid = stale.name[len(TMP_PREFIX):].split("-", 1)[0]
        try:
            if pid.isdigit() and running(int(pid)) and \
                    now - stale.stat().st_mtime < STALE_AFTER_S:
                continue
            stale.unlink()
        except OSError:
            pass
