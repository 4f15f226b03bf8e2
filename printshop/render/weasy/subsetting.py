"""Font subsets that are the same bytes on every run, with either subsetter, and that are
named apart in a file that joins several.

WeasyPrint embeds only the glyphs a document uses. It subsets with HarfBuzz's subsetter
(libharfbuzz-subset) when the system has it, else with fontTools. HarfBuzz keeps the font's
`head.modified` date; fontTools, on saving, stamps it with the current time (or with
SOURCE_DATE_EPOCH, which printshop reserves for printing a date on the page). Two builds a
second apart would then differ. Here fontTools keeps the font file's own date, as HarfBuzz
does, so a seed reprints a sheet byte for byte on machines without the subsetter too (the
patch `font-dates` of render/weasy/registry.py).

A subset's name starts with a tag of six capitals ("RQBIDV+Pirata-One"). WeasyPrint makes
the tag from the font alone, which is right in one document (one subset a font). printshop
joins many documents into one file (a book's parts, a pack's chunks, a deck's sheets), and
each brings its own subset of the same font under the same tag: the guide held 12 different
subsets all named "MAPNSP+Vollkorn". PDF says different subsets in one file shall have
different tags (ISO 32000-1, 9.6.4), because a processor may take two fonts of the same
name for one (a press's imposition or a merge keeps one, and text set in the other loses
its glyphs). The patch `subset-tags` makes the tag from the subset's own bytes: subsets
that differ are named apart, equal ones (joined once) keep one name.
"""

from __future__ import annotations

import functools
import hashlib
import warnings

from printshop.render.weasy.registry import Patch

FALLBACK_WARNING = "Using fontTools instead of HarfBuzz-Subset"


def _keep_font_dates():
    """fontTools fonts that WeasyPrint saves keep the source font's head.modified."""
    from fontTools.ttLib import TTFont
    from weasyprint.pdf import fonts

    return [(fonts, "TTFont", functools.partial(TTFont, recalcTimestamp=False))]


FONT_DATES = Patch(
    name="font-dates",
    kind="fix",
    # the whole module: every font it saves through fontTools keeps its date
    targets={"weasyprint.pdf.fonts": "9ad9a202a416b845"},
    why="without HarfBuzz's subsetter, fontTools stamps each embedded font with the time "
        "of the build: two builds a second apart differ",
    gain="byte-identical PDFs from the same inputs on machines without libharfbuzz-subset",
    install=_keep_font_dates,
)


def subset_name(name: bytes, font_file: bytes) -> bytes:
    """`name` ("/TAGTAG+Family-Style") with a tag made from the subset's bytes."""
    digest = hashlib.sha256(font_file).digest()
    tag = bytes(65 + byte % 26 for byte in digest[:6])
    return b"/" + tag + name[name.index(b"+"):]


def _tag_subsets():
    """Font.clean (which subsets the font) then names the subset by its bytes."""
    from weasyprint.pdf import fonts

    from printshop.render.weasy.registry import original

    clean = original("weasyprint.pdf.fonts.Font.clean")

    def clean_then_name(self, to_unicode, hinting):
        clean(self, to_unicode, hinting)
        self.name = subset_name(self.name, self.file_content)

    return [(fonts.Font, "clean", clean_then_name)]


SUBSET_TAGS = Patch(
    name="subset-tags",
    kind="fix",
    targets={
        # where the name is made ("/" + a tag of the font + "+" + its name) ...
        "weasyprint.pdf.fonts.Font.__init__": "1f281166b10302a4",
        # ... where the subset is made, and where the name is written, after it
        "weasyprint.pdf.fonts.Font.clean": "794f0211f18453f1",
        "weasyprint.pdf.fonts.build_fonts_dictionary": "fc551bef35d0d6c3",
    },
    why="every document names its subset of a font with the same tag: a file that joins "
        "several (a book's parts, a pack's chunks) holds different subsets under one name, "
        "which PDF forbids and a press's software may merge, losing glyphs",
    gain="one name per subset in every joined PDF",
    install=_tag_subsets,
)


def harfbuzz_subsetter() -> bool:
    """Does WeasyPrint subset fonts with HarfBuzz here (rather than fontTools)?"""
    with warnings.catch_warnings():  # its DeprecationWarning when the library is missing
        warnings.simplefilter("ignore", DeprecationWarning)
        from weasyprint.text import ffi
    return ffi.harfbuzz_subset is not None and bool(ffi.harfbuzz.hb_version_atleast(4, 1, 0))


def is_fallback_warning(message: str) -> bool:
    """WeasyPrint's per-font, per-document note about fontTools: printshop says it once."""
    return message.startswith(FALLBACK_WARNING)
