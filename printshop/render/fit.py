"""Finding content that does not fit its box, after layout.

Templates mark boxes that must hold their content with `data-fit="NAME"` (a character
sheet, a card's text area, a block of a reference sheet). After WeasyPrint has laid the
document out, a box overflows if any of its descendants reaches past its content box, or if
the element was split over more than one page. Products turn overflows into errors (or, for
cards, into a smaller font size and another try).
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

    def describe(self) -> str:
        if self.how == "split":
            return f"{self.name} runs over onto another page"
        mm = self.by_px * 25.4 / 96
        side = "bottom" if self.how == "bottom" else "right edge"
        return f"{self.name} overflows its {side} by {mm:.1f} mm"


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
