"""`printshop new DIR`: a small game project that builds as it is.

The files are data (printshop/data/scaffold/): a manifest, a chapter that embeds tables and
cross-references a section, a dice table, a small deck, a reference sheet and a README that
says what to edit. Only the game's title is filled in.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from printshop.errors import PrintshopError
from printshop.resources import SCAFFOLD_DIR

PLACEHOLDER = "__TITLE__"


def title_from_folder(name: str) -> str:
    words = re.split(r"[-_\s]+", name.strip())
    return " ".join(w[:1].upper() + w[1:] for w in words if w) or "My Game"


def new_project(target: Path, title: str | None = None) -> list[Path]:
    """Write the scaffold into `target` (new or empty); returns the files, relative."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise PrintshopError.at(target, "is a file: give a new folder for the project")
    if target.is_dir() and any(target.iterdir()):
        raise PrintshopError.at(target, "folder is not empty: `printshop new` writes only into "
                                "a new or empty folder (nothing was changed)")
    target = target.resolve()
    title = title or title_from_folder(target.name)
    existed = target.is_dir()
    target.parent.mkdir(parents=True, exist_ok=True)
    # Everything is written into a temporary folder first (beside a new target, inside an
    # empty one, which may be the current folder), then moved in: an interrupted run leaves
    # no half project.
    staging = Path(tempfile.mkdtemp(prefix=".printshop-new-",
                                    dir=target if existed else target.parent))
    written = []
    try:
        for source in sorted(SCAFFOLD_DIR.rglob("*")):
            if not source.is_file():
                continue
            relative = source.relative_to(SCAFFOLD_DIR)
            text = source.read_text(encoding="utf-8")
            # In YAML the title is written as a quoted string, whatever characters it has.
            value = json.dumps(title, ensure_ascii=False) if source.suffix == ".yaml" else title
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            (staging / relative).write_text(text.replace(PLACEHOLDER, value), encoding="utf-8")
            written.append(relative)
        if existed:
            for entry in sorted(staging.iterdir()):
                os.replace(entry, target / entry.name)
            staging.rmdir()
        else:
            os.chmod(staging, 0o777 & ~_umask())
            os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return written


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
