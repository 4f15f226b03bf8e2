"""A saddle-stitched booklet from a reading-order PDF: its pages two to a side of sheets
twice their size, in the order that, printed double-sided (flip on the short edge),
folded and nested, reads 1, 2, 3 … Pure geometry here; `render/pdf/place_pages.py` draws it.

- Padding: a booklet has a multiple of 4 pages. The blanks go before the last page, so the
  last page stays the back cover (a one-page document keeps its page at the front).
- Order: sheet s (0 = the outermost) of a booklet of N pages carries N−2s | 1+2s on its
  front and 2+2s | N−1−2s on its back (left | right, as each side is seen).
- Short-edge duplex: the sheet is landscape and turns over its short (vertical) edge, so
  page 2 on the back's left is behind page 1 on the front's right. No side is turned.
- Creep (shingling): the inner sheets of a folded stack reach further out at the fore-edge
  than the sheets wrapped round them. The pages of sheet s move towards the fold by the
  paper's thickness for every sheet outside it (s × thickness, the printers' rule of
  thumb), so the text blocks line up when the booklet is closed.
- Marks: a short fold tick at the head and foot of the fold, on the inside (back) of every
  sheet, in the gutter where no page prints; crop marks at the outer corners of the pages
  where the sheet has room for them beyond the pages (pages smaller than half the sheet).
"""

from __future__ import annotations

from dataclasses import dataclass

from printshop.render.pdf.place_pages import Line, Side, Slot, fit_scale, page_sizes_mm, place

FOLD_TICK_MM = 4.0      # the fold tick's length, from the sheet's edge inwards
CROP_GAP_MM = 1.0       # between a page's corner and its crop mark
CROP_LENGTH_MM = 4.0
CROP_ROOM_MM = CROP_GAP_MM + CROP_LENGTH_MM   # room needed beyond the pages for crop marks


@dataclass(frozen=True)
class Booklet:
    pdf: bytes
    pages: int          # the document's pages
    booklet_pages: int  # with the blanks: a multiple of 4
    sheets: int
    creep_mm: float     # how far the innermost sheet's pages moved towards the fold
    scale: float        # the smallest scale a page was drawn at (1: actual size)

    @property
    def blanks(self) -> int:
        return self.booklet_pages - self.pages

    @property
    def sides(self) -> int:
        return 2 * self.sheets


def reading_sequence(pages: int) -> list[int | None]:
    """The booklet's pages in reading order as indexes into the document (0-based), None for
    a blank: padded to a multiple of 4 with the blanks before the back cover."""
    if pages < 1:
        raise ValueError("a booklet needs at least one page")
    total = -(-pages // 4) * 4
    blanks = [None] * (total - pages)
    if pages == 1:
        return [0] + blanks
    return list(range(pages - 1)) + blanks + [pages - 1]


def saddle_sides(total: int) -> list[tuple[int, int]]:
    """For a booklet of `total` pages (a multiple of 4): each printed side's (left, right)
    booklet page numbers (1-based), in print order: sheet 1 front, sheet 1 back, sheet 2
    front …"""
    if total < 4 or total % 4:
        raise ValueError(f"a saddle-stitched booklet has a multiple of 4 pages, not {total}")
    sides = []
    for sheet in range(total // 4):
        sides.append((total - 2 * sheet, 1 + 2 * sheet))
        sides.append((2 + 2 * sheet, total - 1 - 2 * sheet))
    return sides


def creep_shift_mm(sheet: int, thickness_mm: float) -> float:
    """How far the pages of sheet `sheet` (0 = outermost) move towards the fold."""
    return sheet * thickness_mm


def booklet_sides(page_sizes: list[tuple[float, float]], sheet_mm: tuple[float, float],
                  thickness_mm: float = 0.0) -> list[Side]:
    """Every printed side of the booklet of pages `page_sizes` (trim, mm, reading order) on
    sheets `sheet_mm` (width, height of the paper, portrait; the sides are landscape)."""
    sequence = reading_sequence(len(page_sizes))
    width, height = max(sheet_mm), min(sheet_mm)
    half = width / 2
    sides = []
    for number, (left, right) in enumerate(saddle_sides(len(sequence))):
        sheet, back = divmod(number, 2)
        shift = creep_shift_mm(sheet, thickness_mm)
        slots = (Slot(sequence[left - 1], 0.0, 0.0, half, height, shift=shift),
                 Slot(sequence[right - 1], half, 0.0, half, height, shift=-shift))
        lines: list[Line] = []
        if back:
            lines += fold_ticks(width, height)
        for slot in slots:
            if slot.page is not None:
                lines += crop_marks(slot, page_sizes[slot.page], outer_left=slot.x == 0)
        sides.append(Side(width, height, slots, tuple(lines)))
    return sides


def fold_ticks(width: float, height: float) -> list[Line]:
    middle = width / 2
    return [Line(middle, height, middle, height - FOLD_TICK_MM, dashed=False),
            Line(middle, 0.0, middle, FOLD_TICK_MM, dashed=False)]


def crop_marks(slot: Slot, page_mm: tuple[float, float], outer_left: bool) -> list[Line]:
    """Crop marks at the page's two outer corners (top and bottom at the fore-edge), when
    the slot has room beyond the page for them on both sides of the corner."""
    scale = fit_scale(page_mm, slot)
    w, h = page_mm[0] * scale, page_mm[1] * scale
    room_x, room_y = (slot.width - w) / 2 - abs(slot.shift), (slot.height - h) / 2
    if min(room_x, room_y) < CROP_ROOM_MM:
        return []
    x0 = slot.x + (slot.width - w) / 2 + slot.shift
    x = x0 if outer_left else x0 + w
    out = -1 if outer_left else 1
    lines = []
    for y, up in ((slot.y + room_y, -1), (slot.y + room_y + h, 1)):
        lines.append(Line(x + out * CROP_GAP_MM, y, x + out * CROP_ROOM_MM, y))
        lines.append(Line(x, y + up * CROP_GAP_MM, x, y + up * CROP_ROOM_MM))
    return lines


def impose_booklet(pdf: bytes, sheet_mm: tuple[float, float], thickness_mm: float = 0.0,
                   title: str | None = None, uncompressed: bool = False) -> Booklet:
    """The booklet of `pdf` (reading order) on sheets of `sheet_mm`."""
    sizes = page_sizes_mm(pdf)
    sides = booklet_sides(sizes, sheet_mm, thickness_mm)
    scale = min((fit_scale(sizes[s.page], s) for side in sides for s in side.slots
                 if s.page is not None), default=1.0)
    total = len(reading_sequence(len(sizes)))
    sheets = total // 4
    return Booklet(place(pdf, sides, title, uncompressed), len(sizes), total, sheets,
                   creep_shift_mm(sheets - 1, thickness_mm), scale)
