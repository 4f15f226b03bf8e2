"""Font subsets that are the same bytes on every run, with either subsetter.

WeasyPrint embeds only the glyphs a document uses. It subsets with HarfBuzz's subsetter
(libharfbuzz-subset) when the system has it, else with fontTools. HarfBuzz keeps the font's
`head.modified` date; fontTools, on saving, stamps it with the current time (or with
SOURCE_DATE_EPOCH, which printshop reserves for printing a date on the page). Two builds a
second apart would then differ. Here fontTools keeps the font file's own date, as HarfBuzz
does, so a seed reprints a sheet byte for byte on machines without the subsetter too (the
patch `font-dates` of render/weasy/registry.py).
"""

from __future__ import annotations

import functools
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


def harfbuzz_subsetter() -> bool:
    """Does WeasyPrint subset fonts with HarfBuzz here (rather than fontTools)?"""
    with warnings.catch_warnings():  # its DeprecationWarning when the library is missing
        warnings.simplefilter("ignore", DeprecationWarning)
        from weasyprint.text import ffi
    return ffi.harfbuzz_subset is not None and bool(ffi.harfbuzz.hb_version_atleast(4, 1, 0))


def is_fallback_warning(message: str) -> bool:
    """WeasyPrint's per-font, per-document note about fontTools: printshop says it once."""
    return message.startswith(FALLBACK_WARNING)
