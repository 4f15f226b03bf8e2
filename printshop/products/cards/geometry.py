"""The geometry of a printed sheet of cards, in millimetres from the page's top-left corner
(x to the right, y down, like CSS): boxes, the grid of cards, the cut marks in the margin
around it and where the "print at actual size" note goes. imposition.py places the faces."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

MARK_GAP_MM = 1.0         # cut marks start this far from the cards...
MARK_LENGTH_MM = 5.0      # ...and are at most this long
MARK_EDGE_MM = 1.0        # and never closer than this to the paper's edge
EPSILON = 1e-6            # float slack for "fits exactly" (3 × 88.9 mm in 267.4 mm)
NOTE_DEPTH_MM = 2.6   # one line of the note

Axis = Literal["vertical", "horizontal"]  # the line a sheet turns (or folds) about


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
class Note:
    """Where the 'print at actual size' reminder goes; `rotated` when it runs up a side."""

    box: Box
    rotated: bool


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
