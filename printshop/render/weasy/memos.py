"""What WeasyPrint 70 works out again and again from the same inputs, worked out once.

Laying a page out, WeasyPrint tries things: a run of columns at several heights
(render/weasy/column_balance.py), a table's cells at their narrowest and widest, a paragraph's
lines once to measure and once to place. Each try redoes work whose inputs did not change:

* **line splits**: `split_first_line` (Pango's shaping and line breaking) depends only on
  the text, the style, the width and its two flags; 40 % of the guide's calls repeat one.
  Each layout context keeps its splits, and each caller gets a copy of the (inactive)
  Pango layout holder, as from a fresh call, since drawing an ellipsis changes its text;
* **used lengths**: `resolve_percentages` turns a box's margins, paddings, widths,
  heights and borders into lengths from its style and its containing block's size, and
  nothing else (collapsed table borders aside, which it leaves as they are set): 160,000
  calls for the kit. Each style keeps what it made for each containing block size;
* **Pango set-ups**: every `Layout` (each line tried, each line drawn) made a Pango context
  and a font description from its style. Each style keeps its context and description
  (Pango contexts are shared between layouts by design; nothing changes them after their
  set-up), and the metrics a text decoration reads;
* **style attributes**: each element's `style="…"` was parsed on its own, so two elements
  with the same one never shared their computed style (WeasyPrint shares it between
  elements with the same parent style, the same rules and the same declarations, told
  apart by identity). Within one document each style text is parsed once: the faces of a
  sheet of cards, alike but for their text, then compute their styles once.

Styles are copied (`Style.copy`), never changed in place, where layout needs another value
(flex and grid items, first lines), and a copy starts without these. Every product of the
kit comes out byte for byte the same with and without them.
"""

from __future__ import annotations

import copy

_USED = ("margin_left", "margin_right", "margin_top", "margin_bottom", "padding_left",
         "padding_right", "padding_top", "padding_bottom", "width", "min_width",
         "max_width", "height", "min_height", "max_height", "border_top_width",
         "border_right_width", "border_bottom_width", "border_left_width")


def apply() -> None:
    _remember_line_splits()
    _remember_used_lengths()
    _remember_pango_setups()
    _parse_style_attributes_once()


def _parse_style_attributes_once() -> None:
    try:
        import tinycss2
        from weasyprint import css
    except ImportError:
        return
    original = getattr(css, "find_style_attributes", None)
    if original is None or getattr(original, "printshop", False) or \
            getattr(css, "tinycss2", None) is not tinycss2:
        return
    parsed: dict[str, list] | None = None    # a style text's declarations, this document's

    class _Tinycss2:
        """tinycss2 as weasyprint.css sees it: a style attribute's text parsed once."""

        def __getattr__(self, name):
            return getattr(tinycss2, name)

        @staticmethod
        def parse_blocks_contents(text, *args, **kwargs):
            if parsed is None or args or kwargs or not isinstance(text, str):
                return tinycss2.parse_blocks_contents(text, *args, **kwargs)
            found = parsed.get(text)
            if found is None:
                found = parsed[text] = tinycss2.parse_blocks_contents(text)
            return found

    def find_style_attributes(tree, presentational_hints=False, base_url=None):
        nonlocal parsed
        parsed = {}
        try:
            yield from original(tree, presentational_hints, base_url)
        finally:
            parsed = None

    find_style_attributes.printshop = True
    find_style_attributes.original = original
    css.tinycss2 = _Tinycss2()
    css.find_style_attributes = find_style_attributes


def _remember_line_splits() -> None:
    try:
        from weasyprint.layout import inline, preferred
    except ImportError:
        return
    original = getattr(inline, "split_first_line", None)
    if original is None or getattr(original, "printshop", False) or \
            getattr(preferred, "split_first_line", None) is not original:
        return

    def split_first_line(text, style, context, max_width, justification_spacing,
                         is_line_start=True, minimum=False):
        lines = getattr(context, "printshop_lines", None)
        if lines is None:
            if context is None:
                return original(text, style, context, max_width, justification_spacing,
                                is_line_start, minimum)
            lines = context.printshop_lines = {}
        # the style is kept with the entry: its id is not reused while the entry lives
        key = (text, id(style), max_width, justification_spacing, is_line_start, minimum)
        entry = lines.get(key)
        if entry is None:
            entry = lines[key] = (style, original(text, style, context, max_width,
                                                  justification_spacing, is_line_start,
                                                  minimum))
        layout, *rest = entry[1]
        return (copy.copy(layout), *rest)

    split_first_line.printshop = True
    split_first_line.original = original
    inline.split_first_line = preferred.split_first_line = split_first_line


