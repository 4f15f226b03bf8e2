"""A cover wrap checked against its interior: `printshop preflight COVER.pdf --profile
dtrpg-book --interior INTERIOR.pdf`. The wrap must be one page, its trim the size the
profile's cover data gives for the interior's page count (back, spine, front), with the
profile's bleed, colours, ink limit and PDF variant (the checks of `preflight`), and no
text on a spine too thin to carry it.

| code | what |
|---|---|
| E-COVER | the profile has no cover data, or the interior is too thin for its binding |
| E-TRIM | the wrap's trim is not the size for the interior's page count |
| E-PAGES | the wrap is more than one page |
| E-SPINETEXT | text on the spine of a book under the vendor's minimum for spine text |
"""

from __future__ import annotations

import io

from printshop.errors import PrintshopError
from printshop.preflight import POINTS_PER_MM, Finding, preflight, summarise

TOLERANCE_MM = 0.2


def preflight_cover(pdf: bytes, profile, interior: bytes, icc_bytes: bytes | None = None,
                    paper: str | None = None, spine_width: float | None = None
                    ) -> list[Finding]:
    from printshop.cover_geometry import wrap

    pages, trim = interior_pages(interior)
    try:
        geometry = wrap(profile, trim, pages, paper, spine_width)
    except PrintshopError as exc:
        return [Finding("E-COVER", "; ".join(p.message for p in exc.problems))]
    findings = preflight(pdf, profile.for_cover(), None, icc_bytes)
    if any(f.code == "E-PDF" for f in findings):
        return findings
    findings += _size(pdf, geometry, profile)
    findings += _spine_text(pdf, geometry, profile)
    return summarise(findings)


def interior_pages(pdf: bytes) -> tuple[int, tuple[float, float]]:
    """An interior's page count and trim (mm, its first page's TrimBox)."""
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        box = [float(v) for v in (doc.pages[0].obj.get("/TrimBox") or doc.pages[0].MediaBox)]
        return len(doc.pages), ((box[2] - box[0]) * 25.4 / 72, (box[3] - box[1]) * 25.4 / 72)


def _size(pdf: bytes, geometry, profile) -> list[Finding]:
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        count = len(doc.pages)
        page = doc.pages[0]
        box = [float(v) for v in (page.obj.get("/TrimBox") or page.MediaBox)]
    findings = []
    if count != 1:
        findings.append(Finding("E-PAGES", f"{count} pages: a cover wrap is one page (back, "
                                "spine and front)"))
    width, height = ((box[2] - box[0]) / POINTS_PER_MM, (box[3] - box[1]) / POINTS_PER_MM)
    if abs(width - geometry.width) > TOLERANCE_MM or abs(height - geometry.height) > \
            TOLERANCE_MM:
        stock = profile.cover.papers[geometry.paper]
        spine = ("the spine width given" if geometry.spine_from == "template" else
                 f"{geometry.pages} / {stock.pages_per_inch:g} pages an inch + "
                 f"{stock.plus:.2f} mm, {geometry.paper}")
        findings.append(Finding("E-TRIM", f"the wrap's trim is {width:.2f} × {height:.2f} mm; "
                                f"a {geometry.pages}-page interior wants {geometry.width:.2f} "
                                f"× {geometry.height:.2f} mm (spine {geometry.spine:.2f} mm: "
                                f"{spine})", 1))
    return findings


def _spine_text(pdf: bytes, geometry, profile) -> list[Finding]:
    """Characters drawn on the spine (between the folds, less the spine margin) when the
    book is too thin for spine text."""
    if geometry.spine_text:
        return []
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0]
        trim_left = page.get_trimbox()[0]
        text = page.get_textpage()
        left = trim_left + geometry.trim[0] * POINTS_PER_MM
        right = left + geometry.spine * POINTS_PER_MM
        found = 0
        for index in range(text.count_chars()):
            x0, _, x1, _ = text.get_charbox(index)
            if left < (x0 + x1) / 2 < right and text.get_text_range(index, 1).strip():
                found += 1
    finally:
        document.close()
    if not found:
        return []
    return [Finding("E-SPINETEXT", f"{found} characters on the spine of a "
                    f"{geometry.pages}-page book; '{profile.name}' prints spine text from "
                    f"{profile.cover.spine_text_from} pages", 1, found)]
