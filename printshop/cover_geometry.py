"""The geometry of a print-on-demand cover wrap, in mm: back cover, spine and front cover
side by side, with the bleed around them. Pure arithmetic from a print profile's `cover`
data (printshop/data/print-profiles.yaml) and the interior's page count.

    | bleed | back (trim width) | spine | front (trim width) | bleed |

The spine is `pages / pages_per_inch + plus` for the vendor's paper, unless a width from
the vendor's own cover template is given; it carries text only from the vendor's minimum
page count, kept `spine_margin` clear of each fold. The barcode box sits on the back cover's
lower corner at the spine. The safe area is the cover's `safe`, else the profile's.
"""

from __future__ import annotations

from dataclasses import dataclass

from printshop.errors import PrintshopError

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class Rect:
    x: float        # from the wrap's left trim edge (the back cover's outer edge), mm
    y: float        # from the top trim edge, mm
    width: float
    height: float


@dataclass(frozen=True)
class Wrap:
    trim: tuple[float, float]      # one cover's (width, height)
    pages: int
    paper: str                     # the key of the profile's cover paper
    spine: float
    spine_from: str                # "formula" or "template" (a given width)
    bleed: float
    safe: float
    spine_text: bool               # the spine may carry text
    spine_margin: float
    barcode: Rect

    @property
    def width(self) -> float:
        """The trimmed wrap's width: back, spine and front."""
        return 2 * self.trim[0] + self.spine

    @property
    def height(self) -> float:
        return self.trim[1]

    @property
    def back(self) -> Rect:
        return Rect(0.0, 0.0, self.trim[0], self.trim[1])

    @property
    def spine_rect(self) -> Rect:
        return Rect(self.trim[0], 0.0, self.spine, self.trim[1])

    @property
    def front(self) -> Rect:
        return Rect(self.trim[0] + self.spine, 0.0, self.trim[0], self.trim[1])

    def safe_area(self, panel: Rect) -> Rect:
        return Rect(panel.x + self.safe, panel.y + self.safe, panel.width - 2 * self.safe,
                    panel.height - 2 * self.safe)

    @property
    def spine_text_width(self) -> float:
        """The room across the spine for a line of text (0 when it may carry none)."""
        return max(0.0, self.spine - 2 * self.spine_margin) if self.spine_text else 0.0


def spine_width_mm(cover, pages: int, paper: str | None = None) -> float:
    """The spine of `pages` pages on the cover's `paper` (its default when None)."""
    stock = cover.papers[paper or cover.paper]
    return pages / stock.pages_per_inch * MM_PER_INCH + stock.plus


def wrap(profile, trim: tuple[float, float], pages: int, paper: str | None = None,
         spine_width: float | None = None, where: str = "--profile") -> Wrap:
    """The wrap of a `pages`-page interior of `trim` for `profile` (a PrintProfile with a
    cover); `spine_width` (mm) from the vendor's template beats the formula."""
    cover = profile.cover
    if cover is None:
        raise PrintshopError.at(where, f"print profile '{profile.name}' has no cover: a "
                                "cover wrap is for a print-on-demand book profile "
                                "(dtrpg-book, lulu-book, or one with cover: in "
                                "print-profiles.yaml)")
    paper = paper or cover.paper
    if paper not in cover.papers:
        raise PrintshopError.at(where, f"print profile '{profile.name}' has no cover paper "
                                f"'{paper}' (papers: {', '.join(cover.papers)})")
    if pages < cover.min_pages:
        raise PrintshopError.at(where, f"a {pages}-page interior is too thin for a "
                                f"'{profile.name}' cover: the binding takes "
                                f"{cover.min_pages} pages at least")
    spine = spine_width if spine_width is not None else spine_width_mm(cover, pages, paper)
    safe = cover.safe if cover.safe is not None else profile.safe
    code = cover.barcode
    barcode = Rect(trim[0] - code.from_spine - code.width,
                   trim[1] - code.from_bottom - code.height, code.width, code.height)
    return Wrap(trim, pages, paper, spine, "template" if spine_width is not None else
                "formula", profile.bleed, safe, pages >= cover.spine_text_from,
                cover.spine_margin, barcode)
