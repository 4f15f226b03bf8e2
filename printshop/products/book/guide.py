"""The book: Markdown chapters (with embedded YAML tables) → a paged PDF and an HTML edition."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from markupsafe import Markup

from printshop import __version__, deps
from printshop.errors import Problem
from printshop.output import BuildOutput
from printshop.products import BuildContext, layouts, markup
from printshop.products.book.art import (
    art_figure,
    coarse_picture_problems,
    colophon_credits,
    cover,
    embed_images,
)
from printshop.products.book.checks import TABLE_PARTS, YES_NO, GuideChecks
from printshop.products.book.composed import parse, strip_first_heading
from printshop.products.book.cover import CoverSettings
from printshop.products.book.fonts import (
    BOOK_FAMILIES,
    order_fonts,
    predicted_fonts,
)
from printshop.products.book.job import BookPart
from printshop.products.book.pages import placed_as_json, render_book
from printshop.products.book.press import book_press_css
from printshop.products.book.preview import PageMap, page_map, render_chapter
from printshop.products.common import (
    base_url,
    build_date,
    fonts_for_screen,
    inline_css_for_screen,
    jinja_environment,
    page_size_css,
    stylesheet,
    warn_missing_glyphs,
)
from printshop.products.printing import colours_for, finish_for_profile, palette_css, profile_css
from printshop.render.checks import PageCheck
from printshop.render.jinja import render_template
from printshop.render.job import RenderJob, Stylesheet
from printshop.render.job_warnings import collect_warnings
from printshop.source.schema import Strict


class GuideOptions(Strict):
    kind: Literal["guide"]
    chapters: str = "guide"   # the folder of Markdown chapters, read in file-name order
    title: str | None = None      # the book's title (default: the manifest's)
    subtitle: str | None = None   # the book's subtitle (default: the manifest's)
    paper: Literal["letter", "a4", "a5", "a3", "digest"] | None = None   # default: manifest's
    profile: str | None = None   # a print profile (print-profiles.yaml); default home
    formats: list[Literal["pdf", "html"]] = ["pdf", "html"]   # a PDF, a web page, or both
    template: str = "guide.html.j2"   # the book's Jinja template (templates/ first)
    # the PDF's stylesheets, and the HTML edition's (templates/css/ first)
    stylesheets: list[str] = ["css/fonts.css", "css/book.css", "css/manuscript.css"]
    screen_stylesheets: list[str] = ["css/fonts.css", "css/screen.css",   # HTML edition's
                                     "css/manuscript.css"]
    print_every_table: bool = True  # warn when a YAML table is printed nowhere in the book
    blank_sheet: bool = False  # the blank character sheet as the book's last page
    # pages (as they are), booklet (NAME-booklet.pdf: folded and stapled) or pocketmod
    # (NAME-pocketmod.pdf: 8 pages on one sheet); --layout wins (products/layouts.py)
    layout: Literal["pages", "booklet", "pocketmod"] = "pages"
    # the cover wrap of a print-on-demand edition (--cover; products/book/cover.py) and the
    # cover's picture (`image`: the first page, full bleed)
    cover: CoverSettings = CoverSettings()


class Guide(GuideChecks):
    kind = "guide"
    Options = GuideOptions

    def paper(self, ctx: BuildContext) -> str:
        """The page's paper: in a booklet, half the sheet's (A5 on A4, digest on Letter)."""
        layout = self.layout(ctx)
        return layout.page_paper if layout and layout.page_paper else super().paper(ctx)

    def layout(self, ctx: BuildContext):
        """The booklet or pocketmod this book is imposed as (products/layouts.py), or None."""
        return layouts.layout_for(ctx, self, super().paper(ctx))

    # --- composing -----------------------------------------------------------------------
    def font_policy(self):
        from printshop.render.fonts import FontPolicy

        return FontPolicy(tuple(str(p) for p in self.project.font_files),
                          self.project.system_fonts)

    def compose(self, ctx: BuildContext, edition: str, fonts: list[str] | None = None,
                only: str | None = None) -> str:
        """The book's HTML. `fonts`: the families the colophon names (the print edition's
        first render says which were really used). `only`: the one chapter (its file,
        relative to the project) a chapter preview renders; the others come without their
        tables and class boxes, whose Jinja is most of the time here (their directives are
        still counted, so a table keeps its anchor in the chapter that prints it first)."""
        manuscript, reader = self._composed_inputs
        project = self.project
        # a build's editions share the tables and class boxes (most of the HTML edition's time)
        shared: tuple[Any, dict[tuple, tuple[str, Any]]] = \
            getattr(self, "_shared", None) or (jinja_environment(project), {})
        env, partials = shared

        def partial(key, name, **context) -> str:
            if key not in partials:
                with markup.capture() as printed:
                    partials[key] = (render_template(env, name, **context), printed)
            else:   # what it prints is printed again (the colophon's credits)
                markup.printed_icon_or_picture(partials[key][1])
            return partials[key][0]
        tables = {} if project.is_foreign else project.tables
        classes = None if project.is_foreign else project.classes
        embedded_once: set[str] = set()
        printed = {d.argument for d in manuscript.directives if d.name == "table"}

        wanted = True   # this chapter's directives are rendered
        opener: list[Markup] = []   # the chapter's ::art{place=opener}, under its title

        def directive(name: str, argument: str, attrs: dict) -> str:
            if name == "art":
                if not wanted:
                    return ""
                figure = art_figure(project, argument, attrs, env.filters["md"])
                if attrs.get("place") == "opener":
                    opener.append(figure)
                    return ""
                return figure
            if name == "table":
                first = argument not in embedded_once
                embedded_once.add(argument)
                if not wanted:
                    return ""
                # parts of the table a directive leaves out are not composed (rather than
                # hidden by a stylesheet: the words on the pages are the words composed)
                shown = {f"show_{part}": YES_NO[attrs.get(part, "yes").lower()]
                         for part in TABLE_PARTS}
                return partial((name, argument, first, *shown.values()),
                               "partials/table.html.j2", table=tables[argument],
                               tables=tables, anchor=f"table-{argument}" if first else None,
                               **shown)
            if not wanted:
                return ""
            if name == "class":
                assert classes is not None    # (checked: no class without classes.yaml)
                cls = next(c for c in classes.classes if c.id == argument)
                return partial((name, argument), "partials/class.html.j2", cls=cls,
                               qualities=_save_qualities(cls))
            if name == "table-index":
                index = [{"id": t.id, "title": t.title, "dice": t.dice_text,
                          "rows": len(t.rows), "printed": t.id in printed,
                          "file": f"tables/{t.path.name}"}
                         for t in sorted(tables.values(), key=lambda t: t.title.casefold())]
                return partial((name,), "partials/table-index.html.j2", index=index)
            raise AssertionError(name)

        chapters, bodies = [], []
        colours = colours_for(project, self.print_profile() if edition == "print" else None)
        reader.colours, reader.ink = colours, colours("ink")
        with markup.capture() as credited:
            paper_mm = project.paper_size_mm(self.paper(ctx))
            cover_art = cover(project, self.options.cover.image, *paper_mm,
                              self.print_profile().bleed if edition == "print" else 0.0)
        for chapter in manuscript.chapters:
            source = chapter.path.relative_to(project.root).as_posix()
            wanted = only is None or source == only
            opener.clear()
            with markup.capture() as chapter_printed:
                body = reader.render(chapter, directive, edition=edition)
            credited.merge(chapter_printed)
            bodies.append((str(chapter.path), body))
            chapters.append({"id": chapter.id, "title": chapter.title, "source": source,
                             "opener": Markup("".join(opener)),
                             "html": Markup(strip_first_heading(body)),
                             "sections": [{"id": h.id, "title": h.title}
                                          for h in chapter.sections]})
        if edition == "print" and fonts is None and only is None:
            policy = self.font_policy()
            # once per script, with the fix
            warn_missing_glyphs(ctx, bodies, policy=policy)
            fonts = predicted_fonts(bodies, policy, project.manifest.language)
        manifest = project.manifest
        front = manuscript.front_matter
        book: dict[str, Any] = {
            # the manifest, else the opening file's front matter or first heading, else the
            # folder's name
            "title": self.options.title or manifest.title or manuscript.title
            or project.title,
            "subtitle": self.options.subtitle or manifest.subtitle or front.get("subtitle"),
            "author": manifest.author or front.get("author"),
            "credits": manifest.credits,
            "language": manifest.language,
            "paper": self.paper(ctx),
            "edition": edition,
            "date": build_date(),
            "version": __version__,
            "product": self.name,
            "chapter_start": manifest.chapter_start,
            # a print-on-demand edition's cover is a file of its own (products/book/cover.py):
            # the interior opens with a plain title page, not the full-bleed cover
            "separate_cover": bool(edition == "print" and self.print_profile() is not None
                                   and self.print_profile().cover is not None),
            "fonts": fonts or list(BOOK_FAMILIES),
            "sheet": None,
            "cover": cover_art,
        }
        if edition == "screen" and self.options.blank_sheet and only is None:
            # the print edition's last page, the blank sheet to copy, as the fillable form
            from printshop.products.characters.book_sheet import fillable_sheet_link

            book["sheet"] = fillable_sheet_link(ctx, project, book["paper"])
        if edition == "print":
            self._claimed_fonts = book["fonts"]
        screen_css = ""
        if edition == "screen":
            # the palette's sRGB values first: manuscript.css names palette colours in both
            # editions (screen.css redefines some of them for the screen)
            screen_css = "\n".join(
                [colours_for(project, None).variables_css()]
                + [inline_css_for_screen(stylesheet(project, s), project.read_roots)
                   for s in self.options.screen_stylesheets])
        html = render_template(env, self.options.template, book=book, chapters=chapters,
                               screen_css=Markup(screen_css),
                               credits=colophon_credits(project, reader, credited))
        return embed_images(html, project.read_roots) if edition == "screen" else html

    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        # compose's, for this build
        self._shared: tuple[Any, dict] = (jinja_environment(self.project), {})
        try:
            recorder = deps.current()
            if recorder is None:  # built outside the builder: record for the colophon anyway
                with deps.recording(deps.Recorder()) as recorder:
                    self.check(ctx)
                    return self._build(ctx, output, recorder)
            return self._build(ctx, output, recorder)
        finally:
            del self._shared

    def _build(self, ctx: BuildContext, output: BuildOutput, recorder) -> None:
        self._recorder = recorder
        self._composed_inputs = self.__dict__.pop("_checked", None) or self.read()
        self._warn_unprinted_tables(ctx, self._composed_inputs[0])
        project = self.project
        written: dict[str, bytes] = {}
        screen = None   # the HTML edition, composed while the PDF renders
        if "pdf" in self.options.formats:
            profile = self.print_profile()
            paper = self.paper(ctx)
            if self.options.blank_sheet:   # (drawn while the book is composed)
                from printshop.products.characters.book_sheet import render_sheet_with_book

                render_sheet_with_book(ctx, project, paper, profile,
                                       fillable="html" in self.options.formats)
            html = self.compose(ctx, "print")
            job = self.print_job(ctx, html)
            if ctx.progress:
                ctx.progress(f"{self.name}: rendering the PDF")
            # page references as known numbers; where the last build's parts fell is the
            # first guess (a wrong one costs a pass, never a wrong number)
            guess = self.last_build.get("parts")
            if "html" in self.options.formats:   # while the parent waits for the workers
                sheets = [stylesheet(project, s) for s in self.options.screen_stylesheets]

                def screen_edition() -> str:
                    fonts_for_screen(sheets, project.read_roots)   # (its fonts' data URLs)
                    return self.compose(ctx, "screen")

                screen = ctx.renderer.while_idle(screen_edition)
            book = parse(html)    # its parts, ids and page references, read once
            try:
                result = render_book(ctx, job, guess, book)
            finally:
                if screen is not None:
                    screen.join()   # (the compose below shares its Markdown reader)
            claimed = self._claimed_fonts
            if set(result.fonts) != set(claimed):
                # the colophon must name every font in the PDF: say what was really used
                # (a template that names none, the quick start's, composes the same page)
                named = self.compose(ctx, "print", fonts=order_fonts(result.fonts))
                if named != html:
                    if ctx.progress:
                        ctx.progress(f"{self.name}: fonts were not as expected, "
                                     "rendering again")
                    html = named
                    job, book = replace(job, html=html), parse(html)
                    result = render_book(ctx, job, guess, book)
            for warning in collect_warnings([result]):
                ctx.warn(warning)
            for outside in PageCheck.outside(result):
                ctx.warn(Problem(str(project.root / outside.source), outside.describe(),
                                 outside.line))
            for finding in PageCheck.flow(result):   # the page-flow report (render/weasy/flow.py)
                ctx.warn(Problem(str(project.root / finding.source) if finding.source
                                 else self.name, finding.describe(), finding.line))
            manuscript, reader = self._composed_inputs
            for problem in coarse_picture_problems(
                    project, manuscript, reader, self.options.cover.image if
                    self.options.cover else None, PageCheck.found_in(result).pictures,
                    profile):
                ctx.warn(problem)
            pdf, self.pages = result.pdf, result.pages
            anchors = BookPart.found_in(result).anchors
            if anchors:   # where every chapter and id fell: for `serve`'s previews
                parts = placed_as_json(job)
                found = page_map(book, anchors, result.pages,
                                 parts.get("steps") if parts else None)
                self.cache_extra = {"page_map": found.as_json()} if found else {}
                if parts:
                    self.cache_extra["parts"] = parts
            if self.options.blank_sheet:
                from printshop.products.characters.book_sheet import book_with_blank_sheet

                # in the book's colours: CMYK from the palette in a CMYK edition
                pdf, self.pages = book_with_blank_sheet(ctx, project, pdf, self.paper(ctx),
                                                        profile)
            pdf = finish_for_profile(ctx, project, profile, pdf, project.paper_size_mm(paper),
                                     None, f"{self.name}.pdf")
            written[f"{self.name}.pdf"] = pdf
            if ctx.cover:
                written[f"{self.name}-cover.pdf"] = self.cover_wrap(ctx, pdf, profile)
            layout = self.layout(ctx)
            if layout is not None:
                title = self.options.title or project.manifest.title or project.title
                name, data = layouts.imposed(ctx, self, f"{self.name}.pdf", pdf, layout, title)
                written[name] = data
        if "html" in self.options.formats:
            html = screen.result() if "pdf" in self.options.formats and screen is not None \
                else self.compose(ctx, "screen")
            written[f"{self.name}.html"] = html.encode("utf-8")
        for name, data in written.items():
            output.add(name, data)
        # what it was built from: for the author and tools, not printed in the book
        from printshop.products.book.manifest import build_manifest

        output.add(f"{self.name}.manifest.json", build_manifest(
            self, recorder, written, self.paper(ctx), getattr(self, "pages", None)))

    def cover_wrap(self, ctx: BuildContext, interior: bytes, profile) -> bytes:
        """The cover wrap for `interior` (this build's PDF): products/book/cover.py."""
        from printshop.products.book import cover

        settings = cover.merged(self.options.cover,
                                cover.CoverSettings(spine_width=ctx.spine_width))
        pages, trim = cover.interior_pages(interior)
        geometry = cover.wrap_for_book(profile, pages, trim, settings, "--cover")
        if ctx.progress:
            ctx.progress(f"{self.name}: {cover.describe(geometry, profile)}")
        return cover.cover_pdf(ctx, self.project, profile, geometry,
                               cover.book_facts(self.project, self.options), settings,
                               f"{self.name}-cover.pdf")

    def print_job(self, ctx: BuildContext, html: str) -> RenderJob:
        """The whole book's render job (the print edition's HTML, its stylesheets)."""
        project = self.project
        profile = self.print_profile()
        paper = self.paper(ctx)
        layout = self.layout(ctx)
        sheets = ((palette_css(colours_for(project, profile)),)
                  + tuple(stylesheet(project, s) for s in self.options.stylesheets)
                  + (layout.page_css() if layout else page_size_css(project, paper),))
        if profile.for_press:
            sheets += (Stylesheet(text=profile_css(profile) + book_press_css(profile),
                                  label=f"print profile {profile.name}"),)
        return RenderJob(html=html, stylesheets=sheets,
                         roots=tuple(str(r) for r in project.read_roots),
                         base_url=base_url(project),
                         source=f"{self.options.template} ({self.name})",
                         uncompressed=ctx.uncompressed,
                         cmyk_icc=str(profile.icc_path(project.root)) if profile.cmyk
                         else None, fonts=self.font_policy(),
                         extensions=(PageCheck(min_ppi=(profile.spec.min_image_ppi or 0)
                                               if profile.for_press else 0),))


    def chapter_preview(self, ctx: BuildContext, source: str, pages: PageMap,
                        composed=None):
        """The chapter from `source` (relative to the project) rendered alone, numbered as
        in the book of `pages` (products/book/preview.py); None when it cannot be.
        `composed()` is called when only the render is left."""
        if "pdf" not in self.options.formats:
            return None
        self._recorder = deps.current() or deps.Recorder()
        self._composed_inputs = self.read()
        job = self.print_job(ctx, self.compose(ctx, "print", only=source))
        return render_chapter(ctx, job, source, pages, composed)


def _save_qualities(cls) -> list[dict]:
    return [{"quality": q.title(), "saves": getattr(cls.saves, q)}
            for q in ("good", "okay", "bad") if getattr(cls.saves, q)]


PRODUCT = Guide

