"""Finishing a rendered PDF for a print profile (pikepdf): links and bookmarks dropped, blank
pages added to meet the page-count rule, and the PDF/X identification written the way
prepress checkers read it.

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

PDFX_KEYS = {
    # variant: (PDF version, GTS_PDFXVersion, GTS_PDFXConformance or None)
    "pdf/x-1a": ("1.4", "PDF/X-1:2003", "PDF/X-1a:2003"),
    "pdf/x-3": ("1.4", "PDF/X-3:2003", None),
    "pdf/x-4": ("1.6", "PDF/X-4", None),
}
FIXED_DATE = datetime(2000, 1, 1, tzinfo=timezone.utc)  # PDF/X needs dates; no clock read


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
    doc.save(out, deterministic_id=True, force_version=version,
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
