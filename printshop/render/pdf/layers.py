"""Sheets drawn in layers: a fixed form drawn once, the rolled values placed over it.

A pregen sheet is mostly a form: frames, labels, the class's abilities. WeasyPrint spends
most of a sheet's time on the many small boxes of that form, and the same form comes back
for every character of a class. So a pack lays the form out once per class (`form` job),
and each character's page only holds what was rolled (`values` page). Three kinds of
elements are marked in the form's HTML:

- `data-slot="NAME"`: a box whose geometry the values page needs (where its spacer, its
  live copy or its stamp goes). `slot_geometry()` (render/weasy/slots.py) reads them from
  the laid-out document.
- `data-stamp`: a slot whose text repeats across characters (a stat of 13, a save of +1).
  Each distinct text is laid out once (`render_stamps`): a page of its own, inside copies of
  the slot's ancestors (their decorations switched off, so it inherits the same font,
  colour and alignment), in a box of the slot's exact width. It is drawn where the slot's
  first line is. A stamp whose lines do not match the form's (a text that wraps) is refused,
  and the product renders that character the plain way.
- the form's `bottom` slot: its bottom row, drawn from a page of its own (the band) lower
  down, where the values page left room for it (below the rolled lists, whose height
  varies).

`compose()` then draws, on each values page, the form, the band (moved to its place) and
the stamps, with pikepdf: nothing is clipped, so no hidden copy of a text is left for a
reader's search or copy to find. All of it is deterministic: the same
HTML gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field

# a slot's geometry, read from WeasyPrint's boxes in the worker (render/weasy/slots.py)
from printshop.render.weasy.slots import Slot, slot_from_dict  # noqa: F401

PX_TO_PT = 0.75
SHARED_PREFIX = "/PsX"   # the names of the forms and stamps drawn over a values page


@dataclass
class FormArt:
    """One class's form as the values pages need it (made from a `form` job's result):
    page 1 the form without its bottom row, page 2 the bottom row alone (the band)."""
    pdf: bytes
    band_top_px: float   # where the band's margin box starts on page 2 (CSS px)


@dataclass
class PageArt:
    """What goes over one values page: its form, where the band goes, the stamps."""
    form: object                  # key into Overlay.forms
    band_dy_px: float = 0.0       # how far down the bottom band moves (set by the worker)
    stamps: list = field(default_factory=list)  # (stamps PDF key, page, dx, dy in px)
    # the pieces of the sheet's lists: (stamps PDF key, page, dx, dy from the content box
    # of the column slot, that slot's name), placed by the worker from the values page
    pieces: list = field(default_factory=list)
    placed: list = field(default_factory=list)   # the pieces, as `stamps` (by the worker)


@dataclass
class Overlay:
    forms: dict     # key → FormArt
    stamps: dict    # key → a PDF of stamps, one a page
    pages: list     # PageArt, or None for a page drawn entirely by the values HTML


# --- stamps ----------------------------------------------------------------------------------

STAMP_CSS = """
.ps-chain { display: block !important; position: static !important; margin: 0 !important;
  padding: 0 !important; border: 0 none !important; background: none !important;
  width: auto !important; height: auto !important; min-height: 0 !important;
  max-height: none !important; float: none !important; overflow: visible !important;
  visibility: visible !important; }
.ps-stamp { display: block !important; position: static !important; margin: 0 !important;
  padding: 0 !important; border: 0 none !important; background: none !important;
  height: auto !important; min-height: 0 !important; float: none !important;
  visibility: visible !important; break-inside: avoid !important; }
