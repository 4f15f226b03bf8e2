"""Finishing a rendered PDF for a print profile (pikepdf): links and bookmarks dropped, blank
pages added to meet the page-count rule, crop marks drawn outside the bleed, and the PDF/X
identification written the way prepress checkers read it.

WeasyPrint 70 writes `GTS_PDFXVersion (PDF/X-1a:2003)`, but ISO 15930-4 (and Acrobat,
iText, Scribus) name the *version* PDF/X-1:2003 and put the -1a in `GTS_PDFXConformance`;
X-4 files get no Info keys at all. The output intent is written here from the ICC file's own
bytes (WeasyPrint re-serialises profiles through LittleCMS), and the dates come from
SOURCE_DATE_EPOCH or a fixed date, so the same inputs still give the same bytes.
"""

from __future__ import annotations

import io
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from printshop.profiles import MARK_GAP_MM, MARK_LENGTH_MM, PDFX_KEYS, POINTS_PER_MM, marks_room_mm

FIXED_DATE = datetime(2000, 1, 1, tzinfo=timezone.utc)  # PDF/X needs dates; no clock read

# Crop marks (profile `marks: crop`), as presses draw them: on the trim lines, beyond the
# bleed (so the bleed's artwork never covers them and the knife never cuts through one),
# black on a white edge (seen on any background). The page (MediaBox) grows to hold them
# (how far: profiles.marks_room_mm, which preflight checks too); the BleedBox stays the
# trim plus the bleed.
MARK_WIDTH_PT = 0.5     # the black line
MARK_EDGE_PT = 1.5      # the white line under it


def pdf_date() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = FIXED_DATE
    if epoch and epoch.isdigit():
        when = datetime.fromtimestamp(int(epoch), tz=timezone.utc)
    return when.strftime("D:%Y%m%d%H%M%SZ")


def icc_description(data: bytes) -> str:
    """The profile's description tag ('desc'), for the OutputConditionIdentifier."""
    from PIL import ImageCms

    try:
        return ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(data))
                                              ).strip() or "CMYK"
    except Exception:  # an unreadable profile is caught by preflight (E-INTENT)
        return "CMYK"


def finish(pdf: bytes, profile, icc: Path | None = None, title: str | None = None,
           uncompressed: bool = False) -> tuple[bytes, int]:
    """`pdf` finished for `profile` (a printshop.profiles.PrintProfile); with the number of
    blank pages added at the end."""
    import pikepdf

    doc = pikepdf.open(io.BytesIO(pdf))
    if not profile.links:
        for page in doc.pages:
            if "/Annots" in page.obj:
                del page.obj["/Annots"]
        if "/Names" in doc.Root and "/Dests" in doc.Root.Names:
            del doc.Root.Names["/Dests"]
    if not profile.bookmarks:
        if "/Outlines" in doc.Root:
            del doc.Root["/Outlines"]
        if "/PageMode" in doc.Root:
            del doc.Root["/PageMode"]
    if profile.bleed:
        _give_bleed(doc, profile.bleed * 72 / 25.4)
    added = _pad_pages(doc, profile.pages.multiple_of, profile.pages.min)
    if profile.marks == "crop":
        _crop_marks(doc, profile.bleed)
    version = None
    if profile.pdf in PDFX_KEYS:
        version, pdfx_version, conformance = PDFX_KEYS[profile.pdf]
        info = doc.docinfo
        info["/GTS_PDFXVersion"] = pikepdf.String(pdfx_version)
        if conformance:
            info["/GTS_PDFXConformance"] = pikepdf.String(conformance)
        elif "/GTS_PDFXConformance" in info:
            del info["/GTS_PDFXConformance"]
        info["/Trapped"] = pikepdf.Name("/False")
        date = pikepdf.String(pdf_date())
        info["/CreationDate"] = date
        info["/ModDate"] = date
        if title:
            info["/Title"] = pikepdf.String(title)
        if icc is not None:
            data = icc.read_bytes()
            stream = pikepdf.Stream(doc, data)
            stream["/N"] = 4
            name = icc_description(data)
            doc.Root["/OutputIntents"] = pikepdf.Array([pikepdf.Dictionary(
                Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
                OutputConditionIdentifier=pikepdf.String(name),
                OutputCondition=pikepdf.String(name),
                RegistryName=pikepdf.String("http://www.color.org"),
                Info=pikepdf.String(name), DestOutputProfile=stream)])
        if profile.pdf == "pdf/x-4":
            with doc.open_metadata(set_pikepdf_as_editor=False,
                                   update_docinfo=False) as meta:
                meta["pdfxid:GTS_PDFXVersion"] = pdfx_version
    out = io.BytesIO()
    # (no forced version: pikepdf's own, as `force_version=None` gives)
    forced: dict[str, Any] = {"force_version": version} if version is not None else {}
    doc.save(out, deterministic_id=True, **forced,
             compress_streams=not uncompressed,
             object_stream_mode=(pikepdf.ObjectStreamMode.disable if version == "1.4"
                                 or uncompressed else pikepdf.ObjectStreamMode.preserve),
             qdf=False)
    return out.getvalue(), added


