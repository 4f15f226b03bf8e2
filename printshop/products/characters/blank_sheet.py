"""The blank character sheet: the pregen sheet with nothing rolled, for players who roll
their own. One PDF per paper (Letter and A4), each printable for a pencil and a fillable
PDF form (a form field for every space a player writes in).

The labels come from the tables (stats, saves and the stat each uses, party roles), so the
sheet follows the rules source like the pregens do.
"""

from __future__ import annotations

import re
from typing import Literal

from printshop import __version__
from printshop.errors import PrintshopError, Problem
from printshop.output import BuildOutput
from printshop.products import BuildContext, Product
from printshop.products.characters import blank_recipe
from printshop.products.common import (
    base_url,
    check_stylesheets,
    jinja_environment,
    page_size_css,
    stylesheet,
    template_problem,
)
from printshop.render.checks import FitCheck
from printshop.render.jinja import render_template
from printshop.render.job import RenderJob, Stylesheet
from printshop.render.job_warnings import collect_warnings
from printshop.source.classes import SAVES, STATS
from printshop.source.schema import Strict

SHEET_PAPERS = ("letter", "a4")
SHEET_MARGIN_MM = 9   # as the pregen sheet (products/characters/pregens.py)
SHEET_FOOT_MM = 5     # css/pregens.css: .page-body is the page less the footer line
RULE_MM = 6.5         # the writing areas' and notes' ruled lines (css/blank-sheet.css)
NO_STAT = ("", "-", "—", "none")

# (label, form field name): the boxes under HP and AC, in the pregen sheet's order
ATTACK_BOXES = (("Melee attack", "melee-attack"), ("Melee damage", "melee-damage"),
                ("Missile attack", "missile-attack"), ("Attack dice", "attack-dice"),
                ("Damage die", "damage-die"), ("Attack rank", "attack-rank"),
                ("Movement", "movement"), ("Hit die", "hit-die"))


class BlankSheetOptions(Strict):
    kind: Literal["blank-sheet"]
    papers: list[Literal["letter", "a4"]] = ["letter", "a4"]   # one PDF for each
    fillable: bool = True             # form fields; false: boxes and lines for a pencil only
    title: str = "Character Sheet"    # the PDF's title
    recipe: str | None = None         # the recipe whose sheet this is (default: the game's)
    # the sheet's Jinja template (templates/ first); default: the recipe's blank sheet,
    # else its sheet with nothing rolled (HAMMERCRAWL!'s: blank-sheet.html.j2)
    template: str | None = None
    stylesheets: list[str] | None = None   # templates/css/ first; default: the recipe's




