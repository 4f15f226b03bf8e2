"""The blank character sheet at the back of the Player's Guide: the print edition's last
page (the sheet to copy, drawn smaller where the book's page cannot hold it at full size, in
a press edition's colours, trim and safe area) and the HTML edition's link to the fillable
form. The sheet itself is blank_sheet.py's."""

from __future__ import annotations

from printshop.products import BuildContext
from printshop.products.characters.blank_sheet import SHEET_MARGIN_MM, blank_sheet_product
from printshop.products.common import sheet_paper as laid_out_paper


def book_with_blank_sheet(ctx: BuildContext, project, book_pdf: bytes,
                          paper: str, profile=None) -> tuple[bytes, int]:
    """`book_pdf` with the blank sheet as its last page, on a leaf of its own, and a bookmark
    to it; and the book's new page count. On a paper the sheet is not laid out for (A5,
    digest) the A4 sheet is scaled to the page.

    The sheet is print-only (boxes and ruled lines, no form fields) in every edition of the
    book: it is there to be photocopied, and the fillable form is the blank-sheet product.
    A press could not take the fields anyway: PDF/X-1a allows no annotations on the page, and
    the press profiles drop every annotation.

    For a press `profile` the sheet is drawn in the book's colours (the palette's CMYK in a
    CMYK edition) on a page with the book's trim and bleed, its content inside the profile's
    safe area and clear of the gutter (it is a right-hand page), shrunk a little if the
    safe area is smaller than the sheet's own margins leave (0.5 % for dtrpg-book, 7 % for
    lulu-book's half-inch safe area).

    Its footer says how to get a full-size sheet from that page (`book_sheet_footer`): the
    standalone sheet's "Print at 100 %" is not true of a sheet drawn smaller than it is,
    and a press edition's reader copies the page rather than prints it."""
    import io

    import pikepdf

    sheet_paper, press = _book_sheet_paper(paper), _press(profile)
    # pikepdf, not pypdf: cloning the whole book in pure Python took ~0.5 s of the guide's
    with pikepdf.open(io.BytesIO(book_pdf)) as book:
        last = book.pages[-1]
        as_is, footer = _sheet_on_page(project, sheet_paper, press, _rect(last.trimbox),
                                       _rect(last.mediabox))
        key = ("blank-sheet", "print", sheet_paper, press.name if press else "home", footer)
        sheet_pdf = ctx.shared.make(key, lambda: blank_sheet_product(project).render(
            ctx, [sheet_paper], fillable=False, profile=press, footer=footer)[sheet_paper])
        with pikepdf.open(io.BytesIO(sheet_pdf)) as sheet_file:
            sheet = sheet_file.pages[0]
            if len(book.pages) % 2:   # the sheet gets a leaf of its own, not the colophon's back
                _add_page_like(book, last)
            if as_is:
                book.pages.append(sheet)
            else:
                _place(book, _add_page_like(book, last), sheet, last, press)
            with book.open_outline() as outline:
                outline.root.append(pikepdf.OutlineItem(BOOK_SHEET_TITLE,
                                                        len(book.pages) - 1))
            out = io.BytesIO()
            book.save(out, deterministic_id=True)
            return out.getvalue(), len(book.pages)


def fillable_sheet_link(ctx: BuildContext, project, paper: str) -> dict:
    """The HTML edition's stand-in for the printed book's last page: the fillable sheet on
    the book's paper, as a link that downloads it (a data: URL, so the edition stays one
    self-contained file)."""
    import base64

    sheet_paper = _book_sheet_paper(paper)

    def render() -> bytes:
        product = blank_sheet_product(project)
        if ctx.renderer is not None:
            return product.render(ctx, [sheet_paper], fillable=True)[sheet_paper]
        from dataclasses import replace

        from printshop.render.renderer import Renderer

        with Renderer(processes=1) as renderer:   # (a book composed outside a build)
            return product.render(replace(ctx, renderer=renderer), [sheet_paper],
                                  fillable=True)[sheet_paper]

    pdf = ctx.shared.make(("blank-sheet", "fillable", sheet_paper), render)
    return {"title": BOOK_SHEET_TITLE, "paper": PAPER_NAMES[sheet_paper],
            "file": f"character-sheet-{sheet_paper}.pdf",
            "href": "data:application/pdf;base64," + base64.b64encode(pdf).decode("ascii")}


def render_sheet_with_book(ctx: BuildContext, project, paper: str, profile=None,
                           fillable: bool = False) -> None:
    """Have the renderer draw the book's sheet now, while the book is composed and its
    workers would wait (`Renderer.also`), rather than after its parts: the sheet's job as
    `book_with_blank_sheet` will ask for it when the book's pages are its paper's size (a
    press edition's trimmed to it), which they are unless its stylesheets say otherwise
    (then the sheet is drawn again, after the book). With `fillable`, the fillable sheet
    the HTML edition links (`fillable_sheet_link`) too."""
    sheet_paper, press = _book_sheet_paper(paper), _press(profile)
    page = _paper_rect(project, paper)
    _, footer = _sheet_on_page(project, sheet_paper, press, page, page)
    product = blank_sheet_product(project)
    ctx.renderer.also(product.job(ctx, sheet_paper, False, press, footer), now=True)
    if fillable:
        ctx.renderer.also(product.job(ctx, sheet_paper, True), now=True)


