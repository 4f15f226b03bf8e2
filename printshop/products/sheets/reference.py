"""Reference sheets, class cards and the Hammersmith's screen, printed from the guide's tables.

Each sheet is a layout file (`sheets/ID.yaml`, see `printshop.source.sheets`) rendered by a
template that embeds tables by id (`{{ table("save-targets") }}`) through the same partial
the guide uses, so a changed YAML value reaches the book and every sheet at once. The
manifest groups sheets into output files:

    reference:
      kind: reference
      files:
        reference: [player-reference, hammersmith-reference, class-cards]
        screen: [hammersmith-screen]

Every page is a fixed-size box and every block on it is marked `data-fit`; a block that runs
off its column (or panel, or card) fails the build with the layout file, line and block. A
sheet that renders to any other number of pages than its layout has fails too.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Annotated, Literal

from markupsafe import Markup
from pydantic import Field

from printshop import __version__
from printshop.errors import PrintshopError, Problem, Problems, display_path
from printshop.output import BuildOutput, check_output_name
from printshop.products import BuildContext, Product, markup
from printshop.products.common import (
    SHEET_PAPERS,
    base_url,
    build_date,
    check_stylesheets,
    jinja_environment,
    sheet_paper,
    stylesheet,
    warn_missing_glyphs,
)
from printshop.products.sheets.layout import Place, card_pages, layout_pages
from printshop.render.checks import FitCheck
from printshop.render.jinja import _template_frame, render_template
from printshop.render.job import RenderJob, Stylesheet
from printshop.render.job_warnings import collect_warnings
from printshop.render.pdf.merge import merge_pdfs
from printshop.safepath import UnsafePath, resolve_inside
from printshop.source.schema import Strict
from printshop.source.sheets import Sheet, load_sheet
from printshop.source.yamlfile import load_yaml

TABLE_PARTIAL = "partials/table.html.j2"
SHEET_TEMPLATE = "sheets/sheet.html.j2"
CARDS_TEMPLATE = "sheets/class-cards.html.j2"


SheetId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]  # a file stem, never a path


class ReferenceOptions(Strict):
    kind: Literal["reference"]
    sheets: str = "sheets"                     # folder of layout files, inside the project
    files: dict[str, list[SheetId]]            # output name (no .pdf) → sheet ids, in order
    paper: Literal["letter", "a4"] | None = None   # default: the manifest's
    profile: str | None = None   # a print profile (print-profiles.yaml); default home
    stylesheets: list[str] = ["css/fonts.css", "css/sheets.css"]   # templates/css/ first


class UnknownTable(Exception):
    """Raised by the templates' `table()` for an id that is not in tables/ (located later)."""

    def __init__(self, table_id: str, known: list[str]):
        close = difflib.get_close_matches(table_id, known, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        super().__init__(f"table(\"{table_id}\"): no table '{table_id}' in tables/{hint}")


@dataclass
class _Composed:
    sheet: Sheet
    html: str
    pages: int
    fit_names: dict[str, Place]   # data-fit name → where it comes from, for messages


class Reference(Product):
    kind = "reference"
    PROFILES = "home"
    Options = ReferenceOptions

    # --- checking ----------------------------------------------------------------------------
    def asked_paper(self, ctx: BuildContext) -> str:
        return ctx.paper or self.options.paper or self.project.manifest.paper

    def paper(self, ctx: BuildContext) -> str:
        """The paper the sheets print on: the one asked for, or, where they are not laid out
        for it (`build --paper a5` of a whole manifest), the product's own or Letter, as a
        pack of characters does (check() says so)."""
        return sheet_paper(self.asked_paper(ctx), self.options.paper)

    def _manifest_line(self, *loc) -> int | None:
        if not self.project.manifest_path:
            return None
        doc = load_yaml(self.project.manifest_path)
        return doc.pos(("products", self.name) + loc).line

    def load_sheets(self) -> dict[str, Sheet]:
        problems = Problems()
        folder = self.project.root / self.options.sheets
        sheets: dict[str, Sheet] = {}
        for stem, ids in self.options.files.items():
            try:
                check_output_name(f"{stem}.pdf")
            except PrintshopError as exc:
                problems.add(self.project.manifest_path or self.project.root,
                             f"products.{self.name}.files: {exc.problems[0].message}",
                             self._manifest_line("files", stem))
            if not ids:
                problems.add(self.project.manifest_path or self.project.root,
                             f"products.{self.name}.files.{stem}: list at least one sheet",
                             self._manifest_line("files", stem))
            for index, sheet_id in enumerate(ids):
                if sheet_id in sheets:
                    continue
                path = folder / f"{sheet_id}.yaml"
                try:
                    path = resolve_inside(path, [self.project.root], allow_absolute=True)
                except UnsafePath as exc:
                    if path.exists():
                        problems.add(self.project.manifest_path or self.project.root,
                                     f"products.{self.name}.files.{stem}: sheet layout "
                                     f"'{display_path(path)}' {exc}",
                                     self._manifest_line("files", stem, index))
                        continue
                if not path.is_file():
                    available = sorted(p.stem for p in folder.glob("*.yaml")) \
                        if folder.is_dir() else []
                    close = difflib.get_close_matches(sheet_id, available, n=1)
                    hint = f" (did you mean '{close[0]}'?)" if close else ""
                    problems.add(self.project.manifest_path or self.project.root,
                                 f"products.{self.name}.files.{stem}: no sheet layout "
                                 f"'{display_path(path)}'{hint}",
                                 self._manifest_line("files", stem, index))
                    continue
                try:
                    sheets[sheet_id] = load_sheet(path, sheet_id)
                except PrintshopError as exc:
                    problems.extend(exc)
        problems.raise_if_any()
        return sheets

    def check(self, ctx: BuildContext) -> None:
        asked = self.asked_paper(ctx)
        if asked not in SHEET_PAPERS:
            ctx.warn(Problem(self.name, f"the reference sheets are laid out for "
                             f"{' or '.join(SHEET_PAPERS)} paper, not {asked}; "
                             f"they print on {self.paper(ctx)}"))
        sheets = self.load_sheets()
        tables = self.project.tables
        classes = self.project.classes
        class_ids = [c.id for c in classes.classes] if classes else None
        problems = Problems()
        env = jinja_environment(self.project)
        template_problems: list[Problem] = _check_template(env, TABLE_PARTIAL, tables)
        for sheet in sheets.values():
            try:
                sheet.check_references(tables, class_ids)
            except PrintshopError as exc:
                problems.extend(exc)
            origin = None
            if sheet.layout.template:
                pos = sheet.doc.pos(("template",))
                origin = Problem(display_path(sheet.path), "", pos.line, pos.column)
            for problem in _check_template(env, self._template_of(sheet), tables, origin):
                if problem not in template_problems:
                    template_problems.append(problem)
        problems.items.extend(template_problems)
        try:
            check_stylesheets(ctx, self.project, self.options.stylesheets)
        except PrintshopError as exc:
            problems.extend(exc)
        problems.raise_if_any()
        self._sheets = sheets

    @staticmethod
    def _template_of(sheet: Sheet) -> str:
        return sheet.layout.template or (CARDS_TEMPLATE if sheet.is_cards else SHEET_TEMPLATE)

    # --- composing ---------------------------------------------------------------------------
    def _environment(self):
        env = jinja_environment(self.project)
        tables = self.project.tables
        known = sorted(tables)

        def table(table_id: str, caption: bool = True, description: bool = True,
                  notes: bool = True) -> Markup:
            if table_id not in tables:
                raise UnknownTable(str(table_id), known)
            # No links: a sheet need not print the table a "roll on" row points to. What
            # the sheet leaves out is not composed at all (not hidden by a stylesheet):
            # the words on the page are the words composed (render/weasy/words.py).
            return Markup(render_template(env, TABLE_PARTIAL, table=tables[table_id],
                                          tables=tables, anchor=None, link_then=False,
                                          show_caption=caption, show_description=description,
                                          show_notes=notes))

        env.globals["table"] = table
        return env

    def compose(self, ctx: BuildContext, sheet: Sheet) -> _Composed:
        env = self._environment()
        paper = self.paper(ctx)
        width, height = self.project.paper_size_mm(paper)
        if sheet.layout.orientation == "landscape":
            width, height = height, width
        common = {
            "sheet": {"id": sheet.id, "title": sheet.layout.title,
                      "subtitle": sheet.layout.subtitle, "footer": sheet.layout.footer,
                      "fold_lines": sheet.layout.fold_lines,
                      "type_size": sheet.layout.type_size,
                      "orientation": sheet.layout.orientation},
            "game": self.project.manifest.title,
            "paper": {"id": paper, "width": width, "height": height},
            "version": __version__,
            "date": build_date(),
        }
        if sheet.is_cards:
            cards, fit_names, pages = card_pages(sheet, self.project, width, height)
            context = dict(common, pages=cards)
        else:
            view, fit_names = layout_pages(sheet, self.project.tables, width, height)
            pages = len(view)
            context = dict(common, pages=view)
        name = self._template_of(sheet)
        try:
            # a field's problem is the sheet file's; the footer credits what it printed
            with markup.located(sheet.path), markup.capture():
                html = render_template(env, name, **context)
            warn_missing_glyphs(ctx, html, str(sheet.path))
        except UnknownTable as exc:
            where, line = _template_frame(exc, env)
            raise PrintshopError.at(where or name, str(exc), line) from None
        return _Composed(sheet, html, pages, fit_names)

    # --- building ----------------------------------------------------------------------------
    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        from printshop.products import layouts

        # the sheets keep their own size: a booklet or zine of them draws them smaller
        layout = layouts.layout_for(ctx, self, self.paper(ctx))
        sheets = getattr(self, "_sheets", None) or self.load_sheets()
        paper = self.paper(ctx)
        composed = {sheet_id: self.compose(ctx, sheet) for sheet_id, sheet in sheets.items()}
        project = self.project
        css = tuple(stylesheet(project, s) for s in self.options.stylesheets)
        jobs = []
        order = list(composed)
        for sheet_id in order:
            sheet = composed[sheet_id].sheet
            width, height = project.paper_size_mm(paper)
            if sheet.layout.orientation == "landscape":
                width, height = height, width
            page_css = Stylesheet(text=f"@page {{ size: {width:g}mm {height:g}mm; margin: 0 }}",
                                  label=f"paper {paper}")
            jobs.append(RenderJob(html=composed[sheet_id].html, stylesheets=css + (page_css,),
                                  roots=tuple(str(r) for r in project.read_roots),
                                  base_url=base_url(project),
                                  source=f"{display_path(sheet.path)} ({self.name})",
                                  uncompressed=ctx.uncompressed, extensions=(FitCheck(),)))
        if ctx.progress:
            ctx.progress(f"{self.name}: rendering {len(jobs)} sheet{'s' if len(jobs) != 1 else ''}")
        results = ctx.renderer.render(jobs)
        for warning in collect_warnings(results):
            ctx.warn(warning)
        problems = Problems()
        rendered = {}
        for sheet_id, result in zip(order, results):
            item = composed[sheet_id]
            problems.items.extend(_fit_problems(item, result))
            rendered[sheet_id] = result
        problems.raise_if_any()
        self.pages = {}
        for stem, ids in self.options.files.items():
            parts, outline, page = [], [], 0
            for sheet_id in ids:
                result = rendered[sheet_id]
                parts.append(result.pdf)
                outline.append((sheets[sheet_id].layout.title, page))
                page += result.pages
                self.pages[sheet_id] = result.pages
            title = f"{project.manifest.title}: " + ", ".join(
                sheets[i].layout.title for i in ids)
            pdf = merge_pdfs(parts, title=title, outline=outline)
            output.add(f"{stem}.pdf", pdf)
            if layout is not None:   # --layout booklet|pocketmod: the sheets shrunk to fit
                output.add(*layouts.imposed(ctx, self, f"{stem}.pdf", pdf, layout, title))


def _fit_problems(item: _Composed, result) -> list[Problem]:
    """Overflows and a wrong page count, as problems located in the layout file."""
    problems = []
    reported = set()
    # A block running off its column also pushes its page's box: name the block, not both.
    pages_with_blocks = {o.page for o in FitCheck.overflows(result)
                         if o.name in item.fit_names and item.fit_names[o.name].page is None}
    for overflow in sorted(FitCheck.overflows(result),
                           key=lambda o: (o.frame is None, o.name)):
        place = item.fit_names.get(overflow.name) or Place(
            display_path(item.sheet.path), None, overflow.name)
        if overflow.name in reported or (place.page is not None
                                         and overflow.page in pages_with_blocks):
            continue
        reported.add(overflow.name)
        if overflow.how == "split":
            detail = "runs over onto another page"
        elif overflow.frame:
            side = "bottom" if overflow.how == "bottom" else "right edge"
            detail = f"runs {overflow.by_mm:.1f} mm past the {side} of its {overflow.frame}"
        else:
            side = "bottom" if overflow.how == "bottom" else "right edge"
            detail = f"overflows its {side} by {overflow.by_mm:.1f} mm"
        problems.append(Problem(place.path, f"{place.what} does not fit: it {detail} "
                                f"({place.hint})", place.line))
    if result.pages != item.pages:
        problems.append(Problem(display_path(item.sheet.path),
                                f"sheet '{item.sheet.layout.title}' should print on "
                                f"{item.pages} page(s) but took {result.pages}"))
    return problems


def _check_template(env, name: str, tables, origin: Problem | None = None) -> list[Problem]:
    """Parse a template (and what it includes) and check every `table("literal")` call.

    `origin` is where the template was named (a layout's `template:` line), for "not found".
    """
    import jinja2
    from jinja2 import meta, nodes

    problems: list[Problem] = []
    seen: set[str] = set()
    pending = [name]
    known = sorted(tables)
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            source, filename, _ = env.loader.get_source(env, current)
            tree = env.parse(source, current, filename)
        except jinja2.TemplateSyntaxError as exc:
            problems.append(Problem(display_path(exc.filename or current),
                                    f"template syntax: {exc.message}", exc.lineno))
            continue
        except jinja2.TemplateNotFound:
            folders = ", ".join(display_path(f) for f in env.loader.folders)
            message = f"template '{current}' not found in {folders}"
            if origin is not None and current == name:
                problems.append(Problem(origin.path, f"template: {message}", origin.line,
                                        origin.column))
            else:
                problems.append(Problem("templates", message))
            continue
        for call in tree.find_all(nodes.Call):
            if isinstance(call.node, nodes.Name) and call.node.name == "table" and call.args \
                    and isinstance(call.args[0], nodes.Const) \
                    and isinstance(call.args[0].value, str):
                table_id = call.args[0].value
                if table_id not in tables:
                    close = difflib.get_close_matches(table_id, known, n=1)
                    hint = f" (did you mean '{close[0]}'?)" if close else ""
                    problems.append(Problem(display_path(filename),
                                            f"table(\"{table_id}\"): no table '{table_id}' "
                                            f"in tables/{hint}", call.lineno))
        pending.extend(t for t in meta.find_referenced_templates(tree) if t)
    return problems


PRODUCT = Reference
