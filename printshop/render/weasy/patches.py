"""Every patch printshop makes to WeasyPrint, in the order they are applied (a patch after
those it builds on, and after those whose replacement it wraps). render/weasy/registry.py
checks and installs them; `printshop --version` lists them."""

from printshop.render.weasy import (
    column_balance,
    column_span,
    font_folder,
    hyphenation,
    line_end,
    memos,
    png_data,
    resume,
    speedups,
    strings,
    subsetting,
    table_widths,
)
from printshop.render.weasy.registry import register

# fixes: WeasyPrint does something wrong
register(column_span.PATCH)
register(font_folder.PATCH)
register(subsetting.FONT_DATES)
register(subsetting.SUBSET_TAGS)
register(line_end.PATCH)
# speed: the same pages, sooner
register(column_balance.BALANCE)
register(column_balance.TRIAL)
register(memos.LINE_SPLITS)
register(memos.PANGO_SETUPS)
register(speedups.PARSER_REGEXES)
register(speedups.ABSENT_MARGIN_BOXES)
register(speedups.LAYOUT_ONLY)           # wraps the margin boxes of the one above
register(speedups.ARRAY_TYPES)
register(hyphenation.PATCH)
register(png_data.PATCH)
register(table_widths.PATCH)
register(strings.CARRIED_STRINGS)
register(resume.KEPT_LAYOUTS)            # shifts the folios of the margin boxes above
