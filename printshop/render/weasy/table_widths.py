"""A table's column widths carried from one layout of a document to the next, where the
two differ in nothing that can change them.

The book lays a chapter out a fit step tighter by adding a class to its flows
(products/book/fit.py): the step's rules set a little less space above and below things
and a little less leading, nothing that makes a cell wider or narrower. Yet every layout
measured each table's cells again at their narrowest and widest (WeasyPrint's
`table_and_columns_preferred_widths`: a Pango layout of each word of each cell at width
0, and of each cell's text at full length): the guide's Appendix holds 23 tables of 2,137
cells, a quarter of the CPU of each of its layouts, laid out at step 0 and again at
step 1 in every cold build.

The book says which layouts may share their tables' widths by a token (`shared`): two
layouts under the same token are of the same document (the same text, stylesheets,
fonts, first page and build) but for a fit step whose rules it has checked set only
vertical properties (`products/book/fit.widths_unchanged`). The worker keeps, under the
token, each table's widths as WeasyPrint worked them out the first time: a table is
known by its place among the document's tables as its boxes are built (box-tree order,
anonymous tables included) and by the shape of its grid; what WeasyPrint returns besides
the widths (the grid of cells) is made from the table at hand. A table found in no
such place (a copy made while splitting it), and every table of a document without a
`<table>` element, is measured as WeasyPrint measures it.
Without a token (every product but the book's parts), WeasyPrint's own function runs.
"""

from __future__ import annotations

import contextlib
import copy
from collections import OrderedDict
from contextvars import ContextVar

from printshop.render.weasy.registry import Patch

# the layouts of one part's fit steps follow each other; a few families are enough for a
# worker that lays out parts of two books in turn
FAMILIES = 6

_token: ContextVar[str] = ContextVar("printshop_table_widths", default="")
_families: OrderedDict[str, dict] = OrderedDict()   # token → {table's key → its widths}
stats = {"measured": 0, "carried": 0}   # tables measured by WeasyPrint, carried (tests)


@contextlib.contextmanager
def shared(token: str):
    """Layouts made inside share their tables' widths with the earlier ones made under
    the same `token` ("" shares nothing)."""
    reset = _token.set(token)
    try:
        yield
    finally:
        _token.reset(reset)


def forget() -> None:
    _families.clear()


def _grid(table) -> list[list]:
    """The table's cells on their grid (rows of columns, None where no cell starts), as
    WeasyPrint's function makes it."""
    width = height = row_number = 0
    for group in table.children:
        for row in group.children:
            for cell in row.children:
                width = max(cell.grid_x + cell.colspan, width)
                height = max(row_number + cell.rowspan, height)
            row_number += 1
    grid: list[list] = [[None] * width for _ in range(height)]
    row_number = 0
    for group in table.children:
        for row in group.children:
            for cell in row.children:
                grid[row_number][cell.grid_x] = cell
            row_number += 1
    return grid


def _places(root_box) -> dict[int, int]:
    """id of each table box of the document → its place among them, in box-tree order."""
    from weasyprint.formatting_structure.boxes import TableBox

    places: dict[int, int] = {}
    for box in root_box.descendants():
        if isinstance(box, TableBox):
            places[id(box)] = len(places)
    return places


def _install():
    from weasyprint import document
    from weasyprint.layout import preferred
    from weasyprint.layout import table as table_layout

    measure = preferred.table_and_columns_preferred_widths
    build = document.build_formatting_structure

    def build_formatting_structure(element_tree, style_for, *args, **kwargs):
        root_box = build(element_tree, style_for, *args, **kwargs)
        if _token.get() and next(element_tree.iter("table"), None) is not None:
            # the tables' places read from the boxes as built, before any layout (4 ms for
            # the Appendix); the layout context holds `style_for`
            style_for.printshop_tables = _places(root_box)
        return root_box

    def table_and_columns_preferred_widths(context, box, outer=True):
        token = _token.get()
        table = box.get_wrapped_table()
        places = getattr(context.style_for, "printshop_tables", None)
        if not token or places is None or context.tables.get(table):
            return measure(context, box, outer)
        place = places.get(id(table))
        grid = _grid(table)
        if place is None or not grid or not grid[0]:
            return measure(context, box, outer)
        key = (place, len(grid), tuple((cell.grid_x, cell.colspan, cell.rowspan)
                                       for row in grid for cell in row if cell is not None))
        family = _families.get(token)
        if family is None:
            family = _families[token] = {}
            while len(_families) > FAMILIES:
                _families.popitem(last=False)
        else:
            _families.move_to_end(token)
        widths = family.get(key)
        if widths is None:
            stats["measured"] += 1
            result = measure(context, box, outer)
            family[key] = {side: copy.deepcopy(found[:-1])
                           for side, found in context.tables[table].items()}
            return result
        stats["carried"] += 1
        columns = list(zip(*grid))
        context.tables[table] = carried = {side: (*copy.deepcopy(found), columns)
                                           for side, found in widths.items()}
        return carried[outer]

    return [(document, "build_formatting_structure", build_formatting_structure),
            (preferred, "table_and_columns_preferred_widths",
             table_and_columns_preferred_widths),
            (table_layout, "table_and_columns_preferred_widths",
             table_and_columns_preferred_widths)]


PATCH = Patch(
    name="table-widths",
    kind="speed",
    targets={"weasyprint.layout.preferred.table_and_columns_preferred_widths": "1624962c403d0d26",
             "weasyprint.document.build_formatting_structure": "cec02c4844472c92"},
    why="a chapter laid out again a fit step tighter has every table's cells measured "
        "again at their narrowest and widest, though the step changes no width",
    gain="5.9 % of the guide's cold-build CPU",
    install=_install,
)
