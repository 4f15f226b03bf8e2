"""What the guide reads and checks before it composes: its chapters (and the directives in
them), its templates, its stylesheets, its cover and blank sheet; the tables and classes it
prints nowhere."""

from __future__ import annotations

import difflib

from printshop.errors import PrintshopError, Problem, Problems
from printshop.products import BuildContext, Product
from printshop.products.book.art import check_art
from printshop.products.common import check_stylesheets, jinja_environment, template_problem
from printshop.source.markdown import Manuscript, MarkdownReader

# what a `::table[id]{caption="no"}` directive may leave out of the table it prints
TABLE_PARTS = ("caption", "description", "notes")
YES_NO = {"yes": True, "true": True, "no": False, "false": False}
DIRECTIVES = ("table", "class", "table-index", "art")


class GuideChecks(Product):
    """Reading and checking a guide: the first half of products/book/guide.py's Guide (its
    options are a GuideOptions)."""

    # --- reading -------------------------------------------------------------------------
    def read(self) -> tuple[Manuscript, MarkdownReader]:
        project = self.project
        files = project.markdown_files(self.options.chapters)
        if not files:
            raise PrintshopError.at(project.root / self.options.chapters,
                                    "no Markdown chapters (*.md) here")
        problems = Problems()
        if not project.is_foreign:
            project.tables  # noqa: B018  (load now: table errors come before chapter errors)
            try:
                project.classes  # noqa: B018
            except PrintshopError as exc:   # reported with the chapters' problems
                problems.extend(exc)
        reader = MarkdownReader(project.root, project.read_roots, html=project.html_mode,
                                directive_check=self._check_directive)
        manuscript = reader.read(files, problems)
        # the chapters' warnings (a dangling link …) with their errors: one run shows all
        problems.raise_if_any(reader.warnings.items)
        return manuscript, reader

    def _check_directive(self, name: str, argument: str, attrs: dict) -> str | None:
        if name == "table":
            tables = {} if self.project.is_foreign else self.project.tables
            if argument not in tables:
                close = difflib.get_close_matches(argument, list(tables), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                return f"::table[{argument}]: no table '{argument}' in tables/{hint}"
            for key, value in attrs.items():
                if key not in TABLE_PARTS:
                    close = difflib.get_close_matches(key, TABLE_PARTS, n=1)
                    hint = f" (did you mean '{close[0]}'?)" if close else ""
                    takes = ", ".join(part + '="no"' for part in TABLE_PARTS)
                    return (f"::table[{argument}]: unknown attribute '{key}'{hint}; a table "
                            f"directive takes {takes}")
                if value.lower() not in YES_NO:
                    return (f"::table[{argument}]: {key}=\"{value}\": say \"yes\" or "
                            "\"no\"")
        elif name == "class":
            classes = None if self.project.is_foreign else self.project.classes
            ids = [c.id for c in classes.classes] if classes else []
            if argument not in ids:
                close = difflib.get_close_matches(argument, ids, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                return f"::class[{argument}]: no class '{argument}' in tables/classes.yaml{hint}"
        elif name == "art" and not argument:
            return "::art[]: name the picture (::art[art/torch.png]{caption=\"…\"})"
        elif name not in DIRECTIVES:
            close = difflib.get_close_matches(name, DIRECTIVES, n=1)
            hint = f"did you mean ::{close[0]}[{argument}]? " if close else ""
            return (f"unknown directive ::{name}[{argument}] ({hint}known: "
                    f"{', '.join(DIRECTIVES)})")
        return None

    def check(self, ctx: BuildContext) -> None:
        """The chapters, the templates, the stylesheets, the cover and the blank sheet, each
        checked whatever the others found: their problems raised together."""
        problems = Problems()
        warnings = []
        if ctx.cover:
            try:
                self._check_cover(ctx)
            except PrintshopError as exc:
                problems.extend(exc)
        try:
            # what the build composes, in the same build
            self._checked: tuple[Manuscript, MarkdownReader] | None = self.read()
        except PrintshopError as exc:
            problems.extend(exc)
            warnings = exc.warnings
            self._checked = None
        env = jinja_environment(self.project)
        for name in (self.options.template, "partials/table.html.j2", "partials/class.html.j2"):
            try:
                env.get_template(name)
            except Exception as exc:
                problems.extend(template_problem(env, name, exc))
        for step in (lambda: check_stylesheets(ctx, self.project, self.options.stylesheets),
                     lambda: check_stylesheets(ctx, self.project,
                                               self.options.screen_stylesheets),
                     self._check_blank_sheet(ctx)):
            try:
                step()
            except PrintshopError as exc:
                problems.extend(exc)
        problems.raise_if_any(warnings)
        if self._checked is not None:
            self._warn_unprinted_tables(ctx, self._checked[0])

    def _check_blank_sheet(self, ctx: BuildContext):
        def check() -> None:
            if self.options.blank_sheet:
                from printshop.products.characters.blank_sheet import blank_sheet_product

                blank_sheet_product(self.project).check(ctx)
        return check

    def _check_cover(self, ctx: BuildContext) -> None:
        from printshop.products.book import cover

        profile = self.print_profile()
        if profile.cover is None:
            raise PrintshopError.at("--cover", f"products.{self.name}: print profile "
                                    f"'{profile.name}' has no cover wrap: --cover is for a "
                                    "print-on-demand profile (--profile dtrpg-book or "
                                    "lulu-book, or one with cover: in print-profiles.yaml)")
        settings = cover.merged(self.options.cover,
                                cover.CoverSettings(spine_width=ctx.spine_width))
        cover.spine_override(settings, "--spine-width")
        if settings.paper and settings.paper not in profile.cover.papers:
            raise PrintshopError.at(self.profile_where()[0], f"products.{self.name}.cover."
                                    f"paper: '{settings.paper}' is not a cover paper of "
                                    f"'{profile.name}' (papers: "
                                    f"{', '.join(profile.cover.papers)})")

    def _warn_unprinted_tables(self, ctx: BuildContext, manuscript: Manuscript) -> None:
        for warning in manuscript.warnings:
            ctx.warn(warning)
        check_art(ctx, self.project, manuscript)
        if self.project.is_foreign or not self.options.print_every_table:
            return
        embedded = {d.argument for d in manuscript.directives if d.name == "table"}
        for table_id, table in sorted(self.project.tables.items()):
            if table_id not in embedded:
                ctx.warn(Problem(str(table.path), f"table '{table_id}' is printed nowhere in "
                                 f"the book (add ::table[{table_id}] to a chapter)"))
        classes = self.project.classes
        if classes:
            shown = {d.argument for d in manuscript.directives if d.name == "class"}
            for cls in classes.classes:
                if cls.id not in shown:
                    ctx.warn(Problem("tables/classes.yaml", f"class '{cls.id}' is printed "
                                     f"nowhere in the book (add ::class[{cls.id}])"))
