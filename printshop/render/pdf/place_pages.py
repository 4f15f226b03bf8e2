"""A finished PDF's pages placed on bigger sheets (pikepdf): the drawing under booklets and
pocketmod zines. The reading-order PDF is made first, with its own page numbers, contents
and references; each of its pages becomes a form XObject drawn where the imposition puts
it, upright or turned 180°, scaled down only if it cannot fit, clipped to its slot. What
cannot follow the pages onto a sheet (links, bookmarks, named destinations) is dropped.

Positions are in millimetres from the sheet's lower left corner (PDF's way up); a page is
its TrimBox (a page made with bleed loses the bleed here: nobody trims a home booklet).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

POINTS_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Slot:
    """Where one page goes: the slot's rectangle (mm), the page index in the source (0-based;
    None leaves the slot blank), turned 180° or not, and a shift along x (mm; creep)."""
    page: int | None
    x: float
    y: float
    width: float
    height: float
    turned: bool = False
    shift: float = 0.0


@dataclass(frozen=True)
class Line:
    """A mark drawn on the sheet (mm), solid or dashed, in black or a grey."""
    x0: float
    y0: float
    x1: float
    y1: float
    dashed: bool = False
    grey: float = 0.0       # 0 black … 1 white
    width_pt: float = 0.4


@dataclass(frozen=True)
class Side:
    """One printed side of a sheet: its size (mm), its slots and its marks."""
    width: float
    height: float
    slots: tuple[Slot, ...]
    lines: tuple[Line, ...] = ()


def trim_box(page) -> list[float]:
    box = page.obj.get("/TrimBox") or page.obj.MediaBox
    return [float(v) for v in box]


def page_sizes_mm(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's trim (width, height) in mm."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [((b[2] - b[0]) / POINTS_PER_MM, (b[3] - b[1]) / POINTS_PER_MM)
                for b in map(trim_box, doc.pages)]


def fit_scale(page_mm: tuple[float, float], slot: Slot) -> float:
    """The scale a page is drawn at in `slot`: 1, or less when it is bigger than the slot
    (never more: a page is never enlarged). A page within 0.1 % of the slot (a point's
    rounding: A5 in half an A4) is drawn at its size."""
    width, height = page_mm
    scale = min(1.0, slot.width / width, slot.height / height)
    return 1.0 if scale > 0.999 else scale


def _num(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def placement_matrix(bbox: list[float], slot: Slot) -> tuple[float, ...]:
    """The form's matrix (a b c d e f, points) drawing page box `bbox` (points) centred in
    `slot`, shifted by its creep, turned 180° about the slot's centre when asked."""
    width, height = bbox[2] - bbox[0], bbox[3] - bbox[1]
    scale = fit_scale((width / POINTS_PER_MM, height / POINTS_PER_MM), slot)
    x, y = slot.x * POINTS_PER_MM, slot.y * POINTS_PER_MM
    w, h = slot.width * POINTS_PER_MM, slot.height * POINTS_PER_MM
    dx = x + (w - scale * width) / 2 - scale * bbox[0] + slot.shift * POINTS_PER_MM
    dy = y + (h - scale * height) / 2 - scale * bbox[1]
    if not slot.turned:
        return (scale, 0.0, 0.0, scale, dx, dy)
    cx, cy = x + w / 2, y + h / 2
    return (-scale, 0.0, 0.0, -scale, 2 * cx - dx, 2 * cy - dy)


def place(pdf: bytes, sides: list[Side], title: str | None = None,
          uncompressed: bool = False) -> bytes:
    """A new PDF, one page a side, each slot drawing its page of `pdf`; reproducible bytes
    (no dates, a deterministic /ID). The document's title is kept."""
    import pikepdf

    source = pikepdf.open(io.BytesIO(pdf))
    out = pikepdf.new()
    forms: dict[int, tuple[object, list[float]]] = {}

    def form(index: int):
        if index not in forms:
            page = source.pages[index]
            box = trim_box(page)
            xobject = page.as_form_xobject()
            xobject.BBox = pikepdf.Array(box)   # the trim: any bleed is cut off
            forms[index] = (out.copy_foreign(xobject), box)
        return forms[index]

    for side in sides:
        ops, xobjects = [], pikepdf.Dictionary()
        for number, slot in enumerate(side.slots):
            if slot.page is None:
                continue
            xobject, box = form(slot.page)
            name = f"/P{number}"
            xobjects[name] = xobject
            matrix = " ".join(_num(v) for v in placement_matrix(box, slot))
            clip = " ".join(_num(v * POINTS_PER_MM)
                            for v in (slot.x, slot.y, slot.width, slot.height))
            ops.append(f"q {clip} re W n {matrix} cm {name} Do Q")
        ops.extend(_line_ops(side.lines))
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=pikepdf.Array([0, 0, float(_num(side.width * POINTS_PER_MM)),
                                    float(_num(side.height * POINTS_PER_MM))]),
            Resources=pikepdf.Dictionary(XObject=xobjects),
            Contents=out.make_stream(("\n".join(ops) + "\n").encode("ascii")))
        out.pages.append(pikepdf.Page(page))
    title = title or (str(source.docinfo.get("/Title")) if "/Title" in source.docinfo
                      else None)
    if title:
        out.docinfo["/Title"] = pikepdf.String(title)
    buffer = io.BytesIO()
    out.save(buffer, deterministic_id=True, compress_streams=not uncompressed,
             object_stream_mode=(pikepdf.ObjectStreamMode.disable if uncompressed
                                 else pikepdf.ObjectStreamMode.generate))
    source.close()
    return buffer.getvalue()


def _line_ops(lines) -> list[str]:
    ops = []
    for line in lines:
        dash = "[3 2] 0 d" if line.dashed else "[] 0 d"
        points = " ".join(_num(v * POINTS_PER_MM) for v in (line.x0, line.y0))
        to = " ".join(_num(v * POINTS_PER_MM) for v in (line.x1, line.y1))
        ops.append(f"q {_num(line.grey)} G {_num(line.width_pt)} w {dash} {points} m {to} l S Q")
    return ops
