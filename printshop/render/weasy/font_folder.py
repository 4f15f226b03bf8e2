"""A folder for a FontConfiguration's @font-face files that goes when its process ends.

WeasyPrint 70 writes each @font-face font it loads into a temporary folder of the
FontConfiguration's own (its private `_folder`, made on the first font) and removes it in
`__del__`, which never runs for a configuration kept for the life of a process (a render
worker keeps one per font policy): every build left a few MB of font files per worker in
the temporary folder (11 GB here over two days). The patch `font-folder` gives each
configuration a folder made here, removed by multiprocessing's finalizers when a worker
returns and at the parent's exit; a process killed instead (a render over its time,
`serve` stopped) leaves its folder, named with its process id, to the next process that
makes one. Where the patch is skipped (another WeasyPrint), WeasyPrint's own folder is
left as it comes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from pathlib import Path

from printshop.render.weasy import registry
from printshop.render.weasy.registry import Patch

FONT_FOLDER_PREFIX = "printshop-fonts-"

PATCH = Patch(
    name="font-folder",
    kind="fix",
    # where the folder is set, made, written to and removed
    targets={"weasyprint.text.fonts.FontConfiguration.__init__": "9fdb532fe2c80013",
             "weasyprint.text.fonts.FontConfiguration.add_font_face": "e4fcfcc36ed8c310",
             "weasyprint.text.fonts.FontConfiguration.__del__": "b325ecf9683e945e"},
    why="WeasyPrint removes a font configuration's folder of @font-face files in __del__, "
        "which never runs for one kept as long as its worker: a few MB left a build",
    gain="no font files left behind (11 GB over two days of builds before)",
)


def remove_at_exit(config) -> None:
    """Give WeasyPrint's FontConfiguration `config` a folder for its @font-face files that
    is removed when this process ends (see above)."""
    from multiprocessing.util import Finalize

    if not registry.active(PATCH.name):
        return
    remove_folders_of_ended_processes()
    folder = Path(tempfile.mkdtemp(prefix=f"{FONT_FOLDER_PREFIX}{os.getpid()}-"))
    config._folder = folder
    Finalize(config, _remove, args=(folder, weakref.ref(config)), exitpriority=0)


def folder_gone(config) -> bool:
    """Whether `config`'s folder of @font-face files was removed under it (a temporary
    folder cleaned while `serve` ran for days): fonts it adds would then fail."""
    folder = getattr(config, "_folder", None) if registry.active(PATCH.name) else None
    return folder is not None and not os.path.isdir(folder)


def remove_folders_of_ended_processes(parent: Path | None = None) -> list[Path]:
    """Remove the font folders whose process no longer runs; the folders removed."""
    from printshop.processes import running

    removed = []
    for folder in Path(parent or tempfile.gettempdir()).glob(f"{FONT_FOLDER_PREFIX}*-*"):
        pid = folder.name[len(FONT_FOLDER_PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or running(int(pid)):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _remove(folder: Path, config) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    if config() is not None:    # WeasyPrint's own __del__ then has nothing left to remove
        config()._folder = None