def _remember_used_lengths() -> None:
    try:
        from weasyprint.formatting_structure import boxes
        from weasyprint.layout import (
            absolute,
            block,
            column,
            grid,
            inline,
            page,
            percent,
            table,
        )
        from weasyprint.layout import float as floats
    except ImportError:
        return
    original = getattr(percent, "resolve_percentages", None)
    if original is None or getattr(original, "printshop", False):
        return
    modules = [m for m in (absolute, block, column, floats, grid, inline, page, table)
               if getattr(m, "resolve_percentages", None) is original]
    Box, PageBox = boxes.Box, boxes.PageBox

    def resolve_percentages(box, containing_block):
        style = box.style
        if style["border_collapse"] == "collapse":
            return original(box, containing_block)   # it keeps borders already resolved
        if isinstance(containing_block, Box):
            key = (containing_block.width, containing_block.height, isinstance(box, PageBox))
        else:
            key = (*containing_block, isinstance(box, PageBox))
        made = style.__dict__.get("printshop_used")
        if made is None:
            made = style.printshop_used = {}
        used = made.get(key)
        if used is None:
            original(box, containing_block)
            made[key] = {name: getattr(box, name) for name in _USED}
        else:
            box.__dict__.update(used)

    resolve_percentages.printshop = True
    resolve_percentages.original = original
    resolve_percentages.modules = [percent, *modules]
    percent.resolve_percentages = resolve_percentages
    for module in modules:
        module.resolve_percentages = resolve_percentages


def _remember_pango_setups() -> None:
    try:
        from weasyprint.text import line_break
        from weasyprint.text.constants import LST_TO_ISO, PANGO_DIRECTION
        from weasyprint.text.ffi import (
            FROM_UNITS,
            ffi,
            gobject,
            pango,
            unicode_to_char_p,
        )
        from weasyprint.text.fonts import font_features, get_font_description
        from weasyprint.text.line_break import Layout
    except ImportError:
        return
    if getattr(Layout.setup, "printshop", False):
        return
    import inspect

    # the set-up this replaces, exactly as written against: otherwise it is left alone
    if _SETUP_DIGEST != _digest(inspect.getsource(Layout.setup)):
        return

    def made_for(style):
        """(context, language, description, decoration metrics) for `style`, made once."""
        made = style.__dict__.get("printshop_pango")
        if made is not None and made[0] is style.font_config.font_map:
            return made[1]
        context = ffi.gc(pango.pango_font_map_create_context(style.font_config.font_map),
                         gobject.g_object_unref)
        pango.pango_context_set_round_glyph_positions(context, False)
        pango.pango_context_set_base_dir(context, PANGO_DIRECTION[style["direction"]])
        if style["font_language_override"] != "normal":
            lang_p, lang = unicode_to_char_p(LST_TO_ISO.get(
                style["font_language_override"].lower(), style["font_language_override"]))
        elif style["lang"]:
            lang_p, lang = unicode_to_char_p(style["lang"])
        else:
            lang = None
            language = pango.pango_language_get_default()
        if lang:
            language = pango.pango_language_from_string(lang_p)
            pango.pango_context_set_language(context, language)
        description = get_font_description(style)
        metrics = None
        if style["text_decoration_line"] != "none":
            found = ffi.gc(pango.pango_context_get_metrics(context, description, language),
                           pango.pango_font_metrics_unref)
            metrics = tuple(
                FROM_UNITS * getter(found) for getter in (
                    pango.pango_font_metrics_get_ascent,
                    pango.pango_font_metrics_get_underline_position,
                    pango.pango_font_metrics_get_strikethrough_position,
                    pango.pango_font_metrics_get_underline_thickness,
                    pango.pango_font_metrics_get_strikethrough_thickness))
        features = font_features(
            style["font_kerning"], style["font_variant_ligatures"],
            style["font_variant_position"], style["font_variant_caps"],
            style["font_variant_numeric"], style["font_variant_alternates"],
            style["font_variant_east_asian"], style["font_feature_settings"])
        if features:
            features = ",".join(f"{key} {value}" for key, value in features.items()).encode()
        setup = (context, language, description, metrics, features)
        style.printshop_pango = (style.font_config.font_map, setup)
        return setup

    def setup(self, style):
        self.style = style
        self.first_line_direction = 0
        context, self.language, description, metrics, features = made_for(style)
        self.layout = ffi.gc(pango.pango_layout_new(context), gobject.g_object_unref)
        pango.pango_layout_set_auto_dir(self.layout, False)
        pango.pango_layout_set_font_description(self.layout, description)
        if metrics is not None:
            (self.ascent, self.underline_position, self.strikethrough_position,
             self.underline_thickness, self.strikethrough_thickness) = metrics
        else:
            self.ascent = None
            self.underline_position = None
            self.strikethrough_position = None
        if features:
            attr = style.font_config.font_features.setdefault(
                features, pango.pango_attr_font_features_new(features))
            attr_list = pango.pango_attr_list_new()
            pango.pango_attr_list_insert(attr_list, attr)
            pango.pango_layout_set_attributes(self.layout, attr_list)

    setup.printshop = True
    setup.original = Layout.setup
    Layout.setup = setup
    line_break.Layout = Layout


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


# sha256 of WeasyPrint 70.0's `Layout.setup` source, which `setup` above does the same as
_SETUP_DIGEST = "fb227a55094f41d42fbd57f180d8b7a9a1e741969ec8ddb3fd5cd80920257442"
