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

TOLERANCE_PX = 0.75  # sub-pixel rounding in WeasyPrint's layout


@dataclass(frozen=True)
class Overflow:
    name: str
    page: int
    how: str  # "bottom", "right" or "split"
    by_px: float = 0.0
    frame: str | None = None  # set when the box reaches past an enclosing data-fit-frame

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
                found.append(Overflow(name, number, how, by))
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
    stack = [(page_box, None)]
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
