"""A table cell's narrowest and widest widths, measured once for what decides them.

Before it lays a table out, WeasyPrint measures every cell's min- and max-content width:
each word of the cell shaped by Pango, at every place a line may break. The Appendix's 23
tables (2,048 cells) cost ~0.9 s of CPU to measure, in every layout of the chapter: its
first layout, its try a fit step tighter (products/book/fit.py), a page re-made. A
character sheet measures the same labels ("STR", "Hit Points") on every sheet of a pack.

What the measure reads is known: the cell's boxes (their kinds, their text, how they
nest) and, of each box's style, the properties the measuring code reads (`KEYS`, read
off WeasyPrint's preferred-width and line-breaking code this patch names in its targets),
plus the used widths of collapsed borders WeasyPrint sets on the cell. A cell with the
same of all that measures the same, in any document of the worker. So each measure is kept
per font configuration (the fonts it was shaped with) under that key. Left out on purpose:
what only moves things up and down (`line-height`, vertical padding and margins: a fit
step changes those and nothing else), which the measuring code never turns into a width.

A cell holding anything else (a picture, an inline block, a nested table, a leader) is
measured as WeasyPrint does, every time. The memo is emptied when a build starts
(render/job.py) and when it grows past `MAX_KEPT`.
"""

from __future__ import annotations

from printshop.render.weasy.registry import Patch

MAX_KEPT = 100_000

# every style property WeasyPrint 70's preferred widths read for a cell and what it holds
# (layout/preferred.py, text/line_break.py, text/fonts.py), and those that decide which of
# its boxes are measured at all (display, float, position); not line-height: it sets
# only a line's height, and a width never reads it
KEYS = tuple(sorted("""
    border_collapse border_left_width border_right_width border_spacing box_sizing
    column_count column_gap column_width direction display flex_direction flex_wrap float
    font_family font_feature_settings font_kerning font_language_override font_size
    font_stretch font_style font_variant_alternates font_variant_caps
    font_variant_east_asian font_variant_ligatures font_variant_numeric
    font_variant_position font_variation_settings font_weight height hyphenate_character
    hyphenate_limit_chars hyphenate_limit_zone hyphens image_resolution lang letter_spacing
    margin_left margin_right max_height max_width min_height min_width overflow_wrap
    padding_left padding_right position tab_size text_decoration_line text_indent
    text_transform white_space width word_break word_spacing
""".split()))


def _install():
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout import preferred

    measure = preferred.table_cell_min_max_content_width
    # the kinds of box a measured cell may hold (exactly these: a subclass may measure
    # otherwise)
    plain = {boxes.TableCellBox, boxes.BlockBox, boxes.LineBox, boxes.InlineBox, boxes.TextBox}
    text_box = boxes.TextBox

    def describe(box, into: list) -> None:
        if type(box) not in plain:
            raise LookupError(type(box).__name__)
        style = box.style
        children = getattr(box, "children", ())
        into.append((type(box), tuple([style[key] for key in KEYS]),
                     box.text if type(box) is text_box else len(children),
                     getattr(box, "border_left_width", None),
                     getattr(box, "border_right_width", None)))
        for child in children:
            describe(child, into)

    def remembered(context, box, outer=True):
        style = box.style
        config = style.font_config
        try:
            root = style.root_style
            # (rem and viewport units in a calc() read the root's font and the page)
            parts = [outer, root["font_size"],
                     repr(getattr(style, "initial_page_sizes", None))]
            describe(box, parts)
            key = tuple(parts)
            hash(key)
        except (LookupError, TypeError):   # something else in the cell, or unhashable
            return measure(context, box, outer)
        kept = getattr(config, "printshop_cell_widths", None)
        if kept is None:
            kept = config.printshop_cell_widths = {}
        found = kept.get(key)
        if found is None:
            if len(kept) >= MAX_KEPT:
                kept.clear()
            found = kept[key] = measure(context, box, outer)
        return found

    return [(preferred, "table_cell_min_max_content_width", remembered)]


def forget(font_configs) -> None:
    """Every measure kept with these font configurations dropped (a build starts: a font
    file may have changed)."""
    for config in font_configs:
        if getattr(config, "printshop_cell_widths", None):
            config.printshop_cell_widths = {}


_PREFERRED = "weasyprint.layout.preferred."
_LINES = "weasyprint.text.line_break."

CELL_WIDTHS = Patch(
    name="cell-widths",
    kind="speed",
    # the measure replaced, and every function whose reading of the style `KEYS` lists
    targets={
        _PREFERRED + "table_cell_min_max_content_width": "6fdf961b91fce3e9",
        _PREFERRED + "table_cell_min_content_width": "fa2ec7ebbb6faf48",
        _PREFERRED + "min_content_width": "b71e3b4858155dcb",
        _PREFERRED + "max_content_width": "249852d3d5ed7da3",
        _PREFERRED + "_block_content_width": "00aae475025d0193",
        _PREFERRED + "min_max": "17066583f5c14957",
        _PREFERRED + "margin_width": "f1c631288fc1aedf",
        _PREFERRED + "adjust": "20ef5faa8188ca2c",
        _PREFERRED + "block_min_content_width": "d6db72a3219434cd",
        _PREFERRED + "block_max_content_width": "2fe9caabaf682600",
        _PREFERRED + "inline_min_content_width": "15cde37816a624cf",
        _PREFERRED + "inline_max_content_width": "6860df1a22c6d6a7",
        _PREFERRED + "inline_line_widths": "6c24f789e3ce5bb7",
        _PREFERRED + "trailing_whitespace_size": "cd005b8042a652f9",
        _LINES + "split_first_line": "39ad1016863ca34d",
        _LINES + "create_layout": "6587192cc0ab3ffa",
        _LINES + "Layout.setup": "fb227a55094f41d4",
        _LINES + "Layout.set_text": "fe23ca9937dbf520",
        _LINES + "Layout.set_tabs": "2ee73daabd64e1aa",
        "weasyprint.text.fonts.get_font_description": "85734b8947b9bf64",
    },
    why="every cell of a table is measured (each word shaped) in every layout of it: a "
        "chapter tried a fit step tighter, a page re-made, the same labels on every sheet",
    gain="~8 % of the guide's cold-build worker CPU: its cells measured in 1.3-1.8 s "
         "instead of 3.2-3.7 s (its jobs replayed; bench/BASELINE.md)",
    install=_install,
)