def _sheet_on_page(project, sheet_paper: str, press, trim: list[float],
                   media: list[float]) -> tuple[bool, str]:
    """Whether the sheet goes on a book page with these boxes as it is (same size, home
    edition), and the footer it then prints (`book_sheet_footer` at the scale `_fit` gives)."""
    sheet_media = _paper_rect(project, sheet_paper)   # the sheet's page: no bleed
    as_is = press is None and _same_size(sheet_media, media)
    scale = 1.0 if as_is else _fit(sheet_media, trim, media, press)[0]
    return as_is, book_sheet_footer(scale, press is not None, sheet_paper)


def _paper_rect(project, paper: str) -> list[float]:
    pt = 72 / 25.4
    width, height = project.paper_size_mm(paper)
    return [0.0, 0.0, width * pt, height * pt]


def _book_sheet_paper(paper: str) -> str:
    return laid_out_paper(paper, "a4")   # (A5, digest: the A4 sheet, drawn smaller)


def _press(profile):
    return profile if profile is not None and profile.for_press else None


PAPER_NAMES = {"letter": "Letter", "a4": "A4"}
BOOK_SHEET_TITLE = "Character Sheet (to copy)"   # the book's last page, in both editions


def book_sheet_footer(scale: float, press: bool, sheet_paper: str) -> str:
    """The footer of the sheet in a book drawn at `scale` of its size: how to get a
    full-size sheet from that page. A home edition's reader prints the page; a press
    edition's copies it from the bound book. A sheet drawn smaller than it is (on A5 or
    digest paper, inside lulu-book's half-inch safe area) is enlarged back to its paper."""
    verb = "Copy this page" if press else "Print"
    percent = int(100 / scale + 1e-6)   # down: the sheet never outgrows its paper
    if percent <= 100:
        return f"{verb} at 100 % and fill it in by pencil."
    if not press:
        verb = "Print this page"
    return (f"{verb} at {percent} % onto {PAPER_NAMES[sheet_paper]} and fill it in by "
            "pencil.")


def _rect(box) -> list[float]:
    return [float(v) for v in box]


def _place(book, page, sheet, book_page, press) -> None:
    """Draw the sheet's page on `page` of `book` where `_fit` puts it on a book page."""
    import pikepdf

    scale, dx, dy = _fit(_rect(sheet.mediabox), _rect(book_page.trimbox),
                         _rect(book_page.mediabox), press)
    form = book.copy_foreign(sheet.as_form_xobject())
    # a name of its own (the page is new, its resources empty): pikepdf's `prefix=` draws a
    # random one, and the book came out with other bytes in every build
    name = page.add_resource(form, pikepdf.Name.XObject, pikepdf.Name("/Sheet"))
    page.contents_add(book.make_stream(
        b"q %.6f 0 0 %.6f %.6f %.6f cm %s Do Q" % (scale, scale, dx, dy, bytes(str(name),
                                                                            "ascii"))))


def _fit(media, trim, book_media, press) -> tuple[float, float, float]:
    """(scale, dx, dy) of the sheet's page (`media`) on a book page: the whole sheet scaled
    to the page (home), or (press) its content, inside the sheet's margins, into the trim's
    safe area: no larger than it is, centred, the gutter kept free on the left."""
    if press is None:
        box, target = media, book_media
        grow = True
    else:
        pt = 72 / 25.4
        margin, safe, gutter = SHEET_MARGIN_MM * pt, press.safe * pt, press.gutter * pt
        box = [media[0] + margin, media[1] + margin, media[2] - margin, media[3] - margin]
        target = [trim[0] + safe + gutter, trim[1] + safe, trim[2] - safe, trim[3] - safe]
        grow = False
    width, height = box[2] - box[0], box[3] - box[1]
    scale = min((target[2] - target[0]) / width, (target[3] - target[1]) / height)
    if not grow:
        scale = min(scale, 1.0)
    dx = target[0] + ((target[2] - target[0]) - width * scale) / 2 - box[0] * scale
    dy = target[1] + ((target[3] - target[1]) - height * scale) / 2 - box[1] * scale
    return scale, dx, dy


def _same_size(a: list[float], b: list[float]) -> bool:
    return abs((a[2] - a[0]) - (b[2] - b[0])) <= 1 and abs((a[3] - a[1]) - (b[3] - b[1])) <= 1


def _add_page_like(book, like):
    """A blank page at the end with `like`'s page boxes (a book page with bleed has its
    MediaBox around the trim, origin below zero)."""
    import pikepdf

    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, Resources=pikepdf.Dictionary(),
                              Contents=book.make_stream(b""))
    for name in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox"):
        if name in like.obj:
            page[name] = pikepdf.Array([float(v) for v in like.obj[name]])
    book.pages.append(pikepdf.Page(page))
    return book.pages[-1]