class BlankSheet(Product):
    kind = "blank-sheet"
    Options = BlankSheetOptions

    def papers(self, ctx: BuildContext) -> list[str]:
        """`--paper letter|a4` builds that one; otherwise every paper of the options."""
        if ctx.paper:
            if ctx.paper in SHEET_PAPERS:
                return [ctx.paper]
            ctx.warn(Problem(self.name, f"the character sheet is laid out for letter or a4 "
                             f"paper, not {ctx.paper}; building {', '.join(self.options.papers)}"))
        return list(dict.fromkeys(self.options.papers))

    # --- which sheet: the recipe's (its blank template, or its sheet with nothing rolled) --
    @property
    def recipe(self):
        return blank_recipe.recipe_of(self)

    @property
    def template(self) -> str:
        return blank_recipe.template_of(self)

    @property
    def stylesheets(self) -> list[str]:
        return blank_recipe.stylesheets_of(self)

    def check(self, ctx: BuildContext) -> None:
        if self.template == blank_recipe.LEGACY_TEMPLATE:
            self.sheet_info("letter", fillable=self.options.fillable)
        env = jinja_environment(self.project)
        try:
            env.get_template(self.template)
        except Exception as exc:
            raise template_problem(env, self.template, exc) from None
        check_stylesheets(ctx, self.project, self.stylesheets)

    def sheet_info(self, paper: str, fillable: bool, footer: str | None = None) -> dict:
        """What the template prints; `footer` replaces the standalone sheet's "Print at
        100 %" line (the sheet at the back of a book says how to copy that page)."""
        tables = self.project.tables
        for needed in ("saving-throws", "party-roles"):
            if needed not in tables:
                raise PrintshopError(Problem("tables", f"the blank character sheet needs "
                                             f"tables/{needed}.yaml"))
        save_rows = {r["save"]: r for r in tables["saving-throws"].rows}
        missing = [s for s in SAVES if s not in save_rows]
        if missing:
            raise PrintshopError(Problem(str(tables["saving-throws"].path),
                                         f"no row for the save(s) {', '.join(missing)}"))
        saves = [{"name": s, "stat": None if str(save_rows[s]["stat"]).strip().lower()
                  in NO_STAT else save_rows[s]["stat"]} for s in SAVES]
        roles = [{"name": r["role"], "id": _slug(r["role"])}
                 for r in tables["party-roles"].rows]
        # the page body's height, as job() makes it: the ruled lines behind the notes
        body_mm = self.project.paper_size_mm(paper)[1] - 2 * SHEET_MARGIN_MM - 0.5 \
            - SHEET_FOOT_MM
        return {"game": self.project.manifest.title, "title": self.options.title,
                "paper": paper, "fillable": fillable, "version": __version__,
                "rule_mm": RULE_MM, "page_rules": int(body_mm // RULE_MM),
                "stats": STATS, "saves": saves, "party_roles": roles,
                "attack_boxes": ATTACK_BOXES,
                "footer": footer or (
                    "Print at 100 % for a pencil, or fill it in on screen and save it."
                    if fillable else "Print at 100 % and fill it in by pencil.")}

    def html(self, paper: str, fillable: bool, footer: str | None = None) -> str:
        env = jinja_environment(self.project)
        if self.template == blank_recipe.LEGACY_TEMPLATE:
            return render_template(env, self.template,
                                   sheet=self.sheet_info(paper, fillable, footer))
        return render_template(env, self.template, part="blank", characters=[], marks={},
                               index_pages=[], first_index_page=0, blank_back=False,
                               screen_css="", layers={}, geometry={},
                               collect=lambda name, text: "",
                               pack=blank_recipe.blank_pack(self, paper),
                               sheet=blank_recipe.blank_info(self, paper, fillable, footer))

    def job(self, ctx: BuildContext, paper: str, fillable: bool, profile=None,
            footer: str | None = None) -> RenderJob:
        """The sheet's render job; with a CMYK print `profile` (the sheet at the back of a
        press edition of the book) every colour is the palette's DeviceCMYK."""
        from printshop.products.printing import sheet_palette_css

        project = self.project
        width, height = project.paper_size_mm(paper)
        margin = SHEET_MARGIN_MM
        size_css = Stylesheet(
            text=(f"@page {{ margin: {margin}mm; }}\n"
                  f".page {{ width: {width - 2 * margin:g}mm; "
                  f"height: {height - 2 * margin - 0.5:g}mm; }}"),
            label=f"sheet size ({paper})")
        sheets = (sheet_palette_css(project, profile),) + tuple(
            stylesheet(project, s) for s in self.stylesheets)
        cmyk = profile is not None and profile.cmyk
        return RenderJob(html=self.html(paper, fillable, footer),
                         stylesheets=sheets + (page_size_css(project, paper), size_css),
                         roots=tuple(str(r) for r in project.read_roots),
                         base_url=base_url(project),
                         source=f"{self.template} ({self.name})",
                         uncompressed=ctx.uncompressed, extensions=(FitCheck(),),
                         cmyk_icc=str(profile.icc_path(project.root)) if cmyk else None)

    def render(self, ctx: BuildContext, papers: list[str], fillable: bool,
               profile=None, footer: str | None = None) -> dict[str, bytes]:
        """paper → the sheet's PDF (one page), rendered together on the workers."""
        results = ctx.renderer.render([self.job(ctx, p, fillable, profile, footer)
                                       for p in papers])
        problems = []
        for paper, result in zip(papers, results):
            for warning in collect_warnings([result]):
                ctx.warn(warning)
            problems += [Problem(self.template, f"{o.describe()}: shorten what it "
                                 f"prints or adjust css/blank-sheet.css")
                         for o in FitCheck.overflows(result)]
            if result.pages != 1 and not FitCheck.overflows(result):
                problems.append(Problem(self.template, f"the blank sheet came out as "
                                        f"{result.pages} pages on {paper}, expected 1"))
        if problems:
            raise PrintshopError(problems)
        return {paper: align_fields(result.pdf) if fillable else result.pdf
                for paper, result in zip(papers, results)}

    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        for paper, pdf in self.render(ctx, self.papers(ctx), self.options.fillable).items():
            output.add(f"{self.name}-{paper}.pdf", pdf)


def align_fields(pdf: bytes) -> bytes:
    """Numbers sit centred in their boxes (saves to the right) when a viewer fills them in, as
    they do on a pregen sheet. WeasyPrint writes no alignment (/Q) for a form field, so it is
    added here; everything else in the file is kept as it was, the file identifier too."""
    import io

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, NameObject, NumberObject

    centred = {s.lower() for s in STATS} | {f"{s.lower()}-mod" for s in STATS} | {
        "hp-max", "hp-current", "ac", "level", "tier", "xp", "xp-next"} | {
        name for _, name in ATTACK_BOXES}
    right = {f"save-{s.lower()}" for s in SAVES}
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    identifier = writer._ID
    for page in writer.pages:
        for ref in page.get("/Annots") or []:
            field = ref.get_object()
            name = str(field.get("/T", ""))
            if name in centred or name in right:
                field[NameObject("/Q")] = NumberObject(1 if name in centred else 2)
    if identifier is not None:
        writer._ID = ArrayObject(identifier)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


PRODUCT = BlankSheet


# --- the sheet at the back of the book ------------------------------------------------------

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


def render_sheet_with_book(ctx: BuildContext, project, paper: str, profile=None) -> None:
    """Have the renderer draw the book's sheet alongside the book's parts (`Renderer.also`)
    rather than after them: the sheet's job as `book_with_blank_sheet` will ask for it when
    the book's pages are its paper's size (a press edition's trimmed to it), which they are
    unless its stylesheets say otherwise (then the sheet is drawn again, after the book)."""
    sheet_paper, press = _book_sheet_paper(paper), _press(profile)
    page = _paper_rect(project, paper)
    _, footer = _sheet_on_page(project, sheet_paper, press, page, page)
    ctx.renderer.also(blank_sheet_product(project).job(ctx, sheet_paper, False, press, footer))


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
    return paper if paper in SHEET_PAPERS else "a4"


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


def blank_sheet_product(project) -> BlankSheet:
    """The manifest's blank-sheet product (its template and stylesheets), or the default."""
    for name, raw in project.manifest.products.items():
        if isinstance(raw, dict) and raw.get("kind") == "blank-sheet":
            from printshop.products import load_products

            product = load_products(project, [name])[0]
            assert isinstance(product, BlankSheet)
            return product
    return BlankSheet(project, "blank-sheet", BlankSheetOptions(kind="blank-sheet"))