"""


def stamps_html(requests: list[tuple[Slot, str]], flow: bool = False) -> str:
    """One page per stamp (or, `flow`, one after the other: render/pdf/stamp_pages.py cuts
    them apart): copies of the slot's ancestors (the first is <body>, shared), then the
    slot's own element, as wide as the slot, holding the text (already HTML). Stamps one
    after the other with the same ancestors share one copy of them (a page break between
    them): each element costs its style, whether or not it draws anything."""
    from html import escape

    body = requests[0][0].chain[0] if requests and requests[0][0].chain else ("body", "")
    parts: list[str] = []
    open_chain: tuple | None = None
    for n, (slot, text) in enumerate(requests):
        chain = tuple(slot.chain[1:])
        if chain != open_chain:
            if open_chain is not None:
                parts.extend(f"</{t}>" for t, _ in reversed(open_chain))
            parts.extend(f'<{t} class="{escape(c)} ps-chain">' for t, c in chain)
            open_chain = chain
        brk = "break-before: page !important; " if n and not flow else ""
        parts.append(f'<{slot.tag} class="{escape(slot.cls)} ps-stamp" data-slot="s{n}" '
                     f'style="{brk}width: {slot.content_width!r}px !important">{text}'
                     f'</{slot.tag}>')
    if open_chain is not None:
        parts.extend(f"</{t}>" for t, _ in reversed(open_chain))
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
            f'<body class="{escape(body[1])}">' + "".join(parts) + "</body></html>")


def place_stamp(slot: Slot, stamp: Slot | None) -> tuple[float, float] | None:
    """(dx, dy) moving a stamp onto its slot, or None when the stamp's lines differ from
    the form's (that text would lay the sheet out differently)."""
    if stamp is None or stamp.lines != slot.lines or stamp.line_y is None or \
            slot.line_y is None:
        return None
    return slot.content_x - stamp.content_x, slot.line_y - stamp.line_y


# --- drawing the layers together ---------------------------------------------------------------

class Sources:
    """The forms' and stamps' PDFs a worker drew from, kept open from chunk to chunk by
    their content (a pack's chunks all draw from the same few): opening them and making
    their pages into XObjects was a third of a chunk's drawing. At most `budget` bytes of
    them are kept, the least recently used let go first, and only between chunks (a chunk
    being drawn reads its sources when it is saved)."""

    def __init__(self, budget: int = 4_000_000):
        from collections import OrderedDict

        self.budget = budget
        self.kept: OrderedDict[str, list] = OrderedDict()   # digest → [pdf, size, forms]

    def page(self, digest: str, data: bytes, page: int):
        """Page `page` of the PDF `data` (whose digest is `digest`) as a form XObject."""
        import pikepdf

        entry = self.kept.get(digest)
        if entry is None:
            entry = self.kept[digest] = [pikepdf.open(io.BytesIO(data)), len(data), {}]
        self.kept.move_to_end(digest)
        forms = entry[2]
        if page not in forms:
            forms[page] = pikepdf.Page(entry[0].pages[page]).as_form_xobject()
        return forms[page]

    def trim(self) -> None:
        while len(self.kept) > 1 and sum(e[1] for e in self.kept.values()) > self.budget:
            _, (pdf, _, _) = self.kept.popitem(last=False)
            pdf.close()

    def close(self) -> None:
        for pdf, _, _ in self.kept.values():
            pdf.close()
        self.kept.clear()


