"""What WeasyPrint 70 works out again and again from the same inputs, worked out once.

Laying a page out, WeasyPrint tries things: a run of columns at several heights
(render/weasy/column_balance.py), a table's cells at their narrowest and widest, a paragraph's
lines once to measure and once to place. Each try redoes work whose inputs did not change:

* **line splits**: `split_first_line` (Pango's shaping and line breaking) depends only on
  the text, the style, the width and its two flags; 40 % of the guide's calls repeat one.
  Each layout context keeps its splits, and each caller gets a copy of the (inactive)
  Pango layout holder, as from a fresh call, since drawing an ellipsis changes its text;
* **Pango set-ups**: every `Layout` (each line tried, each line drawn) made a Pango context
  and a font description from its style. Each style keeps its context and description
  (Pango contexts are shared between layouts by design; nothing changes them after their
  set-up), and the metrics a text decoration reads.

Three more memos were measured and dropped (issue 27: keep only what pays): the used
lengths `resolve_percentages` sets (0.8 % of the kit's CPU, and a copy of 18 attributes a
later WeasyPrint could add to), each style attribute's text parsed once a document
(1.4 % of three card decks' CPU), and a table cell's min- and max-content widths kept
across a worker's documents (a chapter tried a fit step tighter measured no cell again,
but the guide's cold build took 1.01x the CPU with it, 10 pairs: its key costs what it
saves); bench/BASELINE.md has the figures.

Styles are copied (`Style.copy`), never changed in place, where layout needs another value
(flex and grid items, first lines), and a copy starts without its Pango set-up. Every
product of the kit comes out byte for byte the same with and without these. Each is a patch of
render/weasy/registry.py: installed only on the WeasyPrint source it was written against.
"""

from __future__ import annotations

import copy

from printshop.render.weasy.registry import Patch


def _line_splits():
    from weasyprint.layout import inline, preferred

    original = inline.split_first_line

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

    return [(inline, "split_first_line", split_first_line),
            (preferred, "split_first_line", split_first_line)]


LINE_SPLITS = Patch(
    name="line-splits",
    kind="speed",
    targets={"weasyprint.text.line_break.split_first_line": "39ad1016863ca34d"},
    why="a paragraph's lines are split again for every try of its layout (column heights, "
        "table widths, measuring then placing): 40 % of the guide's splits repeat one",
    gain="3.7 % of the guide's cold-build CPU",
    install=_line_splits,
)


def _pango_setups():
    from weasyprint.text.constants import LST_TO_ISO, PANGO_DIRECTION
    from weasyprint.text.ffi import FROM_UNITS, ffi, gobject, pango, unicode_to_char_p
    from weasyprint.text.fonts import font_features, get_font_description
    from weasyprint.text.line_break import Layout

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

    return [(Layout, "setup", setup)]


PANGO_SETUPS = Patch(
    name="pango-setups",
    kind="speed",
    # `setup` above does what WeasyPrint's does, its context and description made once
    targets={"weasyprint.text.line_break.Layout.setup": "fb227a55094f41d4"},
    why="every Pango layout (each line tried, each line drawn) made a Pango context and a "
        "font description from its style",
    gain="13.0 % of the kit's cold-build CPU",
    install=_pango_setups,
)
