"""Where every card face goes on the printed page: pure geometry, in millimetres.

Nothing here renders. Products turn these pages into HTML with absolutely positioned
faces; tests check the numbers directly. Coordinates run from the page's top-left corner,
x to the right and y down, like CSS.

Layouts:

* `home`: as many cards as fit inside the printable margin, in portrait or landscape
  (whichever holds more); a page of fronts, then a page of backs placed where a duplex
  printer puts the back of each front.
* `foldover`: the sheet folds in half; fronts on one half, their backs mirrored on the
  other, for printers without duplex.
* `printshop`: one face per page at the card's trim size plus bleed, front then back, for
  card printers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

DEFAULT_MARGIN_MM = 6.0   # most home printers cannot print closer than 4-6 mm to the edge
BLEED_MM = 3.0            # what card printers ask for
SAFE_MM = 3.0             # text stays this far inside the trim
FOLD_GUTTER_MM = 4.0      # distance from the fold line to the nearest card
MARK_GAP_MM = 1.0         # cut marks start this far from the cards...
MARK_LENGTH_MM = 5.0      # ...and are at most this long
MARK_EDGE_MM = 1.0        # and never closer than this to the paper's edge
EPSILON = 1e-6            # float slack for "fits exactly" (3 × 88.9 mm in 267.4 mm)
# A home duplex printer (or a hand folding a sheet) puts the backs 1-2 mm off their fronts'
# cut lines: a back's colour and art run this far past them, where no other card is (the
# outer edges of the grid), and its frames keep more than this inside the trim
DRIFT_MM = 2.5

Layout = Literal["home", "foldover", "printshop"]
Flip = Literal["long", "short"]
Axis = Literal["vertical", "horizontal"]  # the line a sheet turns (or folds) about
LAYOUTS: tuple[str, ...] = ("home", "foldover", "printshop")
FLIPS: tuple[str, ...] = ("long", "short")


class DoesNotFit(ValueError):
    """The card cannot be placed on this paper inside the margin."""


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def inset(self, by: float) -> "Box":
        return Box(self.x + by, self.y + by, self.width - 2 * by, self.height - 2 * by)

    def contains(self, other: "Box") -> bool:
        return (other.x >= self.x - EPSILON and other.y >= self.y - EPSILON
                and other.right <= self.right + EPSILON
                and other.bottom <= self.bottom + EPSILON)

    def mirrored(self, axis: Axis, about: float) -> "Box":
        """This box reflected about the line x = about (vertical) or y = about (horizontal)."""
        if axis == "vertical":
            return Box(2 * about - self.right, self.y, self.width, self.height)
        return Box(self.x, 2 * about - self.bottom, self.width, self.height)

    def rounded(self, digits: int = 4) -> tuple[float, float, float, float]:
        return (round(self.x, digits), round(self.y, digits), round(self.width, digits),
                round(self.height, digits))


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Grid:
    """Columns × rows of cards (no gaps: every cut serves two cards), centred in `area`."""

    area: Box
    columns: int
    rows: int
    card_width: float
    card_height: float

    @property
    def capacity(self) -> int:
        return self.columns * self.rows

    @property
    def box(self) -> Box:
        width, height = self.columns * self.card_width, self.rows * self.card_height
        return Box(self.area.x + (self.area.width - width) / 2,
                   self.area.y + (self.area.height - height) / 2, width, height)

    def slot(self, index: int) -> Box:
        """Slot `index`, row by row from the top-left."""
        row, column = divmod(index, self.columns)
        origin = self.box
        return Box(origin.x + column * self.card_width, origin.y + row * self.card_height,
                   self.card_width, self.card_height)

    def column_edges(self) -> list[float]:
        return [self.box.x + i * self.card_width for i in range(self.columns + 1)]

    def row_edges(self) -> list[float]:
        return [self.box.y + i * self.card_height for i in range(self.rows + 1)]


def grid_in(area: Box, card_width: float, card_height: float) -> Grid:
    columns = math.floor((area.width + EPSILON) / card_width) if area.width > 0 else 0
    rows = math.floor((area.height + EPSILON) / card_height) if area.height > 0 else 0
    return Grid(area, max(columns, 0), max(rows, 0), card_width, card_height)


@dataclass(frozen=True)
class Face:
    """One card face on a page: `trim` is the card's edge; `bleed` mm of its artwork show
    outside it (0 when cards touch on a home sheet)."""

    card: int          # index into the deck's cards
    side: Literal["front", "back"]
    trim: Box
    bleed: float = 0.0
    # what of the bleed shows on the sheet (left, top, right, bottom, mm past the trim):
    # None, all of it; a home sheet's backs show theirs only where no card is beside them
    reach: tuple[float, float, float, float] | None = None

    @property
    def bleed_box(self) -> Box:
        return self.trim.inset(-self.bleed)

    @property
    def shown_box(self) -> Box:
        """The part of the face drawn on the sheet."""
        if self.reach is None:
            return self.bleed_box
        left, top, right, bottom = self.reach
        return Box(self.trim.x - left, self.trim.y - top, self.trim.width + left + right,
                   self.trim.height + top + bottom)

    @property
    def drifts(self) -> bool:
        """A back printed by a home printer or folded by hand (it may land off its cut
        lines): its frames keep clear of the edges."""
        return self.reach is not None

    @property
    def safe_box(self) -> Box:
        return self.trim.inset(SAFE_MM)


@dataclass
class Page:
    width: float
    height: float
    side: Literal["front", "back", "both"]
    faces: list[Face] = field(default_factory=list)
    cut_marks: list[Line] = field(default_factory=list)
    fold: Line | None = None
    note: "Note | None" = None


@dataclass(frozen=True)
class Note:
    """Where the 'print at actual size' reminder goes; `rotated` when it runs up a side."""

    box: Box
    rotated: bool


@dataclass
class Imposition:
    layout: str
    paper_width: float      # as printed (landscape already swapped)
    paper_height: float
    landscape: bool
    per_sheet: int          # cards per sheet
    flip: str | None        # home: how the sheet is turned for the backs
    axis: Axis | None       # the line fronts are mirrored about to find their backs
    printable: Box | None   # inside the margin
    pages: list[Page]
    bleed: float = 0.0      # printshop: the PDF's bleed around the trim


def flip_axis(landscape: bool, flip: Flip) -> Axis:
    """The line a duplex printer turns the sheet about, in the page's own frame.

    Long-edge duplex turns a portrait page about its vertical centre line (like a book);
    a landscape page's long edges are horizontal, so it turns about the horizontal line.
    Short-edge is the other way round.
    """
    vertical = (flip == "long") != landscape
    return "vertical" if vertical else "horizontal"


def best_grid(paper_width: float, paper_height: float, card_width: float,
              card_height: float, margin: float) -> tuple[Grid, bool]:
    """The grid holding the most cards, portrait or landscape (portrait on a tie)."""
    best: tuple[Grid, bool] | None = None
    for landscape in (False, True):
        width, height = (paper_height, paper_width) if landscape else (paper_width,
                                                                      paper_height)
        area = Box(margin, margin, width - 2 * margin, height - 2 * margin)
        grid = grid_in(area, card_width, card_height)
        if best is None or grid.capacity > best[0].capacity:
            best = (grid, landscape)
    assert best is not None
    return best


def impose_home(card_count: int, card_width: float, card_height: float, paper_width: float,
                paper_height: float, margin: float = DEFAULT_MARGIN_MM,
                flip: Flip = "long") -> Imposition:
    grid, landscape = best_grid(paper_width, paper_height, card_width, card_height, margin)
    if grid.capacity == 0:
        raise DoesNotFit(_too_big(card_width, card_height, paper_width, paper_height, margin))
    width, height = (paper_height, paper_width) if landscape else (paper_width, paper_height)
    axis = flip_axis(landscape, flip)
    about = width / 2 if axis == "vertical" else height / 2
    marks = cut_marks(grid, Box(0, 0, width, height))
    note = place_note(grid, width, height)
    pages: list[Page] = []
    for first in range(0, card_count, grid.capacity):
        cards = range(first, min(first + grid.capacity, card_count))
        fronts = [Face(card, "front", grid.slot(card - first)) for card in cards]
        backs = drifting_backs(fronts, axis, about, Box(0, 0, width, height))
        pages.append(Page(width, height, "front", fronts, marks, note=note))
        pages.append(Page(width, height, "back", backs))
    return Imposition("home", width, height, landscape, grid.capacity, flip, axis,
                      Box(margin, margin, width - 2 * margin, height - 2 * margin), pages)


def impose_foldover(card_count: int, card_width: float, card_height: float,
                    paper_width: float, paper_height: float,
                    margin: float = DEFAULT_MARGIN_MM) -> Imposition:
    """Fronts on one half of the sheet, their backs mirrored about the fold line."""
    best: tuple[Grid, bool, Axis, float, float] | None = None
    axes: tuple[Axis, ...] = ("vertical", "horizontal")
    for landscape in (False, True):
        width, height = (paper_height, paper_width) if landscape else (paper_width,
                                                                      paper_height)
        for axis in axes:
            if axis == "vertical":
                half = Box(margin, margin, width / 2 - FOLD_GUTTER_MM - margin,
                           height - 2 * margin)
            else:
                half = Box(margin, margin, width - 2 * margin,
                           height / 2 - FOLD_GUTTER_MM - margin)
            grid = grid_in(half, card_width, card_height)
            if best is None or grid.capacity > best[0].capacity:
                best = (grid, landscape, axis, width, height)
    assert best is not None
    grid, landscape, axis, width, height = best
    if grid.capacity == 0:
        raise DoesNotFit(_too_big(card_width, card_height, paper_width, paper_height, margin,
                                  " with room for its back on the other half of the sheet"))
    # keep the cards close to the fold: a small fold error then moves the backs least
    box = grid.box
    if axis == "vertical":
        shift = (width / 2 - FOLD_GUTTER_MM) - box.right
        grid = Grid(Box(grid.area.x + shift, grid.area.y, grid.area.width, grid.area.height),
                    grid.columns, grid.rows, card_width, card_height)
        fold = Line(width / 2, 0, width / 2, height)
        about = width / 2
    else:
        shift = (height / 2 - FOLD_GUTTER_MM) - box.bottom
        grid = Grid(Box(grid.area.x, grid.area.y + shift, grid.area.width, grid.area.height),
                    grid.columns, grid.rows, card_width, card_height)
        fold = Line(0, height / 2, width, height / 2)
        about = height / 2
    page_box = Box(0, 0, width, height)
    marks = cut_marks(grid, page_box, fold_axis=axis, fold_at=about)
    note = place_note(grid, width, height, avoid=(axis, about))
    pages = []
    for first in range(0, card_count, grid.capacity):
        cards = range(first, min(first + grid.capacity, card_count))
        fronts = [Face(card, "front", grid.slot(card - first)) for card in cards]
        half = (Box(about, 0, width - about, height) if axis == "vertical"
                else Box(0, about, width, height - about))
        backs = drifting_backs(fronts, axis, about, half.inset(MARK_EDGE_MM))
        pages.append(Page(width, height, "both", fronts + backs, marks, fold=fold, note=note))
    return Imposition("foldover", width, height, landscape, grid.capacity, None, axis,
                      Box(margin, margin, width - 2 * margin, height - 2 * margin), pages)


def drifting_backs(fronts: list[Face], axis: Axis, about: float, room: Box) -> list[Face]:
    """The backs of `fronts`, mirrored about the line the sheet turns on, each running
    DRIFT_MM past its cut lines on every side where no other back is beside it (and not
    past `room`: the paper's edge, the fold)."""
    trims = [face.trim.mirrored(axis, about) for face in fronts]

    def neighbour(box: Box, dx: float, dy: float) -> bool:
        probe = (box.x + box.width / 2 + dx * (box.width / 2 + 1),
                 box.y + box.height / 2 + dy * (box.height / 2 + 1))
        return any(other.x < probe[0] < other.right and other.y < probe[1] < other.bottom
                   for other in trims if other is not box)

    backs = []
    for face, trim in zip(fronts, trims):
        room_left, room_top = trim.x - room.x, trim.y - room.y
        room_right, room_bottom = room.right - trim.right, room.bottom - trim.bottom
        left, top, right, bottom = (
            0.0 if neighbour(trim, dx, dy) else max(0.0, min(DRIFT_MM, space))
            for (dx, dy), space in (((-1, 0), room_left), ((0, -1), room_top),
                                    ((1, 0), room_right), ((0, 1), room_bottom)))
        reach = (left, top, right, bottom)
        backs.append(Face(face.card, "back", trim, DRIFT_MM, reach))
    return backs


def impose_printshop(card_count: int, card_width: float, card_height: float,
                     bleed: float = BLEED_MM, order: str = "front-back") -> Imposition:
    """One face per page, front then back (or, `order` back-front, as DriveThruCards wants
    them: back of card 1, front of card 1, …); the page is the trim, the PDF adds the
    bleed."""
    trim = Box(0, 0, card_width, card_height)
    sides: tuple[Literal["front", "back"], ...] = \
        ("back", "front") if order == "back-front" else ("front", "back")
    pages = []
    for card in range(card_count):
        for side in sides:
            pages.append(Page(card_width, card_height, side, [Face(card, side, trim, bleed)]))
    return Imposition("printshop", card_width, card_height, card_width > card_height, 1, None,
                      None, None, pages, bleed=bleed)


def impose(layout: Layout, card_count: int, card_width: float, card_height: float,
           paper_width: float, paper_height: float, margin: float = DEFAULT_MARGIN_MM,
           flip: Flip = "long", bleed: float = BLEED_MM, order: str = "front-back"
           ) -> Imposition:
    if layout == "home":
        return impose_home(card_count, card_width, card_height, paper_width, paper_height,
                           margin, flip)
    if layout == "foldover":
        return impose_foldover(card_count, card_width, card_height, paper_width,
                               paper_height, margin)
    if layout == "printshop":
        return impose_printshop(card_count, card_width, card_height, bleed, order)
    raise ValueError(f"unknown layout {layout!r}")


def cut_marks(grid: Grid, page: Box, fold_axis: Axis | None = None,
              fold_at: float | None = None) -> list[Line]:
    """A short line in the margin at every card edge, on all four sides of the grid.

    On a fold-over sheet no mark crosses the fold line (it would print on the backs).
    """
    box = grid.box
    lines: list[Line] = []

    def outward(start: float, limit: float, direction: int) -> tuple[float, float] | None:
        begin = start + direction * MARK_GAP_MM
        room = abs(limit - begin)
        length = min(MARK_LENGTH_MM, room)
        if length < 1.0:
            return None
        return begin, begin + direction * length

    top_limit, bottom_limit = page.y + MARK_EDGE_MM, page.bottom - MARK_EDGE_MM
    left_limit, right_limit = page.x + MARK_EDGE_MM, page.right - MARK_EDGE_MM
    if fold_axis == "vertical" and fold_at is not None:
        right_limit = min(right_limit, fold_at - MARK_EDGE_MM)
    elif fold_axis == "horizontal" and fold_at is not None:
        bottom_limit = min(bottom_limit, fold_at - MARK_EDGE_MM)
    for x in grid.column_edges():
        for start, limit, direction in ((box.y, top_limit, -1), (box.bottom, bottom_limit, 1)):
            span = outward(start, limit, direction)
            if span:
                lines.append(Line(x, span[0], x, span[1]))
    for y in grid.row_edges():
        for start, limit, direction in ((box.x, left_limit, -1), (box.right, right_limit, 1)):
            span = outward(start, limit, direction)
            if span:
                lines.append(Line(span[0], y, span[1], y))
    return lines


NOTE_DEPTH_MM = 2.6   # one line of the note


def place_note(grid: Grid, width: float, height: float,
               avoid: tuple[Axis, float] | None = None) -> Note:
    """The 'print at actual size' note: in the deepest margin, right beside the cards and
    between two cut marks (marks stand only at card edges, so the middle of a card's
    side is free)."""
    box = grid.box
    bands = [("top", box.y), ("bottom", height - box.bottom), ("left", box.x),
             ("right", width - box.right)]
    if avoid and avoid[0] == "vertical":
        bands = [b for b in bands if b[0] != "right"]
    elif avoid and avoid[0] == "horizontal":
        bands = [b for b in bands if b[0] != "bottom"]
    side, _ = max(bands, key=lambda b: (round(b[1], 3), b[0] in ("top", "bottom")))
    if side in ("top", "bottom"):
        edges = grid.column_edges()
        k = (grid.columns - 1) // 2
        start, length = edges[k] + MARK_GAP_MM, edges[k + 1] - edges[k] - 2 * MARK_GAP_MM
        y = box.y - MARK_GAP_MM - NOTE_DEPTH_MM if side == "top" else box.bottom + MARK_GAP_MM
        return Note(Box(start, y, length, NOTE_DEPTH_MM), False)
    edges = grid.row_edges()
    k = (grid.rows - 1) // 2
    start, length = edges[k] + MARK_GAP_MM, edges[k + 1] - edges[k] - 2 * MARK_GAP_MM
    x = box.x - MARK_GAP_MM - NOTE_DEPTH_MM if side == "left" else box.right + MARK_GAP_MM
    return Note(Box(x, start, NOTE_DEPTH_MM, length), True)


def _too_big(card_width, card_height, paper_width, paper_height, margin, extra="") -> str:
    return (f"a {card_width:g} × {card_height:g} mm card does not fit on "
            f"{paper_width:g} × {paper_height:g} mm paper inside the {margin:g} mm "
            f"printable margin{extra}")
