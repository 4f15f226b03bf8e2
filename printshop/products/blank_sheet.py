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
from printshop.products.common import (base_url, check_stylesheets, jinja_environment,
                                       page_size_css, stylesheet)
from printshop.render.jinja import render_template
from printshop.render.pdf import RenderJob, Stylesheet, collect_warnings
from printshop.source.classes import SAVES, STATS
from printshop.source.schema import Strict

SHEET_PAPERS = ("letter", "a4")
SHEET_MARGIN_MM = 9   # as the pregen sheet (products/pregens.py)
NO_STAT = ("", "-", "—", "none")

# (label, form field name): the boxes under HP and AC, in the pregen sheet's order
ATTACK_BOXES = (("Melee attack", "melee-attack"), ("Melee damage", "melee-damage"),
                ("Missile attack", "missile-attack"), ("Attack dice", "attack-dice"),
                ("Damage die", "damage-die"), ("Attack rank", "attack-rank"),
                ("Movement", "movement"), ("Hit die", "hit-die"))


class BlankSheetOptions(Strict):
    kind: Literal["blank-sheet"]
    papers: list[Literal["letter", "a4"]] = ["letter", "a4"]
    fillable: bool = True             # form fields; false: boxes and lines for a pencil only
    title: str = "Character Sheet"
    template: str = "blank-sheet.html.j2"
    stylesheets: list[str] = ["css/fonts.css", "css/pregens.css", "css/blank-sheet.css"]


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

    def check(self, ctx: BuildContext) -> None:
        self.sheet_info("letter", fillable=self.options.fillable)
        env = jinja_environment(self.project)
        try:
            env.get_template(self.options.template)
        except Exception as exc:
            from printshop.products.guide import _template_problem

            raise _template_problem(env, self.options.template, exc) from None
        check_stylesheets(ctx, self.project, list(self.options.stylesheets))

    def sheet_info(self, paper: str, fillable: bool) -> dict:
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
        return {"game": self.project.manifest.title, "title": self.options.title,
                "paper": paper, "fillable": fillable, "version": __version__,
                "stats": STATS, "saves": saves, "party_roles": roles,
                "attack_boxes": ATTACK_BOXES,
                "footer": "Print at 100 % for a pencil, or fill it in on screen and save it."
                if fillable else "Print at 100 % and fill it in by pencil."}

    def html(self, paper: str, fillable: bool) -> str:
        env = jinja_environment(self.project)
        return render_template(env, self.options.template,
                               sheet=self.sheet_info(paper, fillable))

    def job(self, ctx: BuildContext, paper: str, fillable: bool) -> RenderJob:
        project = self.project
        width, height = project.paper_size_mm(paper)
        margin = SHEET_MARGIN_MM
        size_css = Stylesheet(
            text=(f"@page {{ margin: {margin}mm; }}\n"
                  f".page {{ width: {width - 2 * margin:g}mm; "
                  f"height: {height - 2 * margin - 0.5:g}mm; }}"),
            label=f"sheet size ({paper})")
        sheets = tuple(stylesheet(project, s) for s in self.options.stylesheets)
        return RenderJob(html=self.html(paper, fillable),
                         stylesheets=sheets + (page_size_css(project, paper), size_css),
                         roots=tuple(str(r) for r in project.read_roots),
                         base_url=base_url(project),
                         source=f"{self.options.template} ({self.name})",
                         uncompressed=ctx.uncompressed, fit_check=True)

    def render(self, ctx: BuildContext, papers: list[str], fillable: bool) -> dict[str, bytes]:
        """paper → the sheet's PDF (one page), rendered together on the workers."""
        results = ctx.renderer.render([self.job(ctx, p, fillable) for p in papers])
        problems = []
        for paper, result in zip(papers, results):
            for warning in collect_warnings([result]):
                ctx.warn(warning)
            problems += [Problem(self.options.template, f"{o.describe()}: shorten what it "
                                 f"prints or adjust css/blank-sheet.css") for o in result.overflows]
            if result.pages != 1 and not result.overflows:
                problems.append(Problem(self.options.template, f"the blank sheet came out as "
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
                          paper: str) -> tuple[bytes, int]:
    """`book_pdf` with the blank sheet (print-only: no form fields) as its last page, on a
    leaf of its own, and a bookmark to it; and the book's new page count. On a paper the sheet is not laid out for (A5, digest) the A4 sheet is
    scaled to the page."""
    import io

    from pypdf import PdfReader, PdfWriter, Transformation
    from pypdf.generic import ArrayObject

    sheet_paper = paper if paper in SHEET_PAPERS else "a4"
    key = ("blank-sheet", "print", sheet_paper)
    sheet_pdf = ctx.shared.make(key, lambda: blank_sheet_product(project).render(
        ctx, [sheet_paper], fillable=False)[sheet_paper])
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(book_pdf)))
    identifier = writer._ID
    sheet = PdfReader(io.BytesIO(sheet_pdf)).pages[0]
    last = writer.pages[-1]
    width, height = float(last.mediabox.width), float(last.mediabox.height)
    if len(writer.pages) % 2:   # the sheet gets a leaf of its own, not the colophon's back
        writer.add_blank_page(width, height)
    if abs(float(sheet.mediabox.width) - width) > 1 or \
            abs(float(sheet.mediabox.height) - height) > 1:
        scale = min(width / float(sheet.mediabox.width),
                    height / float(sheet.mediabox.height))
        page = writer.add_blank_page(width, height)
        dx = (width - float(sheet.mediabox.width) * scale) / 2
        dy = (height - float(sheet.mediabox.height) * scale) / 2
        page.merge_transformed_page(sheet, Transformation().scale(scale).translate(dx, dy))
    else:
        writer.add_page(sheet)
    writer.add_outline_item(title="Character Sheet (to copy)", page_number=len(writer.pages) - 1)
    if identifier is not None:
        writer._ID = ArrayObject(identifier)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), len(writer.pages)


def blank_sheet_product(project) -> BlankSheet:
    """The manifest's blank-sheet product (its template and stylesheets), or the default."""
    for name, raw in project.manifest.products.items():
        if isinstance(raw, dict) and raw.get("kind") == "blank-sheet":
            from printshop.products import load_products

            return load_products(project, [name])[0]
    return BlankSheet(project, "blank-sheet", BlankSheetOptions(kind="blank-sheet"))
