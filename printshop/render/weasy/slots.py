"""Where the `data-slot` elements of a laid-out document are (render/pdf/layers.py draws
sheets in layers with them): read from WeasyPrint's box tree, in the worker."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Slot:
    x: float        # border box, CSS px from the page's top left corner
    y: float
    width: float
    height: float
    top: float       # margin box top (position_y) and margin-top: spacers copy them
    margin_top: float
    margin_height: float
    content_x: float
    content_y: float
    content_width: float
    line_y: float | None = None      # the first line box (stamps are aligned on it)
    lines: tuple[float, ...] = ()    # the heights of its line boxes
    chain: tuple[tuple[str, str], ...] = ()   # (tag, class) from <body> down (stamps)
    tag: str = ""    # the slot's own element (stamps only)
    cls: str = ""
    content_height: float = 0.0   # stacking a sheet's lists (products/characters/lists.py)
    margin_width: float = 0.0


def _walk(box, chain, out, page):
    box = getattr(box, "_box", box)   # an absolutely placed box's placeholder
    element = getattr(box, "element", None)
    tag = box.element_tag or ""
    if element is not None and "::" not in tag and hasattr(element, "get"):
        name = element.get("data-slot")
        if name and name not in out:
            out[name] = _slot(box, chain if element.get("data-stamp") is not None else ())
    for child in getattr(box, "children", ()):
        child_element = getattr(getattr(child, "_box", child), "element", None)
        if child_element is not None and child_element is not element and \
                hasattr(child_element, "get"):
            tag_name = child_element.tag.rsplit("}", 1)[-1] if isinstance(
                child_element.tag, str) else ""
            below = chain + ((tag_name, child_element.get("class") or ""),) \
                if tag_name not in ("html",) else chain
        else:
            below = chain
        _walk(child, below, out, page)


def _lines(box):
    from weasyprint.formatting_structure.boxes import LineBox

    found = []
    for child in box.descendants():
        if isinstance(child, LineBox):
            found.append(child)
    return found


def _slot(box, chain) -> Slot:
    lines = _lines(box)
    return Slot(
        x=box.border_box_x(), y=box.border_box_y(), width=box.border_width(),
        height=box.border_height(), top=box.position_y, margin_top=box.margin_top or 0,
        margin_height=box.margin_height(), content_x=box.content_box_x(),
        content_y=box.content_box_y(), content_width=box.width,
        line_y=lines[0].position_y if lines else None,
        lines=tuple(round(line.height, 3) for line in lines), chain=chain[:-1],
        tag=chain[-1][0] if chain else "", cls=chain[-1][1] if chain else "",
        content_height=box.height, margin_width=box.margin_width())


def slot_from_dict(data: dict) -> Slot:
    """A Slot back from `dataclasses.asdict` (JSON turned its tuples into lists)."""
    return Slot(**dict(data, lines=tuple(data["lines"]),
                       chain=tuple(tuple(link) for link in data["chain"])))


def slot_geometry(document) -> list[dict[str, Slot]]:
    """Every `data-slot` element's geometry, page by page (the first box of each)."""
    pages = []
    for page in document.pages:
        found: dict[str, Slot] = {}
        _walk(page._page_box, (), found, page)
        pages.append(found)
    return pages
