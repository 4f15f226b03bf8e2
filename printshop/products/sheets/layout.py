"""Where things go on a reference sheet, a screen or a page of class cards: the geometry of
columns, fold panels and card cells in millimetres, and the name every fitted box is reported
by. The reference product composes these views with its templates."""

from __future__ import annotations

import math
from dataclasses import dataclass

from printshop.errors import display_path
from printshop.source.sheets import Sheet

# Page geometry in millimetres. Home and office printers leave 4–6 mm unprinted at the edges.
MARGIN = 8.0
HEADER = 11.0
FOOTER = 5.0
COLUMN_GAP = 5.0
PANEL_PADDING = 7.0   # each side of a screen panel; the fold runs down the middle of the gap
CARD_PADDING = 7.0


@dataclass(frozen=True)
class Place:
    path: str
    line: int | None
    what: str   # "block 'Shield Bash' (page 1, column 2)"
    page: int | None = None      # set for a whole page's box
    hint: str = "move it to another column or page, or shorten it"


def layout_pages(sheet: Sheet, tables, width: float, height: float):
    """Pages → columns (with their size in mm) → blocks, ready for the template."""
    fold = sheet.layout.fold_lines
    fit_names: dict[str, Place] = {}
    places = {id(block): place for place, block in sheet.blocks()}
    view = []
    for p, page in enumerate(sheet.layout.pages or [], start=1):
        count = len(page.columns)
        column_height = height - 2 * MARGIN - HEADER - FOOTER
        if fold:
            # Equal panels, so the folds fall at the same places on both sides of the sheet.
            widths = [width / count - 2 * PANEL_PADDING] * count
            lefts = [i * width / count + PANEL_PADDING for i in range(count)]
            folds = [i * width / count for i in range(1, count)]
        else:
            usable = width - 2 * MARGIN - COLUMN_GAP * (count - 1)
            total = sum(c.width for c in page.columns)
            widths = [usable * c.width / total for c in page.columns]
            lefts, x = [], MARGIN
            for w in widths:
                lefts.append(x)
                x += w + COLUMN_GAP
            folds = []
        columns = []
        previous_end = 0.0
        for c, column in enumerate(page.columns, start=1):
            blocks = []
            for b, block in enumerate(column.blocks, start=1):
                place = places[id(block)]
                title = block.title
                items = []
                for i, item in enumerate(block.items):
                    caption = item.caption
                    if title is None and i == 0 and item.table is not None:
                        title = tables[item.table].title
                        caption = False  # the block's heading already says it
                    items.append({"table": item.table, "text": item.text,
                                  "caption": caption, "description": item.description,
                                  "notes": item.notes})
                key = f"{sheet.id}-p{p}-c{c}-b{b}"
                where = "panel" if fold else "column"
                fit_names[key] = Place(display_path(sheet.path), place.line,
                                        f"block '{title or 'untitled'}' "
                                        f"(page {p}, {where} {c})")
                blocks.append({"key": key, "title": title, "contents": items})
            columns.append({"number": c, "offset": lefts[c - 1] - previous_end,
                            "width": widths[c - 1],
                            "height": column_height, "blocks": blocks,
                            "label": f"{'panel' if fold else 'column'} {c}"})
            previous_end = lefts[c - 1] + widths[c - 1]
        page_key = f"{sheet.id}-p{p}"
        line = sheet.doc.pos(("pages", p - 1)).line
        fit_names[page_key] = Place(display_path(sheet.path), line,
                                     f"page {p} ('{page.title}')", page=p)
        heading = Place(display_path(sheet.path), line, f"the heading of page {p}",
                         hint="shorten the sheet's or the page's title")
        fit_names[f"{page_key}-head"] = heading
        for c in range(1, len(page.columns) + 1):
            fit_names[f"{page_key}-head{c}"] = heading
        view.append({"number": p, "key": page_key, "title": page.title, "side": page.side,
                     "columns": columns, "folds": folds,
                     "count": len(sheet.layout.pages or [])})
    return view, fit_names

def card_pages(sheet: Sheet, project, width: float, height: float):
    """Class cards laid out `per_page` to a page, with cut lines between them."""
    classes = project.classes
    by_id = {c.id: c for c in classes.classes}
    ids = sheet.card_class_ids(list(by_id))
    layout = sheet.layout.cards
    assert layout is not None    # (a sheet of class cards)
    per_page = layout.per_page
    across, down = {1: (1, 1), 2: (1, 2), 4: (2, 2)}[per_page]
    if sheet.layout.orientation == "landscape" and per_page == 2:
        across, down = 2, 1
    cell_w, cell_h = width / across, height / down
    ranks = rows_by(project.tables.get("attack-ranks"), "rank", "bonus")
    qualities = rows_by(project.tables.get("save-qualities"), "quality", "bonus")
    line = sheet.doc.pos(("cards",)).line
    fit_names: dict[str, Place] = {}
    pages = []
    page_count = math.ceil(len(ids) / per_page)
    for p in range(page_count):
        cards: list[dict] = []
        for slot, class_id in enumerate(ids[p * per_page:(p + 1) * per_page]):
            cls = by_id[class_id]
            key = f"{sheet.id}-{cls.id}"
            fit_names[key] = Place(display_path(sheet.path), line,
                                    f"class card '{cls.name}'",
                                    hint="shorten its reminders in tables/classes.yaml, "
                                         "or print fewer cards a page")
            cards.append({
                "key": key, "cls": cls,
                "left": (slot % across) * cell_w, "top": (slot // across) * cell_h,
                "width": cell_w, "height": cell_h, "padding": CARD_PADDING,
                "rank_bonus": ranks.get(cls.attack_rank),
                "saves": [{"quality": q.title(), "bonus": qualities.get(q.title()),
                           "saves": getattr(cls.saves, q)}
                          for q in ("good", "okay", "bad") if getattr(cls.saves, q)],
            })
        cuts_x = [i * cell_w for i in range(1, across)]
        cuts_y = [i * cell_h for i in range(1, down)]
        pages.append({"number": p + 1, "count": page_count, "cards": cards,
                      "per_page": per_page,
                      "cuts_x": cuts_x, "cuts_y": cuts_y})
    return pages, fit_names, page_count


def rows_by(table, key: str, value: str) -> dict:
    if table is None:
        return {}
    keys = {c.key for c in table.columns}
    if key not in keys or value not in keys:
        return {}
    return {row.get(key): row.get(value) for row in table.rows}
