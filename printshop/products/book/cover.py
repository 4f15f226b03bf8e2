"""A print-on-demand book's cover wrap: back cover, spine and front cover on one page with
the bleed around them, sized for the interior's page count and the vendor's paper
(`cover_geometry.py`), in the profile's colours and PDF variant, checked by
preflight against that interior.

Two ways to make one:
- `printshop build players-guide --profile dtrpg-book --cover`: the book, then its wrap
  from the page count just made (NAME.pdf and NAME-cover.pdf);
- a product of kind `cover` in the manifest (`book: players-guide`), which lays the book out
  for the profile to count its pages.
Either way the settings are the book's `cover:` options (back text, paper, a spine width
from the vendor's template); a cover product's own override them.
"""

from __future__ import annotations

from typing import Literal

from printshop.cover_geometry import Wrap, wrap
from printshop.errors import PrintshopError, Problem
from printshop.output import BuildOutput
from printshop.preflight.cover import interior_pages
from printshop.products import BuildContext, Product
from printshop.render.checks import FitCheck
from printshop.source.schema import Strict

TEMPLATE = "cover.html.j2"
STYLESHEETS = ("css/fonts.css", "css/cover.css")


class CoverSettings(Strict):
    """What a book's cover wrap says and how wide its spine is (a guide's `cover:`)."""
    back: str | None = None         # the back cover's text (Markdown); default: the credits
    paper: str | None = None        # the profile's cover paper (default: the profile's)
    spine_width: str | None = None  # from the vendor's cover template ("0.352in", "8.9mm")
    # the front cover's picture (relative to the project): the guide's first page, full
    # bleed, and the front of the wrap (credits: the credits.yaml beside it)
    image: str | None = None


class CoverOptions(CoverSettings):
    kind: Literal["cover"]
    book: str                       # the manifest's book (a guide product) it wraps
    profile: str | None = None      # default: the book's; it must have a cover


def check_flag(ctx: BuildContext, product) -> None:
    """--cover asked of a product that is not a book is an error naming it."""
    if getattr(ctx, "cover", False) and product.kind != "guide":
        raise PrintshopError.at("--cover", f"products.{product.name}: --cover makes a "
                                f"book's cover wrap; a {product.kind} product has none "
                                "(name the book: printshop build players-guide --cover …)")


def spine_override(settings: CoverSettings, where: str) -> float | None:
    if settings.spine_width is None:
        return None
    from printshop.profiles import length_mm

    try:
        return length_mm(settings.spine_width)
    except ValueError as exc:
        raise PrintshopError.at(where, f"spine_width: {exc}") from None


def merged(*settings: CoverSettings) -> CoverSettings:
    """The settings given last win, field by field."""
    out: dict = {}
    for one in settings:
        out.update({k: getattr(one, k) for k in CoverSettings.model_fields
                    if getattr(one, k) is not None})
    return CoverSettings(**out)


def book_facts(project, guide_options) -> dict:
    manifest = project.manifest
    return {"title": guide_options.title or manifest.title or project.title,
            "subtitle": guide_options.subtitle or manifest.subtitle,
            "author": manifest.author, "credits": manifest.credits}


def cover_pdf(ctx: BuildContext, project, profile, geometry: Wrap, book: dict,
              settings: CoverSettings, what: str) -> bytes:
    """The wrap rendered, finished for `profile` (its cover variant: one page) and
    preflighted against `geometry`'s size; a failed check names `what`."""
    from printshop.products.common import base_url, jinja_environment, stylesheet
    from printshop.products.printing import (
        colours_for,
        finish_for_profile,
        palette_css,
        profile_css,
    )
    from printshop.render.jinja import render_template
    from printshop.render.job import RenderJob, Stylesheet
    from printshop.render.job_warnings import collect_warnings

    colours = colours_for(project, profile)
    env = jinja_environment(project, colours=colours)
    back = settings.back if settings.back is not None else (book.get("credits") or "")
    from printshop.products.book.art import cover as cover_picture

    front = geometry.front     # its picture: the front panel and its bleed
    art = cover_picture(project, settings.image, front.width + geometry.bleed,
                        front.height + geometry.bleed, geometry.bleed)
    if art is not None:
        art["style"] = (f"left: {front.x:.3f}mm; top: {-geometry.bleed:.3f}mm; width: "
                        f"{front.width + geometry.bleed:.3f}mm; height: "
                        f"{front.height + 2 * geometry.bleed:.3f}mm;")
    html = render_template(env, TEMPLATE, book=book, back=back, wrap=geometry,
                           spine_font_pt=spine_font_pt(geometry), art=art)
    cover_profile = profile.for_cover()
    sheets = ((palette_css(colours),) + tuple(stylesheet(project, s) for s in STYLESHEETS)
              + (Stylesheet(text=f"@page {{ size: {geometry.width:.3f}mm "
                            f"{geometry.height:.3f}mm; margin: 0; }}\n"
                            + profile_css(cover_profile), label=f"cover wrap ({profile.name})"),))
    job = RenderJob(html=html, stylesheets=sheets, roots=tuple(map(str, project.read_roots)),
                    base_url=base_url(project), source=f"{TEMPLATE} ({what})",
                    uncompressed=ctx.uncompressed,
                    cmyk_icc=str(profile.icc_path(project.root)) if profile.cmyk else None,
                    extensions=(FitCheck(),))
    result = ctx.renderer.render([job])[0]
    for warning in collect_warnings([result]):
        ctx.warn(warning)
    problems = [f"{o.name} does not fit on the cover ({o.how})"
                for o in FitCheck.overflows(result)]
    if result.pages != 1:
        problems.append(f"the cover should be one page but took {result.pages}")
    if problems:
        raise PrintshopError([Problem(TEMPLATE, f"{what}: {p}") for p in problems])
    title = book["title"] + (f": {book['subtitle']}" if book.get("subtitle") else "")
    return finish_for_profile(ctx, project, cover_profile, result.pdf,
                              (geometry.width, geometry.height), f"{title} (cover)", what)


