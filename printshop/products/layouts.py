"""Page layouts for the hand: a paged product's reading-order PDF imposed as a folded
booklet or a one-sheet pocketmod zine (`--layout booklet|pocketmod`, a product's `layout:`
or a print profile's, such as `home-booklet`).

The product is composed and rendered as usual, at the size of the booklet's page (half the
sheet; a quarter by a half for a pocketmod), so its page numbers, contents and references
are right; `render/pdf/booklet.py` and `render/pdf/pocketmod.py` then place those pages on sheets,
and a page of printing and folding instructions, rendered from a template, goes with them.
Files: NAME.pdf (reading order, as always) and NAME-booklet.pdf or NAME-pocketmod.pdf.

The sheet is the paper printed on: --paper letter or a4 (a5 and digest name the booklet's
page, so they mean A4 and Letter sheets).
"""

from __future__ import annotations

from dataclasses import dataclass

from printshop.errors import PrintshopError
from printshop.render.job import RenderJob, Stylesheet

LAYOUTS = ("pages", "booklet", "pocketmod")
IMPOSED = ("booklet", "pocketmod")
# the paper a booklet or zine is printed on, from the paper asked for
SHEET_OF = {"letter": "letter", "digest": "letter", "a4": "a4", "a5": "a4", "a3": "a3"}
HALF_OF = {"letter": "digest", "a4": "a5", "a3": "a4"}   # a booklet's page on that sheet
# the kinds whose pages can be imposed: the book (and manuscripts) and reference sheets
KINDS = ("guide", "reference")
INSTRUCTIONS = {"booklet": "layouts/booklet.html.j2", "pocketmod": "layouts/pocketmod.html.j2"}


@dataclass(frozen=True)
class Layout:
    kind: str                      # booklet or pocketmod
    sheet: str                     # the paper printed on
    sheet_mm: tuple[float, float]  # portrait
    page_mm: tuple[float, float]   # the product's page (portrait)
    page_paper: str | None         # the page as a paper name, when it is one
    thickness_mm: float            # the paper's thickness (a booklet's creep)
    origin: str                    # where it was asked for, for messages

    def page_css(self) -> Stylesheet:
        width, height = self.page_mm
        return Stylesheet(text=f"@page {{ size: {width:g}mm {height:g}mm; }}",
                          label=f"{self.kind} page on {self.sheet}")


def requested(ctx, product) -> tuple[str, str] | None:
    """(layout, where it was asked for) for `product`, or None for its pages as they are:
    --layout, else the print profile's `layout`, else the product's own option."""
    if getattr(ctx, "layout", None) in IMPOSED:
        return ctx.layout, "--layout"
    profile = product.print_profile() if hasattr(product.options, "profile") else None
    if profile is not None and profile.layout in IMPOSED:
        return profile.layout, f"print profile '{profile.name}'"
    own = getattr(product.options, "layout", None)
    if own in IMPOSED:
        return own, f"products.{product.name}.layout"
    return None


def layout_for(ctx, product, paper: str) -> Layout | None:
    """The layout `product` is built in on `paper` (the product's paper before the layout:
    the sheet), or None."""
    asked = requested(ctx, product)
    if asked is None:
        return None
    kind, origin = asked
    project = product.project
    sheet = SHEET_OF[paper]
    sheet_mm = project.paper_size_mm(sheet)
    if kind == "booklet":
        page_paper = HALF_OF[sheet]
        page_mm = project.paper_size_mm(page_paper)
    else:
        from printshop.render.pdf.pocketmod import panel_size_mm

        page_paper, page_mm = None, panel_size_mm(sheet_mm)
    return Layout(kind, sheet, sheet_mm, page_mm, page_paper, thickness(product), origin)


def thickness(product) -> float:
    """The paper's thickness in mm: the product's print profile's, else the home profile's."""
    from printshop.profiles import get_profile

    profile = product.print_profile() if hasattr(product.options, "profile") else None
    return (profile or get_profile(None, product.project.root)).paper_thickness


def check(ctx, product) -> None:
    """A layout asked for a kind that cannot be imposed is an error naming the product."""
    asked = requested(ctx, product)
    if asked is None:
        return
    kind, origin = asked
    profile = product.print_profile() if hasattr(product.options, "profile") else None
    if product.kind in KINDS:
        if profile is not None and profile.for_press:
            raise PrintshopError.at(origin, f"products.{product.name}: the {kind} layout is "
                                    "for printing and folding by hand; print profile "
                                    f"'{profile.name}' is for a press, which imposes the "
                                    "pages itself")
        return
    own = ""
    if product.kind == "cards":
        own = "; card products have their own layouts: home, foldover, printshop"
    raise PrintshopError.at(origin, f"products.{product.name}: the {kind} layout is for "
                            f"books and reference sheets (kinds {', '.join(KINDS)}), not a "
                            f"{product.kind} product{own}")


