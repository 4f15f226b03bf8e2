"""Fonts: only printshop's bundled fonts may reach a PDF.

WeasyPrint asks fontconfig for fonts, and fontconfig would happily fall back to whatever the
machine has installed (a missing arrow glyph silently came from the system's DejaVu). Each
render worker therefore points fontconfig at a configuration that knows only the bundled
font folder, and compose steps can check that every character has a bundled glyph.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from printshop.resources import FONTS_DIR as BUNDLED_FONTS


def isolate_fontconfig(folders: list[Path] | None = None) -> str:
    """Write (once) a fontconfig file listing only `folders`; point this process at it."""
    folders = [Path(f).resolve() for f in (folders or [BUNDLED_FONTS])]
    key = hashlib.sha256("\n".join(map(str, folders)).encode()).hexdigest()[:16]
    base = Path(tempfile.gettempdir()) / f"printshop-fontconfig-{os.getuid()}-{key}"
    config = base / "fonts.conf"
    if not config.exists():
        base.mkdir(parents=True, exist_ok=True)
        dirs = "".join(f"<dir>{escape(str(folder))}</dir>" for folder in folders)
        text = ('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
                f"<fontconfig>{dirs}<cachedir>{escape(str(base / 'cache'))}</cachedir>"
                "</fontconfig>\n")
        temporary = base / f"fonts.conf.{os.getpid()}"
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, config)
    os.environ["FONTCONFIG_FILE"] = str(config)
    return str(config)


@lru_cache(maxsize=None)
def _bundled_codepoints(folder: str) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    covered: set[int] = set()
    for path in sorted(Path(folder).rglob("*.[ot]tf")):
        with TTFont(path, lazy=True) as font:
            covered.update(font.getBestCmap() or {})
    return frozenset(covered)


def missing_glyphs(text: str, folder: Path = BUNDLED_FONTS) -> list[str]:
    """Characters of `text` that no bundled font can draw (they would print as boxes)."""
    from printshop import deps

    if deps.active():  # which fonts there are decides what is reported
        deps.record_listing(folder, "tf", recursive=True)
        for path in sorted(Path(folder).rglob("*.[ot]tf")):
            deps.record_file(path)
    covered = _bundled_codepoints(str(folder))
    return sorted({c for c in text if ord(c) not in covered and not c.isspace()
                   and ord(c) >= 0x20})
