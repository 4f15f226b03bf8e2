"""PDF pages → PNG images at print resolution, with pdfium (pypdfium2).

pdfium is Chrome's PDF renderer: anti-aliased text and vector art exactly as a viewer shows
them, which hand-rolled rasterising would never match.
"""

from __future__ import annotations

import io

MM_PER_INCH = 25.4
POINTS_PER_INCH = 72.0


def pixels(mm: float, dpi: int) -> int:
    return round(mm / MM_PER_INCH * dpi)


def pages_to_png(pdf: bytes, sizes_mm: list[tuple[float, float, float]], dpi: int = 300,
                 keep_bleed: bool = False) -> list[bytes]:
    """One PNG per page. `sizes_mm[i]` is page i's (trim width, trim height, bleed).

    With `keep_bleed` the image is the whole bleed area; without, it is cut to the trim.
    Either way its size is the size in mm at `dpi`, rounded to whole pixels.
    """
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        images = []
        for index, (width, height, bleed) in enumerate(sizes_mm):
            page = document[index]
            scale = dpi / POINTS_PER_INCH
            image = page.render(scale=scale).to_pil().convert("RGB")
            page.close()
            if keep_bleed:
                target = (pixels(width + 2 * bleed, dpi), pixels(height + 2 * bleed, dpi))
                offset = (0, 0)
            else:
                target = (pixels(width, dpi), pixels(height, dpi))
                offset = (pixels(bleed, dpi), pixels(bleed, dpi))
            image = _exactly(image, offset, target)
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
            images.append(buffer.getvalue())
        return images
    finally:
        document.close()


def _exactly(image, offset: tuple[int, int], size: tuple[int, int]):
    """`size` pixels from `offset`; pdfium may round a page a pixel short, so pad by
    repeating the edge rather than leaving a white hairline."""
    from PIL import Image

    left, top = offset
    box = (left, top, left + size[0], top + size[1])
    if box[2] <= image.width and box[3] <= image.height:
        return image.crop(box)
    padded = Image.new("RGB", (max(image.width, box[2]), max(image.height, box[3])))
    padded.paste(image, (0, 0))
    if box[2] > image.width:
        edge = image.crop((image.width - 1, 0, image.width, image.height))
        for x in range(image.width, box[2]):
            padded.paste(edge, (x, 0))
    if box[3] > image.height:
        edge = padded.crop((0, image.height - 1, padded.width, image.height))
        for y in range(image.height, box[3]):
            padded.paste(edge, (0, y))
    return padded.crop(box)
