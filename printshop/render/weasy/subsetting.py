"""Font subsets that are the same bytes on every run, with either subsetter.

WeasyPrint embeds only the glyphs a document uses. It subsets with HarfBuzz's subsetter
(libharfbuzz-subset) when the system has it, else with fontTools. HarfBuzz keeps the font's
`head.modified` date; fontTools, on saving, stamps it with the current time (or with
SOURCE_DATE_EPOCH, which printshop reserves for printing a date on the page). Two builds a
second apart would then differ. Here fontTools keeps the font file's own date, as HarfBuzz
does, so a seed reprints a sheet byte for byte on machines without the subsetter too.
"""

from __future__ import annotations

import functools
import warnings

FALLBACK_WARNING = "Using fontTools instead of HarfBuzz-Subset"


def keep_font_dates() -> None:
    """In a render process: fontTools subsets keep the source font's head.modified."""
    from fontTools.ttLib import TTFont
    from weasyprint.pdf import fonts

    if isinstance(fonts.TTFont, functools.partial):
        return
    fonts.TTFont = functools.partial(TTFont, recalcTimestamp=False)


def harfbuzz_subsetter() -> bool:
    """Does WeasyPrint subset fonts with HarfBuzz here (rather than fontTools)?"""
    with warnings.catch_warnings():  # its DeprecationWarning when the library is missing
        warnings.simplefilter("ignore", DeprecationWarning)
        from weasyprint.text import ffi
    return ffi.harfbuzz_subset is not None and bool(ffi.harfbuzz.hb_version_atleast(4, 1, 0))


def is_fallback_warning(message: str) -> bool:
    """WeasyPrint's per-font, per-document note about fontTools: printshop says it once."""
    return message.startswith(FALLBACK_WARNING)