def spine_font_pt(geometry: Wrap) -> float:
    """The spine's type size: its line fills at most 80 % of the room across the spine,
    up to 14 pt; 0 when the spine carries no text."""
    room_pt = geometry.spine_text_width * 72 / 25.4
    return round(min(14.0, room_pt * 0.8 / 1.2), 1) if room_pt >= 6 else 0.0


def describe(geometry: Wrap, profile) -> str:
    """One line for the build's progress: the wrap's size and where the spine came from."""
    cover = profile.cover
    stock = cover.papers[geometry.paper]
    how = ("from the vendor's template (--spine-width)" if geometry.spine_from == "template"
           else f"{geometry.pages} pages / {stock.pages_per_inch:g} + {stock.plus:.2f} mm, "
           f"{stock.description}")
    text = ("with spine text" if geometry.spine_text else
            f"no spine text under {cover.spine_text_from} pages")
    return (f"cover wrap {geometry.width + 2 * geometry.bleed:.1f} × "
            f"{geometry.height + 2 * geometry.bleed:.1f} mm with bleed, spine "
            f"{geometry.spine:.2f} mm ({how}), {text}")


def wrap_for_book(profile, pages: int, trim, settings: CoverSettings, where: str) -> Wrap:
    """The wrap for an interior of `pages` pages of `trim`, with the book's settings."""
    return wrap(profile, trim, pages, settings.paper, spine_override(settings, where), where)


class Cover(Product):
    """Kind `cover`: the wrap of the manifest's book `book`, for a print-on-demand profile."""
    kind = "cover"
    Options = CoverOptions

    def includes(self) -> list[str]:
        return [self.options.book]

    def book(self):
        from printshop.products import load_products

        declared = self.project.manifest.products
        if self.options.book not in declared:
            raise PrintshopError.at(self.profile_where()[0], f"products.{self.name}.book: no "
                                    f"product '{self.options.book}' in the manifest")
        if (declared[self.options.book] or {}).get("kind") != "guide":
            raise PrintshopError.at(self.profile_where()[0], f"products.{self.name}.book: "
                                    f"'{self.options.book}' is not a book (kind guide)")
        profile = self.print_profile()
        return load_products(self.project, [self.options.book], profile=profile.name)[0]

    def print_profile(self):
        from printshop.profiles import get_profile

        if self.options.profile is None:   # the book's own
            book = self.project.manifest.products.get(self.options.book) or {}
            return get_profile(book.get("profile"), self.project.root,
                               where=self.profile_where())
        return super().print_profile()

    def check(self, ctx: BuildContext) -> None:
        profile = self.print_profile()
        where = self.profile_where()[0]
        if profile.cover is None:
            raise PrintshopError.at(where, f"products.{self.name}: print profile "
                                    f"'{profile.name}' has no cover (a cover wrap is for "
                                    "dtrpg-book, lulu-book or a profile with cover:)")
        settings = merged(self.book().options.cover, self.options, CoverSettings(
            spine_width=ctx.spine_width))
        spine_override(settings, where)
        if settings.paper and settings.paper not in profile.cover.papers:
            raise PrintshopError.at(where, f"products.{self.name}.paper: '{settings.paper}'"
                                    f" is not a cover paper of '{profile.name}' (papers: "
                                    f"{', '.join(profile.cover.papers)})")

    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        import dataclasses

        profile = self.print_profile()
        book = self.book()
        settings = merged(book.options.cover, self.options, CoverSettings(
            spine_width=ctx.spine_width))
        key = ("interior", book.name, profile.name, ctx.paper)

        def interior():   # the book laid out for the profile, only to count its pages
            from pathlib import Path

            scratch = BuildOutput(Path("."))   # never committed
            book.build(dataclasses.replace(ctx, cover=False, layout=None), scratch)
            return scratch.files[f"{book.name}.pdf"]

        pdf = ctx.shared.make(key, interior)
        pages, trim = interior_pages(pdf)
        geometry = wrap_for_book(profile, pages, trim, settings, self.profile_where()[0])
        if ctx.progress:
            ctx.progress(f"{self.name}: {describe(geometry, profile)}")
        output.add(f"{self.name}.pdf", cover_pdf(ctx, self.project, profile, geometry,
                                                 book_facts(self.project, book.options),
                                                 settings, f"{self.name}.pdf"))


PRODUCT = Cover
