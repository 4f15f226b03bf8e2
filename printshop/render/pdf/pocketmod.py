"""The eight-page "pocketmod" zine: one landscape sheet in a grid of 4 × 2 panels, cut once
along the middle and folded into a little booklet. Pure geometry; `place_pages` draws it.

Panels, as the sheet lies printed side up (the top row upside down, so that it reads the
right way up once the sheet is folded in half along its long middle):

    top row (turned 180°):   5  4  3  2
    bottom row (upright):    6  7  8  1

Page 1 (the front cover) is at the bottom right, page 8 (the back cover) beside it, so the
fold between them is the spine; page 2 is behind page 1 once the top row folds back. The
cut runs along the long middle line across the two middle panels (between 4|7 and 3|8);
the other panel edges are folds.
"""

from __future__ import annotations

from typing import Any

from printshop.render.pdf.place_pages import Line, Side, Slot, fit_scale, page_sizes_mm, place

MAX_PAGES = 8
# page number (1-based) → (column 0-3 from the left, row: 0 top, 1 bottom)
PANELS = {1: (3, 1), 2: (3, 0), 3: (2, 0), 4: (1, 0), 5: (0, 0), 6: (0, 1), 7: (1, 1),
          8: (2, 1)}


def panel_size_mm(sheet_mm: tuple[float, float]) -> tuple[float, float]:
    """A page's size (portrait) on a sheet of `sheet_mm`: a quarter of its long side by
    half its short side (A4: 74.25 × 105 mm, Letter: 69.85 × 107.95 mm)."""
    long, short = max(sheet_mm), min(sheet_mm)
    return long / 4, short / 2


def pocketmod_side(pages: int, sheet_mm: tuple[float, float]) -> Side:
    """The sheet (landscape) with pages 1…`pages` (at most 8) in their panels, the cut
    dashed and the folds dotted in grey."""
    if not 1 <= pages <= MAX_PAGES:
        raise ValueError(f"a pocketmod holds 1 to {MAX_PAGES} pages, not {pages}")
    width, height = max(sheet_mm), min(sheet_mm)
    panel_w, panel_h = panel_size_mm(sheet_mm)
    slots = []
    for page in range(1, MAX_PAGES + 1):
        column, row = PANELS[page]
        y = height - (row + 1) * panel_h        # PDF's y grows upwards
        slots.append(Slot(page - 1 if page <= pages else None, column * panel_w, y,
                          panel_w, panel_h, turned=row == 0))
    return Side(width, height, tuple(slots), tuple(guide_lines(width, height)))


def guide_lines(width: float, height: float) -> list[Line]:
    """The cut (dashed, black) along the middle of the two middle panels, and the folds
    (dotted, light grey): the long middle's outer quarters and the three short ones."""
    middle = height / 2
    quarter = width / 4
    lines = [Line(quarter, middle, 3 * quarter, middle, dashed=True, width_pt=1.0)]
    fold: dict[str, Any] = dict(dashed=True, grey=0.7, width_pt=0.3)
    lines += [Line(0, middle, quarter, middle, **fold),
              Line(3 * quarter, middle, width, middle, **fold)]
    lines += [Line(quarter * n, 0, quarter * n, height, **fold) for n in (1, 2, 3)]
    return lines


def impose_pocketmod(pdf: bytes, sheet_mm: tuple[float, float], title: str | None = None,
                     uncompressed: bool = False) -> tuple[bytes, float]:
    """The one-sheet zine of `pdf` (1 to 8 pages, reading order); with the smallest scale
    a page was drawn at (1: actual size)."""
    sizes = page_sizes_mm(pdf)
    side = pocketmod_side(len(sizes), sheet_mm)
    scale = min(fit_scale(sizes[s.page], s) for s in side.slots if s.page is not None)
    return place(pdf, [side], title, uncompressed), scale
