"""Tables wider than a text column: measured from their text before layout.

A table whose columns cannot share a text column of a two-column page spans the page
(`wide`, column-span: all), in one box with the heading right above it, if any: WeasyPrint
keeps a heading with what follows it by breaking before the heading, which it does not do
between blocks that span the columns, so a spanning heading stayed alone at a page's foot
with its table on the next ("Seasonal Weather" in Cairn). If its text is still too wide for
the page, its type steps down
(`size-1` … `size-4`, a floor of 6.2 pt), and at the floor its cells may wrap anywhere
(`wrap-cells`). The figures are characters of the table face at 8.6 pt: about 62 fit a
column of a two-column Letter or A4 page, about 130 the page. Whatever still does not fit is
caught after layout (render/weasy/fit.py) and reported at the table's line.

A header row with nothing in it is left out. Markdown tables must have one, so a table
meant to have none is written with an empty one (Cairn's roll tables, with their column
names in bold in the first row): printed, it was a bar of the header's colour above the
table and again at the top of each column the table ran on to.
"""

from __future__ import annotations

COLUMN_CHARS = 62
PAGE_CHARS = 130
CELL_PADDING_CHARS = 2
SIZES = (8.6, 8.0, 7.4, 6.8, 6.2)  # size-0 (book.css) … size-4, the floor
NATURAL_CAP = 28  # a cell longer than this wraps happily over several lines


def use(md) -> None:
    md.core.ruler.push("empty_table_headers", _drop_empty_headers)
    md.core.ruler.push("wide_tables", _measure_rule)
    md.add_render_rule("table_open", _render_open)
    md.add_render_rule("table_close", _render_close)
    md.add_render_rule("heading_open", _render_heading_open)


def _render_open(self, tokens, idx, options, env):
    # WeasyPrint spans a block across the columns, not a bare table: wrap it
    meta = tokens[idx].meta or {}
    if meta.get("wrapped"):   # (opened before its heading)
        return self.renderToken(tokens, idx, options, env)
    wide = " wide" if meta.get("wide") else ""
    return f'<div class="md-table{wide}">\n' + self.renderToken(tokens, idx, options, env)


def _render_heading_open(self, tokens, idx, options, env):
    opens = '<div class="md-table wide">\n' if (tokens[idx].meta or {}).get("opens_table") \
        else ""
    return opens + self.renderToken(tokens, idx, options, env)


def _render_close(self, tokens, idx, options, env):
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


def classify(rows: list[list[str]]) -> list[str]:
    """Classes for a table of these cell texts."""
    if not rows:
        return []
    columns = max(len(r) for r in rows)
    natural = [0] * columns  # the width each column would like (capped)
    longest = [0] * columns  # its longest word: the narrowest it can be without breaking
    for row in rows:
        for n, cell in enumerate(row):
            words = cell.split() or [""]
            natural[n] = max(natural[n], min(len(cell), NATURAL_CAP))
            longest[n] = max(longest[n], max(len(w) for w in words))
    pad = CELL_PADDING_CHARS * columns
    wanted = sum(natural) + pad
    minimum = sum(longest) + pad
    classes: list[str] = []
    if wanted <= COLUMN_CHARS and columns <= 5:
        return classes
    classes.append("wide")
    # the type size at which the table's natural width fits the page, to the floor
    step = next((n for n, size in enumerate(SIZES) if wanted * size / SIZES[0] <= PAGE_CHARS),
                len(SIZES) - 1)
    if step:
        classes.append(f"size-{step}")
    if max(minimum, wanted) * SIZES[step] / SIZES[0] > PAGE_CHARS:
        classes.append("wrap-cells")
    return classes


def _drop_empty_headers(state):
    tokens = state.tokens
    for start in range(len(tokens) - 1, -1, -1):
        if tokens[start].type != "thead_open":
            continue
        end = next(i for i in range(start, len(tokens)) if tokens[i].type == "thead_close")
        cells = [t for t in tokens[start:end] if t.type == "inline"]
        if all(not t.content.strip() for t in cells):
            del tokens[start:end + 1]


def _measure_rule(state):
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "table_open":
            continue
        rows: list[list[str]] = []
        for t in tokens[i + 1:]:
            if t.type == "table_close":
                break
            if t.type == "tr_open":
                rows.append([])
            elif t.type == "inline" and rows:
                rows[-1].append(_text(t))
        classes = classify(rows)
        token.meta = {**(token.meta or {}), "wide": "wide" in classes}
        if "wide" in classes and i >= 3 and tokens[i - 1].type == "heading_close" and \
                tokens[i - 3].tag != "h1":
            # the table's heading goes with it, across the page, in its box (not a
            # chapter's title: the chapter opens with it, across the page already)
            tokens[i - 3].meta = {**(tokens[i - 3].meta or {}), "opens_table": True}
            token.meta["wrapped"] = True
        classes = [c for c in classes if c != "wide"]
        if classes:
            existing = token.attrGet("class")
            token.attrSet("class", " ".join(filter(None, [existing, *classes])))


def _text(inline) -> str:
    if not inline.children:
        return inline.content
    return "".join(c.content for c in inline.children if c.type in ("text", "code_inline"))
