"""A run of columns laid out once, not twice, where that changes nothing.

WeasyPrint 70 finds a run of columns' height by laying the columns out at trial heights
(every column of a try at the first column's place, in one shared box), then, at the
height found, lays every column out once more, each where it is drawn: the final layout.
The last try is made at that height from the same breaks, so the final layout repeats it;
on a page the columns fill (most pages of a chapter) that is half of the page's layout
time, a sixth of the guide's.

`ColumnTrial` keeps the last try's columns for the final layout to take, when nothing
that differs between the two could make them differ:

* where the columns are: a try lays each column out where the final layout will, in a box
  of its own made as the final layout makes it. The place of a column changes its layout
  only through floats (their excluded shapes), so this is done only when none can be in
  the way: none on the page before the columns, none among the columns' content, and the
  columns run left to right (WeasyPrint's first column is then where its try put it);
  otherwise the try is WeasyPrint's own and nothing is kept;
* how it was laid out: the final layout takes a kept column only when it would lay that
  column out from the same break, with the same space below and the same `page_is_empty`;
  a try at the chosen height after a balancing search (render/weasy/column_balance.py) is
  laid out with the final layout's `page_is_empty`, so it can be taken;
* what a layout remembers: a grid container keeps state from one layout to the next
  (`history_matters`): columns holding one keep WeasyPrint's own tries;
* what a layout leaves behind: a try's columns are thrown away with
  `remove_placeholders` (its footnotes, running elements, pieces broken out of flow): a
  try that made any of these keeps nothing. Its absolutely positioned boxes (a list's
  markers) go into lists of the try's own, and a column taken hands its boxes on to the
  final layout's lists, as laying it out again would have added them.

Every product of the kit comes out byte for byte the same.
"""

from __future__ import annotations

_MISSING = object()


def _looked_at(context, children) -> tuple[bool, bool]:
    """(floats or footnotes among the columns' content, grid containers among it): the same
    run's tries ask about the same children, looked at once."""
    from weasyprint.formatting_structure.boxes import GridContainerBox

    seen = getattr(context, "printshop_columns_content", None)
    if seen is not None and seen[0] is children:
        return seen[1]
    floats = grids = False
    for child in children:
        for box in child.descendants():
            floats = floats or box.style["float"] != "none" or box.footnote is not None
            grids = grids or isinstance(box, GridContainerBox)
    context.printshop_columns_content = (children, (floats, grids))
    return floats, grids


def _floats_possible(context, children, direction) -> bool:
    return bool(context.excluded_shapes) or direction != "ltr" or \
        _looked_at(context, children)[0]


def history_matters(context, children) -> bool:
    """Whether laying the columns' content out depends on the layouts made before, so that
    only WeasyPrint's own sequence of layouts makes WeasyPrint's columns: a grid container
    keeps where its items were broken (`advancements`) from one layout to the next, and
    whether it fits is then not monotonic in the height tried (WeasyPrint's own test
    `test_grid_in_columns`). Such runs are balanced WeasyPrint's way, a pixel a layout, and
    nothing is taken from a try (render/weasy/column_balance.py)."""
    return _looked_at(context, children)[1]


class ColumnTrial:
    """One try of a run of columns: the boxes to lay its columns out in, and the columns
    the final layout may take from it."""

    MISSING = _MISSING

    def __init__(self, context, bottom_space, page_is_empty, children, direction):
        self.context = context
        self.bottom_space, self.page_is_empty = bottom_space, page_is_empty
        # column → its absolutely positioned and fixed boxes (list markers, say): the
        # final layout hands them on to be laid out, as its own would be
        self.out_of_flow: dict[int, tuple[list, list]] = {}
        self.own_places = not _floats_possible(context, children, direction) and \
            not history_matters(context, children)
        self.places: dict[int, tuple] = {}     # column → (x, y) of its box, before layout
        self.kept: dict[int, tuple] = {}

    def column_box(self, index, shared, make, width, gap):
        """The box to lay column `index` of this try out in: WeasyPrint's shared box at
        the first column's place, or one of its own where the final layout puts it."""
        if not self.own_places:
            return shared
        box = make()
        box.position_x += index * (width + gap)   # as the final layout places it
        self.places[index] = (box.position_x, box.position_y)
        return box

    def lists(self, index) -> tuple[list, list]:
        """The lists column `index` of the try puts its out-of-flow boxes in."""
        lists: tuple[list, list] = ([], [])
        self.out_of_flow[index] = lists
        return lists

    def keep(self, index, start, new_box, resume_at, next_page) -> None:
        """Column `index`, laid out from the break `start`, for the final layout."""
        place = self.places.get(index)
        if place is None or new_box is None:
            return
        if self.context.excluded_shapes or _leaves_placeholders(self.context, new_box):
            self.kept.clear()   # a try that leaves anything behind is not taken from
            self.places.clear()
            return
        self.kept[index] = (*place, start, new_box, resume_at, next_page)

    def take(self, index, column_box, bottom_space, skip_stack, page_is_empty,
             absolute_boxes, fixed_boxes):
        """The kept column `index` if the final layout would lay it out just as it was:
        (box, resume_at, next_page), its out-of-flow boxes added to the final layout's
        lists; or (MISSING, None, None)."""
        kept = self.kept.get(index)
        if kept is None:
            return _MISSING, None, None
        x, y, start, new_box, resume_at, next_page = kept
        if (x, y) != (column_box.position_x, column_box.position_y) or \
                bottom_space != self.bottom_space or \
                bool(page_is_empty) != bool(self.page_is_empty) \
                or start != skip_stack:
            return _MISSING, None, None
        del self.kept[index]
        absolute, fixed = self.out_of_flow[index]
        absolute_boxes.extend(absolute)
        fixed_boxes.extend(fixed)
        return new_box, resume_at, next_page


def _leaves_placeholders(context, box) -> bool:
    """Whether `remove_placeholders` would have anything to undo in the column `box` (its
    absolutely positioned boxes went into lists of the try's own)."""
    broken = context.broken_out_of_flow
    return any(child.footnote is not None or child.note is not None or child in broken
               for child in box.descendants())