def compose(values_pdf: bytes, overlay: Overlay, uncompressed: bool = False,
            sources: Sources | None = None) -> bytes:
    """The values pages with their forms and stamps drawn over them; `sources` (a worker's,
    kept between chunks) opens the forms' and stamps' PDFs, or a new one for this call."""
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(values_pdf))
    own = sources is None
    sources = Sources() if sources is None else sources
    xobjects: dict[tuple, object] = {}
    digests: dict[int, str] = {}

    def name(data: bytes, page: int) -> str:
        """The XObject's name says what it is (its PDF's digest and page), the same in
        every chunk: the pack's merge keeps one copy of each (render/pdf/layered_merge.py)."""
        if id(data) not in digests:
            digests[id(data)] = hashlib.sha256(data).hexdigest()
        return f"{SHARED_PREFIX}{digests[id(data)][:16]}_{page}"

    def xobject(key, data: bytes, page: int):
        if (key, page) not in xobjects:
            name(data, page)
            xobjects[(key, page)] = pdf.copy_foreign(sources.page(digests[id(data)], data,
                                                                  page))
        return xobjects[(key, page)]

    for number, art in enumerate(overlay.pages):
        if art is None:
            continue
        page = pdf.pages[number]
        form = overlay.forms[art.form]
        xdict = own_xobjects(page)
        form_name, band_name = name(form.pdf, 0), name(form.pdf, 1)
        xdict[form_name] = xobject(("form", art.form), form.pdf, 0)
        xdict[band_name] = xobject(("form", art.form), form.pdf, 1)
        ops = [b"Q", b"q %s Do Q" % form_name.encode(),
               b"q 1 0 0 1 0 %s cm %s Do Q" % (_num(-art.band_dy_px * PX_TO_PT),
                                                 band_name.encode())]
        for source, stamp_page, dx, dy_px in art.stamps + art.placed:
            stamp_name = name(overlay.stamps[source], stamp_page)
            xdict[stamp_name] = xobject(("stamp", source), overlay.stamps[source], stamp_page)
            ops.append(b"q 1 0 0 1 %s %s cm %s Do Q" % (
                _num(dx * PX_TO_PT), _num(-dy_px * PX_TO_PT), stamp_name.encode()))
        pikepdf.Page(page).contents_add(pikepdf.Stream(pdf, b"q\n"), prepend=True)
        pikepdf.Page(page).contents_add(pikepdf.Stream(pdf, b"\n".join(ops) + b"\n"))
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, compress_streams=not uncompressed)
    pdf.close()
    if own:
        sources.close()
    else:
        sources.trim()
    return out.getvalue()


def own_xobjects(page):
    """The page's XObject dictionary, made its own first, with its resources: WeasyPrint
    may share one resource dictionary between pages, and what is added is for this one."""
    import pikepdf

    resources = pikepdf.Dictionary({k: v for k, v in page.obj.get(
        "/Resources", pikepdf.Dictionary()).items()})
    xobjects = pikepdf.Dictionary({k: v for k, v in resources.get(
        "/XObject", pikepdf.Dictionary()).items()})
    resources.XObject = xobjects
    page.obj.Resources = resources
    return xobjects


def _num(value: float) -> bytes:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return (text if text not in ("-0", "") else "0").encode()


# --- in the worker: a stamps job's stylesheet, a values chunk's layers --------------------------

def stamp_css(state: dict, font_config):
    """STAMP_CSS parsed once a worker (`state`: the worker's kept state, render/job.py)."""
    from weasyprint import CSS

    if "stamp_css" not in state:
        state["stamp_css"] = CSS(string=STAMP_CSS, font_config=font_config)
    return state["stamp_css"]


def draw_layers(overlay: Overlay, uncompressed: bool, geometry, pdf: bytes,
                state: dict) -> bytes:
    """The values pages with their forms and stamps drawn over them. Pages that did not
    come out one a sheet (a sheet too long) are left as they are: the product reports or
    redraws them. The worker's `Sources` live in its kept `state`."""
    pages = overlay.pages
    if len(geometry) != len(pages) or any(
            art is not None and ("bottom" not in found or
                                 any(piece[4] not in found for piece in art.pieces))
            for art, found in zip(pages, geometry)):
        return pdf
    for number, art in enumerate(pages):
        if art is not None:
            form = overlay.forms[art.form]
            art.band_dy_px = geometry[number]["bottom"].top - form.band_top_px
            # the lists' pieces, from where their column is on this page
            art.placed = [(source, page, dx + geometry[number][column].content_x,
                           dy + geometry[number][column].content_y)
                          for source, page, dx, dy, column in art.pieces]
    sources = state.get("layer_sources")
    if sources is None:
        sources = state["layer_sources"] = Sources()
    return compose(pdf, overlay, uncompressed, sources)

