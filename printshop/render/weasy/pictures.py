"""Pictures printed coarser than a press asks for: each raster image as laid out, its
pixels against the room it takes on the page (its effective resolution).

A print profile's `min_image_ppi` (300 for the print-on-demand presses) is what a picture
needs where it prints: 600 pixels across a 2-inch spot is 300 ppi, the same file across the
whole 6-inch column 100 ppi. The size is only known once the book is laid out, so this
reads WeasyPrint's boxes; the book then names each coarse picture at the line of its
source that places it (products/book/guide.py).
"""

from __future__ import annotations

from dataclasses import dataclass

CSS_PX_PER_INCH = 96
MM_PER_CSS_PX = 25.4 / CSS_PX_PER_INCH


@dataclass
class CoarsePicture:
    src: str          # the image's URL as the HTML names it
    ppi: float        # its effective resolution where it prints
    width_mm: float
    height_mm: float
    page: int         # the page of the document it prints on (from 1)


def coarse_pictures(document, min_ppi: float) -> list[CoarsePicture]:
    """Every raster image of the laid-out `document` printed under `min_ppi`, each image
    once at its coarsest (a picture printed twice is as good as its biggest print)."""
    worst: dict[str, CoarsePicture] = {}
    for number, page in enumerate(document.pages, start=1):
        for box in _replaced(page._page_box):
            image, element = box.replacement, box.element
            width, height = box.width, box.height
            pixels = (getattr(image, "width", None), getattr(image, "height", None))
            if not isinstance(pixels[0], int) or not isinstance(pixels[1], int) or \
                    not width or not height or element is None:
                continue       # a vector image (SVG) has no pixels to run short of
            # `object-fit: cover` fills the box and crops: the axis that is scaled the
            # most decides; `contain` fits it inside: the other one
            across, down = pixels[0] / width, pixels[1] / height
            fit = box.style["object_fit"]
            scale = max(across, down) if fit in ("contain", "scale-down") else \
                min(across, down)
            ppi = scale * CSS_PX_PER_INCH
            if ppi >= min_ppi:
                continue
            src = element.get("src") or ""
            found = CoarsePicture(src, ppi, width * MM_PER_CSS_PX, height * MM_PER_CSS_PX,
                                  number)
            if src not in worst or found.ppi < worst[src].ppi:
                worst[src] = found
    return list(worst.values())


def _replaced(box):
    """The replaced boxes (images) under `box`."""
    stack = [box]
    while stack:
        box = stack.pop()
        if getattr(box, "replacement", None) is not None:
            yield box
        stack.extend(reversed(getattr(box, "children", None) or ()))
