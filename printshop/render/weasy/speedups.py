"""Fixes for slow paths in the libraries WeasyPrint 70 uses, applied in render workers.

tinyhtml5 2.1.0 caches one compiled regular expression per set of stop characters in
`inputstream.characters_until_regex`, but stores it under the wrong key (its chained
assignment rebinds `characters` to the new regex before the key is made), so the cache
never hits: every text run of every page builds and compiles its regex again, about 2 ms a
character sheet. A dict that builds the missing entry under the right key makes the
library's own lookup hit; the regexes are the same, so the parse is the same.

Importing WeasyPrint (each render worker does) looks each C library up under the names it
has on Windows and macOS first: every name that fails to load asks `ctypes.util.
find_library`, which on Linux runs ldconfig and the C compiler, ~11 ms a name and 0.19 s
of the 0.5 s import. `import_weasyprint` answers those lookups "not found" during the
import on Linux, where each library is then loaded by its own soname (libpango-1.0.so.0,
the same file ldconfig would have named); if that leaves a library out (a system that
only find_library knows how to reach), WeasyPrint is imported again the usual way.

WeasyPrint makes each page's sixteen margin boxes (@top-left, ...) whether or not any
stylesheet gives one a rule: each gets a style, a box and its percentages resolved, ~3.5 ms
a page, and then none is drawn. A character sheet, a card sheet or a stamp has none, so
when no margin box of a page has content the boxes are not made (the one thing making them
changed, the counters of their styles, is still done).

WeasyPrint subsets each font of a PDF through HarfBuzz with arrays made as
`ffi.new(f'hb_codepoint_t[{n}]', items)`: cffi parses every new C type with pycparser,
and `n` (the glyphs a subset keeps) differs from font to font, so nearly every font of
every PDF cost a parse, ~4 ms, 0.3 s of the guide. An array of n items given n items is
the same as an open array (`hb_codepoint_t[]`) given them, whose type is parsed once.

A job that is only laid out (`RenderJob.layout_only`: the book's first pass, which wants
each part's pages, where its ids fall and its named strings) has no use for what is made
after the pages are cut: the margin boxes (running heads, folios: ~4 ms a page of the
guide) and the layout of the backgrounds for painting. Inside `layout_only()` neither is
made; the pages, their anchors and the strings set in them are as before.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import io
import re
import sys

from printshop.render.weasy import memos


class _StopCharacterRegexes(dict):
    def __missing__(self, key):
        characters, opposite = key
        pattern = "".join(f"\\x{ord(c):02x}" for c in characters)
        regex = self[key] = re.compile(f"[{'' if opposite else '^'}{pattern}]+")
        return regex


_LAYOUT_ONLY = contextvars.ContextVar("printshop_layout_only", default=False)


@contextlib.contextmanager
def layout_only():
    """Pages laid out inside this are never drawn: no margin boxes, no backgrounds."""
    token = _LAYOUT_ONLY.set(True)
    try:
        yield
    finally:
        _LAYOUT_ONLY.reset(token)


def apply() -> None:
    _skip_absent_margin_boxes()
    _skip_painting_in_layout_only()
    _array_types_parsed_once()
    memos.apply()
    try:
        from tinyhtml5 import inputstream
    except ImportError:      # another WeasyPrint, another parser: nothing to fix
        return
    if isinstance(getattr(inputstream, "characters_until_regex", None), dict) and \
            not isinstance(inputstream.characters_until_regex, _StopCharacterRegexes):
        inputstream.characters_until_regex = _StopCharacterRegexes()


MARGIN_BOXES = tuple(f"@{side}-{place}" for side, places in (
    ("top", ("left", "center", "right")), ("bottom", ("left", "center", "right")),
    ("left", ("top", "middle", "bottom")), ("right", ("top", "middle", "bottom")))
    for place in places) + ("@top-left-corner", "@top-right-corner",
                            "@bottom-left-corner", "@bottom-right-corner")


class _OpenArrays:
    """WeasyPrint's `ffi` for font subsetting, where an array of n items given n items is
    made as an open array, whose C type cffi parses once (see above)."""

    _SIZED = re.compile(r"^\s*([A-Za-z_][\w ]*?)\s*\[(\d+)\]\s*$")

    def __init__(self, ffi):
        self._ffi = ffi

    def __getattr__(self, name):
        return getattr(self._ffi, name)

    def new(self, cdecl, init=None):
        if isinstance(cdecl, str) and init is not None:
            match = self._SIZED.match(cdecl)
            if match and hasattr(init, "__len__") and len(init) == int(match[2]):
                cdecl = f"{match[1]}[]"
        return self._ffi.new(cdecl, init)


def _array_types_parsed_once() -> None:
    try:
        from weasyprint.pdf import fonts
    except ImportError:
        return
    if hasattr(fonts, "ffi") and not isinstance(fonts.ffi, _OpenArrays):
        fonts.ffi = _OpenArrays(fonts.ffi)


def _skip_absent_margin_boxes() -> None:
    try:
        from weasyprint import layout
        from weasyprint.layout import page as pages
    except ImportError:
        return
    original = getattr(layout, "make_margin_boxes", None)
    standardize = getattr(pages, "_standardize_page_based_counters", None)
    if original is None or standardize is None or getattr(original, "printshop", False):
        return

    def make_margin_boxes(context, page, state):
        styles = []
        for keyword in MARGIN_BOXES:
            style = context.style_for(page.page_type, keyword)
            # (a style is a dict filled when read: an empty one is not "no style")
            styles.append((keyword, page.style.anonymous_style if style is None else style))
        if not _LAYOUT_ONLY.get() and any(
                style["content"] not in ("normal", "inhibit", "none") for _, style in styles):
            return original(context, page, state)
        for keyword, style in styles:   # what making each (not generated) box did
            standardize(style, keyword)
        return iter(())

    make_margin_boxes.printshop = True
    layout.make_margin_boxes = make_margin_boxes


def _skip_painting_in_layout_only() -> None:
    try:
        from weasyprint import layout
    except ImportError:
        return
    original = getattr(layout, "layout_backgrounds", None)
    if original is None or getattr(original, "printshop", False):
        return

    def layout_backgrounds(page, get_image_from_uri):
        if not _LAYOUT_ONLY.get():
            original(page, get_image_from_uri)

    layout_backgrounds.printshop = True
    layout.layout_backgrounds = layout_backgrounds


def import_weasyprint() -> None:
    """Import WeasyPrint, its library lookups short-cut on Linux (see above)."""
    if "weasyprint" in sys.modules or not sys.platform.startswith("linux"):
        importlib.import_module("weasyprint")
        return
    import ctypes.util

    real = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        # WeasyPrint prints its installation help before it gives up: not for this try
        with contextlib.redirect_stdout(io.StringIO()):
            from weasyprint.text import ffi
        complete = ffi.harfbuzz_subset is not None
    except OSError:
        complete = False
    finally:
        ctypes.util.find_library = real
    if not complete:
        for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[name]
    importlib.import_module("weasyprint")
