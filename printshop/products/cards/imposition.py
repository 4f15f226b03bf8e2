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

from dataclasses import dataclass, field
from typing import Literal

from printshop.products.cards.geometry import (
    MARK_EDGE_MM,
    Axis,
    Box,
    Grid,
    Line,
    Note,
    cut_marks,
    grid_in,
    place_note,
)

DEFAULT_MARGIN_MM = 6.0   # most home printers cannot print closer than 4-6 mm to the edge
BLEED_MM = 3.0            # what card printers ask for
SAFE_MM = 3.0             # text stays this far inside the trim
FOLD_GUTTER_MM = 4.0      # distance from the fold line to the nearest card
# A home duplex printer (or a hand folding a sheet) puts the backs 1-2 mm off their fronts'
# cut lines: a back's colour and art run this far past them, where no other card is (the
# outer edges of the grid), and its frames keep more than this inside the trim
DRIFT_MM = 2.5

Layout = Literal["home", "foldover", "printshop"]
Flip = Literal["long", "short"]
LAYOUTS: tuple[str, ...] = ("home", "foldover", "printshop")
FLIPS: tuple[str, ...] = ("long", "short")


class DoesNotFit(ValueError):
    """The card cannot be placed on this paper inside the margin."""


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
    note: Note | None = None


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


def _too_big(card_width, card_height, paper_width, paper_height, margin, extra="") -> str:
    return (f"a {card_width:g} × {card_height:g} mm card does not fit on "
            f"{paper_width:g} × {paper_height:g} mm paper inside the {margin:g} mm "
            f"printable margin{extra}")
