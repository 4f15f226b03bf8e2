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
    SHEET_PAPERS,
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
    added here; the file's identifier is made from its content (the same sheet, the same
    bytes). pikepdf (loaded anyway to join a book), not pypdf: pypdf's import and its copy
    of the sheet in Python were 0.15 s of the guide's build."""
    import io

    import pikepdf

    centred = {s.lower() for s in STATS} | {f"{s.lower()}-mod" for s in STATS} | {
        "hp-max", "hp-current", "ac", "level", "tier", "xp", "xp-next"} | {
        name for _, name in ATTACK_BOXES}
    right = {f"save-{s.lower()}" for s in SAVES}
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            for field in page.get("/Annots") or []:
                name = str(field.get("/T", ""))
                if name in centred or name in right:
                    field.Q = 1 if name in centred else 2
        out = io.BytesIO()
        document.save(out, deterministic_id=True)
    return out.getvalue()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


PRODUCT = BlankSheet


def blank_sheet_product(project) -> BlankSheet:
    """The manifest's blank-sheet product (its template and stylesheets), or the default."""
    for name, raw in project.manifest.products.items():
        if isinstance(raw, dict) and raw.get("kind") == "blank-sheet":
            from printshop.products import load_products

            product = load_products(project, [name])[0]
            assert isinstance(product, BlankSheet)
            return product
    return BlankSheet(project, "blank-sheet", BlankSheetOptions(kind="blank-sheet"))