def imposed(ctx, product, file_name: str, pdf: bytes, layout: Layout,
            title: str | None = None) -> tuple[str, bytes]:
    """The imposed file for `pdf` (the reading-order file `file_name`): its name and bytes,
    the instructions page last."""
    from printshop.render.pdf.merge import merge_pdfs

    stem = file_name.removesuffix(".pdf")
    name = f"{stem}-{layout.kind}.pdf"
    if layout.kind == "booklet":
        from printshop.render.pdf.booklet import impose_booklet

        made = impose_booklet(pdf, layout.sheet_mm, layout.thickness_mm, title,
                              ctx.uncompressed)
        sheets, scale = made.pdf, made.scale
        facts = {"pages": made.pages, "booklet_pages": made.booklet_pages,
                 "blanks": made.blanks, "sheets": made.sheets, "sides": made.sides,
                 "creep": round(made.creep_mm, 2)}
    else:
        from printshop.render.pdf.place_pages import page_sizes_mm
        from printshop.render.pdf.pocketmod import MAX_PAGES, impose_pocketmod

        pages = len(page_sizes_mm(pdf))
        if pages > MAX_PAGES:
            raise PrintshopError.at(layout.origin, f"products.{product.name}: a pocketmod "
                                    f"holds {MAX_PAGES} pages; {file_name} has {pages} "
                                    f"(shorten it, or build it as a booklet)")
        sheets, scale = impose_pocketmod(pdf, layout.sheet_mm, title, ctx.uncompressed)
        facts = {"pages": pages, "blanks": MAX_PAGES - pages}
    if scale < 0.995:
        from printshop.errors import Problem

        ctx.warn(Problem(file_name, f"the {layout.kind}'s pages are printed at "
                         f"{scale:.0%} of their size: {file_name}'s pages are bigger than "
                         f"half the {layout.sheet} sheet"))
    if ctx.progress:
        ctx.progress(f"{product.name}: {name}: " + _summary(layout, facts))
    guide = instructions(ctx, product, layout, name, dict(facts, scale=round(scale * 100)))
    return name, merge_pdfs([sheets, guide], title=title)


def _summary(layout: Layout, facts: dict) -> str:
    if layout.kind == "pocketmod":
        return f"{facts['pages']} pages on one {layout.sheet} sheet"
    creep = f", inner pages moved {facts['creep']:g} mm for creep" if facts["creep"] else ""
    return (f"{facts['pages']} pages ({facts['blanks']} blank) on {facts['sheets']} "
            f"{layout.sheet} sheet{'s' if facts['sheets'] != 1 else ''}{creep}")


def instructions(ctx, product, layout: Layout, file_name: str, facts: dict) -> bytes:
    """The page of printing and folding instructions (the sheet's size, landscape)."""
    from printshop.products.common import base_url, jinja_environment, stylesheet
    from printshop.render.jinja import render_template
    from printshop.render.job_warnings import collect_warnings

    project = product.project
    width, height = max(layout.sheet_mm), min(layout.sheet_mm)
    paper_names = {key: row["name"] for key, row in project.papers.items()}
    html = render_template(jinja_environment(project), INSTRUCTIONS[layout.kind],
                           file=file_name, product=product.name, facts=facts,
                           sheet={"id": layout.sheet, "width": width, "height": height,
                                  "name": paper_names.get(layout.sheet, layout.sheet)},
                           page={"width": round(layout.page_mm[0], 2),
                                 "height": round(layout.page_mm[1], 2)},
                           thickness=layout.thickness_mm)
    from printshop.products.printing import colours_for, palette_css

    sheets = (palette_css(colours_for(project, None)), stylesheet(project, "css/fonts.css"),
              stylesheet(project, "css/layouts.css"),
              Stylesheet(text=f"@page {{ size: {width:g}mm {height:g}mm; }}",
                         label=f"{layout.sheet} landscape"))
    job = RenderJob(html=html, stylesheets=sheets, roots=tuple(map(str, project.read_roots)),
                    base_url=base_url(project), source=INSTRUCTIONS[layout.kind],
                    uncompressed=ctx.uncompressed)
    result = ctx.renderer.render([job])[0]
    for warning in collect_warnings([result]):
        ctx.warn(warning)
    if result.pages != 1:
        raise PrintshopError.at(INSTRUCTIONS[layout.kind], f"the {layout.kind} instructions "
                                f"should fill one page but took {result.pages}")
    return result.pdf
