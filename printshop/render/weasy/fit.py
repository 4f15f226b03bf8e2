"""Finding content that does not fit its box, after layout.

Templates mark boxes that must hold their content with `data-fit="NAME"` (a character
sheet, a card's text area, a block of a reference sheet). After WeasyPrint has laid the
document out, a box overflows if any of its descendants reaches past its content box, or if
the element was split over more than one page. Products turn overflows into errors (or, for
cards, into a smaller font size and another try).

A marked box grows with its content, so on its own it cannot tell that it has run off the
end of a fixed-size column. An element marked `data-fit-frame="LABEL"` (a sheet's column, a
screen's panel) is such a limit: every marked box inside it that reaches past the frame's
content box is reported too, with the frame's label, so the message names the block that
does not fit rather than only its column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TOLERANCE_PX = 0.75  # sub-pixel rounding in WeasyPrint's layout


@dataclass(frozen=True)
class Overflow:
    name: str
    page: int
    how: str  # "bottom", "right" or "split"
    by_px: float = 0.0
    frame: str | None = None  # set when the box reaches past an enclosing data-fit-frame
    # the box's own content height ("bottom") or width ("right") that it overflowed by
    # by_px: how much too much its content is (card fitting predicts a size from it)
    extent_px: float = 0.0

    @property
    def by_mm(self) -> float:
        return self.by_px * 25.4 / 96

    def describe(self) -> str:
        if self.how == "split":
            return f"{self.name} runs over onto another page"
        side = "bottom" if self.how == "bottom" else "right edge"
        if self.frame:
            return f"{self.name} reaches past the {side} of {self.frame} by {self.by_mm:.1f} mm"
        return f"{self.name} overflows its {side} by {self.by_mm:.1f} mm"


def find_overflows(document) -> list[Overflow]:
    found: list[Overflow] = []
    pages_of: dict[str, set[int]] = {}
    for number, page in enumerate(document.pages, start=1):
        for box in page._page_box.descendants(placeholders=True):
            element = getattr(box, "element", None)
            if element is None or "::" in (box.element_tag or ""):
                continue
            name = element.get("data-fit") if hasattr(element, "get") else None
            if not name:
                continue
            pages_of.setdefault(name, set()).add(number)
            overflow = _box_overflow(box)
            if overflow:
                how, by = overflow
                found.append(Overflow(name, number, how, by,
                                      extent_px=box.height if how == "bottom" else box.width))
        found += _frame_overflows(page._page_box, number)
    split = {name for name, pages in pages_of.items() if len(pages) > 1}
    found = [o for o in found if o.name not in split]
    found += [Overflow(name, min(pages_of[name]), "split") for name in sorted(split)]
    return found


def _box_overflow(box):
    if not hasattr(box, "children"):
        return None
    bottom = box.content_box_y() + box.height
    right = box.content_box_x() + box.width
    worst_bottom, worst_right = bottom, right
    for child in box.descendants(placeholders=True):
        if child is box or getattr(child, "position_y", None) is None:
            continue
        if getattr(child, "height", None) in (None, "auto") or \
                getattr(child, "width", None) in (None, "auto"):
            continue
        try:  # border boxes: a trailing margin may legitimately hang past the end
            child_bottom = child.border_box_y() + child.border_height()
            child_right = child.border_box_x() + child.border_width()
        except (TypeError, AttributeError):
            continue
        worst_bottom = max(worst_bottom, child_bottom)
        worst_right = max(worst_right, child_right)
    if worst_bottom > bottom + TOLERANCE_PX:
        return "bottom", worst_bottom - bottom
    if worst_right > right + TOLERANCE_PX:
        return "right", worst_right - right
    return None


def _frame_overflows(page_box, number: int) -> list[Overflow]:
    """Marked boxes reaching past the content box of their nearest data-fit-frame ancestor."""
    found: list[Overflow] = []
    seen: set[int] = set()  # an element's first box is its own; later ones are anonymous
    stack: list[tuple[Any, tuple | None]] = [(page_box, None)]
    while stack:
        box, frame = stack.pop()
        element = getattr(box, "element", None)
        if element is not None and hasattr(element, "get") and id(element) not in seen \
                and "::" not in (box.element_tag or "") and hasattr(box, "children"):
            seen.add(id(element))
            name = element.get("data-fit")
            if name and frame is not None:
                overflow = _past_frame(box, frame)
                if overflow:
                    how, by = overflow
                    found.append(Overflow(name, number, how, by, frame=frame[0]))
            label = element.get("data-fit-frame")
            if label is not None:
                frame = (label or "its frame", box.content_box_y() + box.height,
                         box.content_box_x() + box.width)
        for child in reversed(getattr(box, "children", None) or ()):
            stack.append((child, frame))
    return found


def _past_frame(box, frame):
    _, bottom, right = frame
    try:
        box_bottom = box.border_box_y() + box.border_height()
        box_right = box.border_box_x() + box.border_width()
    except (TypeError, AttributeError):
        return None
    if box_bottom > bottom + TOLERANCE_PX:
        return "bottom", box_bottom - bottom
    if box_right > right + TOLERANCE_PX:
        return "right", box_right - right
    return None


# --- the book: anything past its column or the page -----------------------------------------

@dataclass(frozen=True)
class Outside:
    """A box of a chapter reaching past its column (or the page) by `by_px`."""

    source: str        # the chapter file (the section's data-source)
    line: int | None   # the Markdown line of the top-level block (data-line)
    page: int
    what: str          # "table", "image", "line of text" …
    how: str           # "right" or "bottom"
    frame: str         # "column" or "page"
    by_px: float

    @property
    def by_mm(self) -> float:
        return self.by_px * 25.4 / 96

    def describe(self) -> str:
        side = "right edge" if self.how == "right" else "bottom"
        return (f"a {self.what} runs {self.by_mm:.1f} mm past the {side} of its {self.frame} "
                f"(page {self.page})")


_WHAT = {"table": "table", "img": "image", "pre": "code block", "p": "paragraph",
         "li": "list item", "h1": "heading", "h2": "heading", "h3": "heading",
         "h4": "heading", "figure": "figure", "div": "block"}


def find_outside(document) -> list[Outside]:
    """Boxes inside an element marked `data-source` (a chapter) whose border box reaches
    past the column they sit in, or past the page's content area. The outermost such box is
    reported once, with the `data-line` of its nearest marked ancestor."""
    found: dict[tuple, Outside] = {}
    for number, page in enumerate(document.pages, start=1):
        page_box = page._page_box
        right = page_box.content_box_x() + page_box.width
        bottom = page_box.content_box_y() + page_box.height
        # (box, its right limit, the floor, "page" or "column", chapter, line, whether the
        # box is a column: its own height ends below its last child's bottom margin, which
        # may hang past the page where the text ends at its foot, cutting nothing off)
        stack = [(child, right, bottom, "page", None, None, False)
                 for child in reversed(page_box.children or ())
                 if type(child).__name__ != "MarginBox"]
        last_line = None  # an unmarked block (raw HTML) follows the last marked one
        while stack:
            box, limit, floor, frame, source, line, column = stack.pop()
            element = getattr(box, "element", None)
            if element is not None and hasattr(element, "get") and \
                    "::" not in (getattr(box, "element_tag", "") or ""):
                if element.get("data-source"):
                    source, last_line = element.get("data-source"), None
                if element.get("data-line"):
                    line = last_line = element.get("data-line")
            line = line or last_line
            width = getattr(box, "width", None)
            # blocks and lines only: an inline box may hang a little past its line (a code
            # span's padding, a tall glyph) without anything being cut off
            if source and not column and isinstance(width, (int, float)) and \
                    _block_or_line(box) and getattr(box, "position_y", None) is not None:
                try:
                    box_right = box.border_box_x() + box.border_width()
                    box_bottom = box.border_box_y() + box.border_height()
                except (TypeError, AttributeError):
                    box_right = box_bottom = None
                if box_right is not None and (box_right > limit + 1 or
                                              box_bottom > floor + 1):
                    how = "right" if box_right > limit + 1 else "bottom"
                    by = box_right - limit if how == "right" else box_bottom - floor
                    tag = getattr(box, "element_tag", "") or ""
                    what = "line of text" if type(box).__name__ == "LineBox" else \
                        _WHAT.get(tag, tag or "box")
                    key = (source, line, how)
                    if key not in found or found[key].by_px < by:
                        found[key] = Outside(source, int(line) if line else None, number,
                                             what, how, frame, by)
                    continue  # its contents overflow with it: one report
            children = getattr(box, "children", None) or ()
            multicol = _is_multicol(box)
            for child in reversed(children):
                if multicol and _is_column(child, box):
                    column_right = child.content_box_x() + child.width
                    stack.append((child, column_right, floor, "column", source, line, True))
                else:
                    stack.append((child, limit, floor, frame, source, line, False))
    return sorted(found.values(), key=lambda o: (o.source, o.line or 0, o.page))


def _block_or_line(box) -> bool:
    from weasyprint.formatting_structure import boxes

    return isinstance(box, (boxes.BlockLevelBox, boxes.LineBox))


def _is_multicol(box) -> bool:
    style = getattr(box, "style", None)
    if style is None:
        return False
    try:
        return style["column_count"] not in ("auto", None, 1) or \
            style["column_width"] not in ("auto", None)
    except (KeyError, TypeError):
        return False


def _is_column(child, parent) -> bool:
    """WeasyPrint lays a multi-column box's content out in anonymous boxes, one a column;
    a box spanning all columns (column-span: all) is its own element's box instead."""
    return getattr(child, "element", None) is getattr(parent, "element", None) and \
        isinstance(getattr(child, "width", None), (int, float))
