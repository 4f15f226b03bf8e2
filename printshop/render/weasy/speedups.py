"""Slow paths of WeasyPrint 70 and the libraries it uses, taken another way in render workers.
Each is a patch of render/weasy/registry.py, installed only on the source it was written
against; every product of the kit comes out byte for byte the same with and without them.

tinyhtml5 2.1.0 caches one compiled regular expression per set of stop characters in
`inputstream.characters_until_regex`, but stores it under the wrong key (its chained
assignment rebinds `characters` to the new regex before the key is made), so the cache
never hits: every text run of every page builds and compiles its regex again, about 2 ms a
character sheet. A dict that builds the missing entry under the right key makes the
library's own lookup hit; the regexes are the same, so the parse is the same.

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
import re

from printshop.render.weasy.registry import Patch


class _StopCharacterRegexes(dict):
    def __missing__(self, key):
        characters, opposite = key
        pattern = "".join(f"\\x{ord(c):02x}" for c in characters)
        regex = self[key] = re.compile(f"[{'' if opposite else '^'}{pattern}]+")
        return regex


def _parser_regexes():
    from tinyhtml5 import inputstream

    return [(inputstream, "characters_until_regex", _StopCharacterRegexes())]


PARSER_REGEXES = Patch(
    name="parser-regexes",
    kind="speed",
    targets={"tinyhtml5.inputstream.HTMLUnicodeInputStream.chars_until": "dfe353323dff1fdc"},
    why="tinyhtml5 stores each compiled stop-character regex under the wrong key: every "
        "text run compiles its regex again",
    gain="9.3 % of a pregen pack's cold-build CPU",
    install=_parser_regexes,
)


MARGIN_BOXES = tuple(f"@{side}-{place}" for side, places in (
    ("top", ("left", "center", "right")), ("bottom", ("left", "center", "right")),
    ("left", ("top", "middle", "bottom")), ("right", ("top", "middle", "bottom")))
    for place in places) + ("@top-left-corner", "@top-right-corner",
                            "@bottom-left-corner", "@bottom-right-corner")


def _margin_box_styles(context, page):
    styles = []
    for keyword in MARGIN_BOXES:
        style = context.style_for(page.page_type, keyword)
        # (a style is a dict filled when read: an empty one is not "no style")
        styles.append((keyword, page.style.anonymous_style if style is None else style))
    return styles


def _no_margin_boxes(styles):
    """What making each margin box that is not generated did: its counters standardized."""
    from weasyprint.layout.page import _standardize_page_based_counters

    for keyword, style in styles:
        _standardize_page_based_counters(style, keyword)
    return iter(())


def _absent_margin_boxes():
    from weasyprint import layout

    original = layout.make_margin_boxes

    def make_margin_boxes(context, page, state):
        styles = _margin_box_styles(context, page)
        if any(style["content"] not in ("normal", "inhibit", "none") for _, style in styles):
            return original(context, page, state)
        return _no_margin_boxes(styles)

    return [(layout, "make_margin_boxes", make_margin_boxes)]


ABSENT_MARGIN_BOXES = Patch(
    name="absent-margin-boxes",
    kind="speed",
    # the boxes it leaves out are the ones this function makes and draws nothing in
    targets={"weasyprint.layout.page.make_margin_boxes": "4a2d2e301eb3bc47"},
    why="WeasyPrint makes a page's sixteen margin boxes (a style, a box, its lengths) "
        "even when no stylesheet gives one content: ~3.5 ms a page, nothing drawn",
    gain="13.5 % of a pregen pack's cold-build CPU",
    install=_absent_margin_boxes,
)


_LAYOUT_ONLY = contextvars.ContextVar("printshop_layout_only", default=False)


@contextlib.contextmanager
def layout_only():
    """Pages laid out inside this are never drawn: with the patch `layout-only` active, no
    margin boxes and no backgrounds are made for them."""
    token = _LAYOUT_ONLY.set(True)
    try:
        yield
    finally:
        _LAYOUT_ONLY.reset(token)


def _layout_only():
    from weasyprint import layout

    margin_boxes, backgrounds = layout.make_margin_boxes, layout.layout_backgrounds

    def make_margin_boxes(context, page, state):
        if _LAYOUT_ONLY.get():
            return _no_margin_boxes(_margin_box_styles(context, page))
        return margin_boxes(context, page, state)

    def layout_backgrounds(page, get_image_from_uri):
        if not _LAYOUT_ONLY.get():
            backgrounds(page, get_image_from_uri)

    return [(layout, "make_margin_boxes", make_margin_boxes),
            (layout, "layout_backgrounds", layout_backgrounds)]


LAYOUT_ONLY = Patch(
    name="layout-only",
    kind="speed",
    # where the margin boxes and backgrounds are made once the pages are cut
    targets={"weasyprint.layout.layout_document": "a5cbf437e99caf72",
             "weasyprint.layout.page.make_margin_boxes": "4a2d2e301eb3bc47"},
    why="the book's first pass lays its parts out only to learn their pages: their margin "
        "boxes and backgrounds are never drawn",
    gain="13.3 % of the guide's cold-build CPU",
    install=_layout_only,
)


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


def _array_types():
    from weasyprint.pdf import fonts

    return [(fonts, "ffi", _OpenArrays(fonts.ffi))]


ARRAY_TYPES = Patch(
    name="array-types",
    kind="speed",
    # the whole module: all of its code sees the `ffi` this replaces
    targets={"weasyprint.pdf.fonts": "9ad9a202a416b845"},
    why="each font subset makes arrays of a C type sized by its glyph count, which cffi "
        "parses anew for every size (~4 ms a font)",
    gain="9.4 % of the guide's cold-build CPU",
    install=_array_types,
)
