"""The book's page flow, read from the laid-out boxes: what a layout artist would send back.

After a book (or a part of it) is laid out, each page is looked at for

* a **stranded heading**: a heading or table caption at the foot of a column (or a page)
  with at most `STRANDED_LINES` lines of what it heads below it, the rest in the next
  column;
* a **near-empty page**: the last page of a chapter (or of the contents) that holds only a
  few lines (filled less than `NEAR_EMPTY`), when the chapter has more pages;
* a **column hole**: in the middle of a chapter, a column (a page, in one column) that
  stops more than `HOLE` of the page's height short of its foot, because what came next
  did not fit there (`HOLE_BEFORE_HEADING` when that is a new section, kept with its
  heading);
* a **cover** (the book's title page) that runs onto a second page.

The top-level sections of the book's body are its flows: the contents (`nav`), each
chapter (marked `data-source` with its Markdown file) and the colophon. `find_flow` runs
in the render worker, where the boxes are (a job's `PageCheck`, render/checks.py); each
finding comes back in `PageCheck.flow(result)` with its page numbered as in the book
(`RenderJob.first_page`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

STRANDED_LINES = 2     # a heading with this many lines or fewer under it at a column's foot
NEAR_EMPTY = 0.25      # a chapter's last page filled less than this is near-empty
HOLE = 1 / 3           # a column stopping this much of the page's height short is a hole
# … unless what did not fit there starts a new section: a heading kept with what it heads
# may leave up to this much
HOLE_BEFORE_HEADING = 1 / 2
PAGE_FOOT = -1.0        # (a stranded finding's `fill`: at the foot of the page, not a column)
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6", "figcaption"}
_HEADING_CLASSES = {"ability-name", "box-title", "box-label"}


@dataclass(frozen=True)
class FlowFinding:
    kind: str            # "stranded", "near-empty", "hole" or "cover"
    page: int            # the page's number (in a part of a book: the book's)
    flow: str            # the chapter's title ("Contents", "Colophon")
    source: str | None   # the chapter's file (data-source), None for the front matter
    line: int | None     # the heading's Markdown line (data-line), if any
    what: str            # the heading's text; how much the page or column holds
    fill: float = 0.0    # near-empty: how much of the page is used; hole: the room left

    def describe(self) -> str:
        if self.kind == "cover":
            return f"page {self.page}: the title page takes {self.what}, not one"
        if self.kind == "stranded":
            where = "the page" if self.fill == PAGE_FOOT else "a column"
            return (f"page {self.page}: the heading \"{self.what}\" is stranded at the foot "
                    f"of {where}, away from what it heads")
        if self.kind == "near-empty":
            return (f"page {self.page}: \"{self.flow}\" ends on a page of {self.what} "
                    f"({self.fill:.0%} of the page)")
        return (f"page {self.page}: {self.what} stops {self.fill:.0%} of the page short "
                f"of its foot in \"{self.flow}\" (what follows did not fit there)")


@dataclass
class _Region:
    """A column of a page (or the page, for a flow in one column)."""

    top: float
    boxes: list            # the boxes laid out in it, in order
    column: int = 0        # 1, 2 … in a multi-column page; 0: one column
    of: int = 1            # how many columns the flow has (a page may lay out fewer)
    last_of_segment: bool = True   # no part of the flow spanning the columns below it
    bottom: float = 0.0    # where its content ends (set by _measure)
    rows: list | None = None   # (top, bottom) of each row of text, once (by _measure)


def find_flow(document, first_page: int = 1) -> list[FlowFinding]:
    """Stranded headings, near-empty last pages and column holes of `document`'s flows,
    its pages numbered from `first_page` (a part of a book: its first page's number)."""
    pages = []      # page number → {flow element: (name, source, regions, top, height)}
    last_page: dict = {}
    first_seen: dict = {}
    for number, page in enumerate(document.pages, start=1):
        page_box = page._page_box
        top, height = page_box.content_box_y(), page_box.height
        flows = {}
        for flow_box in _flow_boxes(page_box):
            element = flow_box.element
            regions = _regions(flow_box)
            for region in regions:
                _measure(region)
            if not any(region.rows for region in regions):
                continue     # an empty copy of the next part's section, a blank page
            flows[element] = (_flow_name(element), element.get("data-source"), regions, top,
                              height)
            first_seen.setdefault(element, number)
            last_page[element] = number
        pages.append(flows)

    found: list[FlowFinding] = []
    parents = _parents(document)
    shift = first_page - 1
    for number, flows in enumerate(pages, start=1):
        for element, (name, source, regions, top, height) in flows.items():
            found += _stranded(number, element, name, source, regions, pages, last_page,
                               parents)
            last = last_page[element] == number
            if last and first_seen[element] != number:
                fill = _fill(regions, top, height)
                if fill < NEAR_EMPTY:
                    lines = sum(len(r.rows or ()) for r in regions)
                    found.append(FlowFinding("near-empty", number, name, source, None,
                                             f"{lines} line{'s' if lines != 1 else ''}",
                                             fill))
            elif not last:
                found += _holes(number, element, name, source, regions, top, height, pages)
    for element, first in first_seen.items():
        if "title-page" in (element.get("class") or "").split() and last_page[element] > first:
            found.append(FlowFinding("cover", first, "the title page", None, None,
                                     f"{last_page[element] - first + 1} pages"))
    return [replace(f, page=f.page + shift) for f in found] if shift else found


def find_near_empty(document, first_page: int = 1) -> list[FlowFinding]:
    """Only the near-empty last pages `find_flow` finds: what the book's first pass decides
    each part's fit step by (products/book/fit.py), on every part it lays out. Measured
    from the last page back, each flow until it is seen on a page before its last: a part's
    two last pages instead of all of them, and no stranded headings or holes looked for
    (the part's finished layout is checked in full)."""
    last: dict = {}        # flow element → (page, regions, top, height) on its last page
    earlier: set = set()   # flows seen on a page before their last
    for number in range(len(document.pages), 0, -1):
        page_box = document.pages[number - 1]._page_box
        top, height = page_box.content_box_y(), page_box.height
        flows = {}
        for flow_box in _flow_boxes(page_box):
            if flow_box.element in earlier:
                continue
            regions = _regions(flow_box)
            for region in regions:
                _measure(region)
            if any(region.rows for region in regions):
                flows[flow_box.element] = (number, regions, top, height)
        for element, seen in flows.items():
            if element in last:
                earlier.add(element)
            else:
                last[element] = seen
    found = []
    for element, (number, regions, top, height) in last.items():
        fill = _fill(regions, top, height)
        if element in earlier and fill < NEAR_EMPTY:
            lines = sum(len(r.rows or ()) for r in regions)
            found.append(FlowFinding("near-empty", number + first_page - 1,
                                     _flow_name(element), element.get("data-source"), None,
                                     f"{lines} line{'s' if lines != 1 else ''}", fill))
    return sorted(found, key=lambda f: f.page)


def _parents(document) -> dict:
    """Each element of the document → its parent."""
    for page in document.pages:
        for html in page._page_box.children or ():
            root = getattr(html, "element", None)
            if getattr(html, "element_tag", None) == "html" and root is not None:
                return {child: parent for parent in root.iter() for child in parent}
    return {}


def _flow_boxes(page_box):
    """The page's boxes of top-level sections of the book's body (nav, section)."""
    for html in page_box.children or ():
        if getattr(html, "element_tag", None) != "html":
            continue
        for body in html.children or ():
            for box in getattr(body, "children", None) or ():
                element = getattr(box, "element", None)
                if getattr(box, "element_tag", None) in ("section", "nav") and \
                        element is not None and hasattr(element, "get"):
                    yield box


def _flow_name(element) -> str:
    for heading in element.iter("h1"):
        text = " ".join("".join(heading.itertext()).split())
        if text:
            return text
    return element.get("class") or element.tag


def _regions(flow_box) -> list[_Region]:
    """The flow's columns on this page, or the flow itself when it has no columns."""
    multicol = _multicol(flow_box)
    if multicol is None:
        return [_Region(flow_box.content_box_y(), [flow_box])]
    before = [child for child in flow_box.children if child is not multicol]
    count = multicol.style["column_count"]
    count = count if isinstance(count, int) else 1
    regions: list[_Region] = []
    segment: list[_Region] = []
    for child in multicol.children:
        if _is_column(child, multicol):
            segment.append(_Region(child.content_box_y(), [child], column=len(segment) + 1,
                                   of=max(count, len(segment) + 1), last_of_segment=False))
        else:   # spanning all columns: ends the segment of columns above it
            regions += segment
            segment = []
            regions.append(_Region(child.border_box_y(), [child]))
    for region in segment:
        region.last_of_segment = True
    regions += segment
    if before:   # the chapter's title above its columns
        regions.insert(0, _Region(before[0].border_box_y(), before))
    return regions


def _multicol(flow_box):
    for child in getattr(flow_box, "children", None) or ():
        if any(_is_column(grandchild, child) for grandchild in
               getattr(child, "children", None) or ()):
            return child
    return None


def _is_column(child, parent) -> bool:
    """WeasyPrint lays a multi-column box's content out in anonymous boxes, one a column,
    of the multi-column element itself."""
    return getattr(child, "element", None) is getattr(parent, "element", None) and \
        type(child).__name__ == "BlockBox" and \
        isinstance(getattr(child, "width", None), (int, float))


def _measure(region: _Region) -> None:
    """The region's lines (each row of text once, by its top) and where they end."""
    rows: dict[float, float] = {}
    for box in region.boxes:
        for child in box.descendants():
            kind = type(child).__name__
            if kind == "LineBox" or (kind.endswith("ReplacedBox") and
                                     bool(getattr(child, "height", 0))):
                if getattr(child, "position_y", None) is None:
                    continue
                bottom = child.position_y + child.margin_height() \
                    if kind != "LineBox" else child.position_y + child.height
                if not _has_text(child) and kind == "LineBox":
                    continue
                key = round(child.position_y, 1)
                rows[key] = max(rows.get(key, 0.0), bottom)
    region.rows = sorted(rows.items())
    region.bottom = max(rows.values(), default=region.top)


def _has_text(line) -> bool:
    for child in line.descendants():
        if type(child).__name__ == "TextBox" and (child.text or "").strip():
            return True
        if type(child).__name__.endswith("ReplacedBox") or \
                type(child).__name__ == "InlineBlockBox":
            return True
    return False


def _fill(regions, top: float, height: float) -> float:
    """How far down the page the flow reaches, averaged over its columns."""
    columns = [r for r in regions if r.column]
    if not columns:   # one column: how far down the page it reaches
        return max(0.0, max(r.bottom for r in regions) - top) / height if regions else 0.0
    count = max(len(columns), max(r.of for r in columns))
    return sum(max(0.0, r.bottom - top) for r in columns) / (count * height)


def _columns(regions) -> list[_Region]:
    """The regions text flows through: the columns, or the one region of a flow without."""
    return [r for r in regions if r.column] or regions[-1:]


def _stranded(number, element, name, source, regions, pages, last_page,
              parents) -> list[FlowFinding]:
    found = []
    columns = _columns(regions)
    # a block spanning the columns at the foot of the page (a heading set across the page)
    # is followed by what the next page starts with, spanning or not
    spanning = regions[-1] if regions and not regions[-1].column and \
        any(r.column for r in regions) else None
    for index, region in enumerate(columns + ([spanning] if spanning else [])):
        if not region.rows:
            continue
        heading = _last_heading(region)
        if heading is None:
            continue
        box, heading_bottom = heading
        below = [row for row, _ in region.rows if row >= heading_bottom - 0.5]
        if len(below) > STRANDED_LINES:
            continue
        following = _next_region([], number, element, pages, every=True) \
            if region is spanning else \
            _next_region(columns[index + 1:], number, element, pages)
        first = _first_element(following) if following is not None else None
        if not _heads(box.element, first, parents):
            continue     # what it heads ends here: the next column starts something else
        if len(below) >= 2 and first is _top_blocks(region)[-1].element:
            continue     # a paragraph broken after its first lines (as orphans allow)
        text = " ".join("".join(box.element.itertext()).split())
        line = box.element.get("data-line")
        found.append(FlowFinding("stranded", number, name, source,
                                 int(line) if line and line.isdigit() else None,
                                 text[:80], PAGE_FOOT if region is spanning else 0.0))
    return found


def _next_region(later_columns, number, element, pages, every: bool = False):
    """The flow's next column with content: later on this page, or on a later page (with
    `every`, its next region of any kind there: a block spanning the columns too)."""
    for region in later_columns:
        if region.rows:
            return region
    for flows in pages[number:]:
        if element in flows:
            regions = flows[element][2]
            for region in (regions if every else _columns(regions)):
                if region.rows:
                    return region
    return None


def _top_blocks(region) -> list:
    """The outermost blocks of what flows through the region: a column's children, or,
    down through the flow's section and body, the blocks of a flow without columns."""
    if region.column:
        return list(region.boxes[0].children or ())
    boxes = list(region.boxes)
    while boxes and _wrapper(boxes[-1]):
        boxes = list(boxes[-1].children or ())
    return boxes


def _wrapper(box) -> bool:
    element: Any = getattr(box, "element", None)
    classes = (element.get("class") or "").split() if hasattr(element, "get") else []
    return getattr(box, "element_tag", None) in ("section", "nav") or \
        "chapter-body" in classes


def _first_element(region):
    """The element of the first block laid out in the region."""
    for box in _top_blocks(region):
        element = getattr(box, "element", None)
        if element is not None and hasattr(element, "get"):
            return element
    return None


def _heads(heading, element, parents) -> bool:
    """Whether `element` is (inside) what `heading` heads: the siblings after it up to the
    next heading of its rank or above (h1–h6), or the rest of its parent (a caption, a
    box's or an ability's title)."""
    if element is None:
        return False
    parent = parents.get(heading)
    if parent is None:
        return False
    siblings = list(parent)
    after = siblings[siblings.index(heading) + 1:]
    rank = _rank(heading)
    headed = set()
    for sibling in after:
        other = _rank(sibling)
        if rank is not None and other is not None and other <= rank:
            break
        headed.add(sibling)
    while element is not None:
        if element in headed:
            return True
        element = parents.get(element)
    return False


def _rank(element) -> int | None:
    tag = element.tag if isinstance(element.tag, str) else ""
    return int(tag[1]) if len(tag) == 2 and tag[0] == "h" and tag[1].isdigit() else None


def _last_heading(region):
    """The last heading (or caption) laid out in the region, with its bottom."""
    last = None
    for box in region.boxes:
        for child in box.descendants():
            element = getattr(child, "element", None)
            if element is None or not hasattr(element, "get") or \
                    type(child).__name__ in ("LineBox", "TextBox", "InlineBox"):
                continue
            tag = getattr(child, "element_tag", "") or ""
            classes = set((element.get("class") or "").split())
            if (tag in _HEADINGS or classes & _HEADING_CLASSES) and \
                    "chapter-title" not in classes and "toc-title" not in classes and \
                    getattr(child, "position_y", None) is not None:
                last = (child, child.border_box_y() + child.border_height())
    return last


def _holes(number, element, name, source, regions, top, height, pages) -> list[FlowFinding]:
    """Columns of a page in the middle of a flow that stop well short of where they
    could: the page's foot for the last run of columns, the longest column of their run
    above something spanning them."""
    found = []
    columns = _columns(regions)
    runs: list[list[_Region]] = []
    for region in columns:
        if runs and region.column > runs[-1][-1].column:
            runs[-1].append(region)
        else:
            runs.append([region])
    for run in runs:
        limit = top + height if run[-1].last_of_segment else max(r.bottom for r in run)
        for region in run:
            room = (limit - region.bottom) / height
            if room <= HOLE:
                continue
            following = _next_region(columns[columns.index(region) + 1:], number, element,
                                     pages)
            first = _first_element(following) if following is not None else None
            if first is not None and _rank(first) is not None and room <= HOLE_BEFORE_HEADING:
                continue   # a new section starts on the next column, its heading kept whole
            what = f"column {region.column}" if region.column and region.of > 1 \
                else "the page"
            found.append(FlowFinding("hole", number, name, source, None, what, room))
    return found