def _give_bleed(doc, bleed: float) -> None:
    """A page made without bleed (one appended from another PDF, such as the blank character
    sheet) gets a trim: the book's own pages' size when its page is that size with the bleed
    (it was made to match them), else its page, with a white bleed around it."""
    import pikepdf

    def box(page, name):
        value = page.obj.get(name)
        return [float(v) for v in value] if value is not None else None

    sizes = [(m[2] - m[0], m[3] - m[1]) for page in doc.pages
             if (m := box(page, "/MediaBox")) and box(page, "/TrimBox") not in (None, m)]
    for page in doc.pages:
        media = box(page, "/MediaBox")
        trim = box(page, "/TrimBox")
        if trim is not None and trim != media:
            continue
        size = (media[2] - media[0], media[3] - media[1])
        if any(abs(size[0] - w) < 0.5 and abs(size[1] - h) < 0.5 for w, h in sizes):
            page.obj.TrimBox = pikepdf.Array([media[0] + bleed, media[1] + bleed,
                                              media[2] - bleed, media[3] - bleed])
            page.obj.BleedBox = pikepdf.Array(media)
        else:
            grown = pikepdf.Array([media[0] - bleed, media[1] - bleed, media[2] + bleed,
                                   media[3] + bleed])
            page.obj.TrimBox = pikepdf.Array(media)
            page.obj.MediaBox = grown
            page.obj.BleedBox = grown
        for name in ("/CropBox", "/ArtBox"):
            if name in page.obj:
                del page.obj[name]


def _pad_pages(doc, multiple_of: int, minimum: int) -> int:
    """Blank pages at the end, each the size of the last page (its boxes copied)."""
    import pikepdf

    count = len(doc.pages)
    target = max(count, minimum)
    if multiple_of > 1 and target % multiple_of:
        target += multiple_of - target % multiple_of
    last = doc.pages[-1].obj
    for _ in range(target - count):
        blank = pikepdf.Dictionary(Type=pikepdf.Name.Page)
        for box in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
            if box in last:
                blank[box] = pikepdf.Array(list(last[box]))
        blank["/Resources"] = pikepdf.Dictionary()
        blank["/Contents"] = pikepdf.Stream(doc, b"")
        doc.pages.append(pikepdf.Page(blank))
    return target - count


def crop_mark_lines(trim, bleed_mm: float) -> list[tuple[float, float, float, float]]:
    """The eight crop marks around `trim` ([x0, y0, x1, y1] in points) as line segments
    (x, y, x, y): two at each corner, on the trim lines, from the gap beyond the bleed
    outwards."""
    x0, y0, x1, y1 = trim
    near = (bleed_mm + MARK_GAP_MM) * POINTS_PER_MM
    far = near + MARK_LENGTH_MM * POINTS_PER_MM
    lines = []
    for x, out_x in ((x0, -1), (x1, 1)):
        for y, out_y in ((y0, -1), (y1, 1)):
            lines.append((x + out_x * near, y, x + out_x * far, y))   # along the trim's y
            lines.append((x, y + out_y * near, x, y + out_y * far))   # along the trim's x
    return lines


def _crop_marks(doc, bleed_mm: float) -> None:
    """Every page grown by the marks' room, its BleedBox the trim plus the bleed, and the
    crop marks drawn (DeviceGray) after its content, which is kept in its own q/Q."""
    import pikepdf

    bleed = bleed_mm * POINTS_PER_MM
    room = marks_room_mm(bleed_mm) * POINTS_PER_MM
    for page in doc.pages:
        trim_box = page.obj.get("/TrimBox") or page.obj.MediaBox
        trim = [float(v) for v in trim_box]
        page.obj.TrimBox = pikepdf.Array(trim)
        page.obj.BleedBox = pikepdf.Array([trim[0] - bleed, trim[1] - bleed,
                                           trim[2] + bleed, trim[3] + bleed])
        page.obj.MediaBox = pikepdf.Array([trim[0] - room, trim[1] - room,
                                           trim[2] + room, trim[3] + room])
        for name in ("/CropBox", "/ArtBox"):
            if name in page.obj:
                del page.obj[name]
        paths = "".join(f"{ax:.3f} {ay:.3f} m {bx:.3f} {by:.3f} l S\n"
                        for ax, ay, bx, by in crop_mark_lines(trim, bleed_mm))
        marks = (f"q 1 G {MARK_EDGE_PT:g} w 0 J\n{paths}"
                 f"0 G {MARK_WIDTH_PT:g} w\n{paths}Q\n")
        page.contents_add(pikepdf.Stream(doc, b"q\n"), prepend=True)
        page.contents_add(pikepdf.Stream(doc, b"Q\n" + marks.encode()), prepend=False)
