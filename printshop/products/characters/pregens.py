"""Pregen packs: a stack of rolled characters, one sheet each, behind a cover with an index.

The pages are independent, so the pack renders in chunks of sheets on every core and the
chunk PDFs are merged. Chunk boundaries depend only on the pack (never on the number of
cores), so the same seed gives the same bytes on any machine.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from markupsafe import Markup
from pydantic import Field, model_validator

from printshop import __version__
from printshop.errors import PrintshopError, Problem, Problems
from printshop.output import BuildOutput
from printshop.products import BuildContext, Product
from printshop.products.characters.recipe_pack import RecipePack
from printshop.products.common import (
    check_stylesheets,
    inline_css_for_screen,
    jinja_environment,
    page_size_css,
    sheet_paper,
    stylesheet,
    template_problem,
)
from printshop.render.checks import FitCheck
from printshop.render.jinja import render_template
from printshop.render.job import Stylesheet
from printshop.roll.recipe import Character, Recipe, Roller
from printshop.source.schema import Strict
from printshop.source.yamlfile import load_yaml

MAX_COUNT = 10_000          # more than this needs a confirmation (--yes)
HARD_MAX_COUNT = 1_000_000
SEED_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:+-]{0,31}$"
PROGRESS_AFTER_S = 2.0   # packs quicker than this stay quiet
PROGRESS_EVERY_S = 5.0


class PregensOptions(Strict):
    kind: Literal["pregens"]
    seed: str = Field(pattern=SEED_PATTERN)   # same seed, same characters (printed on each)
    count: int = Field(default=50, ge=1, le=HARD_MAX_COUNT)   # how many characters
    first: int = Field(default=1, ge=1, le=HARD_MAX_COUNT)   # number of the first character
    recipe: str | None = None      # recipes/RECIPE.yaml: how they are made (default:
                                   # characters, or the project's only recipe)
    classes: list[str] = []                       # class ids or names; empty: every class
    class_table: str | None = None                # a name of the recipe's class tables
    # a convention's wish: roll a character again while any of these holds (recipe
    # expressions, e.g. "all([m <= 0 for m in values(mods)])")
    reroll_while: list[str] = []
    paper: Literal["letter", "a4"] | None = None   # default: the manifest's
    profile: str | None = None   # a print profile (print-profiles.yaml); default home
    backs: bool = False                           # a tombstone back page for duplex
    # the cover and index pages; false: only the sheets (a reprint of lost sheets)
    cover: bool = True
    # sheets marked with their table and seat as a convention kit marks them ("Table 2 ·
    # Seat 3"), for a kit's sheet reprinted
    seats: int | None = Field(default=None, ge=1)   # the kit's seats a table
    characters_per_seat: int | None = Field(default=None, ge=1)   # the kit's characters a seat
    formats: list[Literal["pdf", "html", "json"]] = ["pdf"]   # json: for virtual tabletops
    title: str | None = None                      # on the cover (default: the recipe's title)
    # the sheets' Jinja template (templates/ first); default: the recipe's
    template: str | None = None
    stylesheets: list[str] | None = None   # their stylesheets (templates/css/ first)
    # 10 sheets a job: a worker's memory grows ~2-3.5 MB a page while it lays a chunk out,
    # and smaller chunks were no slower (bench/pregens.py). Layered chunks each carry the
    # forms and stamps they draw; the merge keeps one copy of each (render/pdf/layered_merge.py)
    sheets_per_chunk: int = Field(default=10, ge=1, le=200)
    # PDF sheets drawn in layers: each class's form laid out once, the rolled values over
    # it (products/characters/layers.py); false lays every sheet out whole (same look, slower
    # for big packs); unset: layers from LAYERED_FROM sheets (below that the forms cost
    # more than they save)
    layered: bool | None = None

    # how many index lines fit on the cover and on each further index page (two columns)
    index_first_page: int = Field(default=72, ge=2)
    index_per_page: int = Field(default=110, ge=2)   # (each further index page)

    @model_validator(mode="after")
    def seats_together(self):
        if (self.seats is None) != (self.characters_per_seat is None):
            raise ValueError("give seats and characters_per_seat together (a kit's seats a "
                             "table and characters a seat)")
        return self


@dataclass(frozen=True)
class PackLayout:
    cover_pages: int          # including the blank back of the cover in a duplex pack
    pages_per_character: int  # 1, or 2 with backs

    def first_page_of(self, index: int) -> int:
        """0-based page of the pack's `index`-th character (1-based) in the merged PDF."""
        return self.cover_pages + (index - 1) * self.pages_per_character

    def total(self, count: int) -> int:
        return self.cover_pages + count * self.pages_per_character


class Pregens(RecipePack, Product):
    kind = "pregens"
    PROFILES = "home"
    Options = PregensOptions

    def __init__(self, project, name, options, cli_flags: dict[str, str] | None = None,
                 large_ok: bool = False):
        super().__init__(project, name, options)
        # where a bad option came from: the manifest (default) or a command-line flag
        self.cli_flags = cli_flags
        self.large_ok = large_ok  # more than MAX_COUNT characters was confirmed
        self._recipe: Recipe | None = None
        self._roller: Roller | None = None
        self._env: Any = None    # the Jinja environment, made when first needed
        self._characters: list[Character] | None = None

    # --- inputs ------------------------------------------------------------------------------
    def _problem_at(self, option: str, message: str) -> PrintshopError:
        if self.cli_flags is not None:
            flag = self.cli_flags.get(option, f"--{option.replace('_', '-')}")
            return PrintshopError(Problem(flag, message))
        path = self.project.manifest_path
        if path is None:
            return PrintshopError.at(self.project.root, message)
        pos = load_yaml(path).pos(("products", self.name, option))
        return PrintshopError.at(path, f"products.{self.name}.{option}: {message}", pos.line,
                                 pos.column)

    def sheet_paper(self, ctx: BuildContext) -> str:
        """The paper the sheets print on: the one asked for if they are laid out for it,
        else the pack's own or Letter."""
        return sheet_paper(self.paper(ctx), self.options.paper)

    def paper_for_sheets(self, ctx: BuildContext) -> str:
        """sheet_paper(), saying so where it is not the paper asked for."""
        paper, fallback = self.paper(ctx), self.sheet_paper(ctx)
        if paper != fallback:
            ctx.warn(Problem(self.name, f"character sheets are laid out for letter or a4 "
                             f"paper, not {paper}; this pack is on {fallback}"))
        return fallback

    def check(self, ctx: BuildContext) -> None:
        """Every problem of the pack at once: its count, the recipe and the tables it
        reads, the sheet template and the stylesheets."""
        problems = Problems()
        count = self.options.count
        if count > MAX_COUNT and not self.large_ok:
            pages = self.layout(count).total(count)
            how = "add --yes if you mean it" if self.cli_flags is not None else \
                "build it with printshop roll characters --yes"
            problems.extend(self._problem_at("count", f"{count:,} characters is more than "
                                             f"{MAX_COUNT:,} ({pages:,} pages); {how}"))
        recipe_ok = _collect(problems, lambda: self.roller)   # the recipe and its tables
        if recipe_ok:
            env = jinja_environment(self.project)
            try:
                env.get_template(self.template)
            except Exception as exc:  # syntax errors, missing template
                problems.extend(template_problem(env, self.template, exc))
            _collect(problems, lambda: check_stylesheets(ctx, self.project, self.stylesheets))
        problems.raise_if_any()

    # --- rolling -----------------------------------------------------------------------------
    def characters(self, ctx: BuildContext | None = None) -> list[Character]:
        if self._characters is None:
            from printshop.progress import Counter

            roller = self.roller
            out = []
            first = self.options.first
            counter = Counter(ctx.progress if ctx else None, f"{self.name}: rolling",
                              self.options.count, "characters", quiet_for=PROGRESS_AFTER_S,
                              every=PROGRESS_EVERY_S)
            for index in range(first, first + self.options.count):
                out.append(roller.roll(self.options.seed, index))
                if len(out) % 100 == 0 or len(out) == self.options.count:
                    counter.update(len(out))
            self._characters = out
        return self._characters

    # --- composing ---------------------------------------------------------------------------
    def mark_of(self, index: int) -> str | None:
        """Character `index`'s table and seat in a kit of `seats` seats of
        `characters_per_seat` (None when the pack is not marked so)."""
        seats, per_seat = self.options.seats, self.options.characters_per_seat
        if not (seats and per_seat):
            return None
        table, seat = divmod((index - 1) // per_seat, seats)
        return f"Table {table + 1} · Seat {seat + 1}"

    def marks_for(self, characters: list[Character]) -> dict[int, str]:
        return {c.index: mark for c in characters if (mark := self.mark_of(c.index))}

    def index_pages(self, characters: list[Character]) -> list[list[Character]]:
        first, per_page = self.options.index_first_page, self.options.index_per_page
        pages = [characters[:first]]
        rest = characters[first:]
        while rest:
            pages.append(rest[:per_page])
            rest = rest[per_page:]
        return pages

    def layout(self, count: int) -> PackLayout:
        if not self.options.cover:
            return PackLayout(0, 2 if self.options.backs else 1)
        cover = len(self.index_pages([None] * count))  # type: ignore[list-item]
        if self.options.backs and cover % 2:
            cover += 1   # the cover's own back, so every sheet starts on a front
        return PackLayout(cover, 2 if self.options.backs else 1)

    def _render(self, part: str, characters: list[Character], paper: str,
                pack: dict, screen_css: str = "", index_pages=None, first_index_page: int = 0,
                blank_back: bool | None = None, marks: dict[int, str] | None = None,
                layers=None, geometry=None, collect=None) -> str:
        """HTML for `part`: "cover" (index pages from `first_index_page`; page 0 is the
        cover), "sheets" (these characters) or "all" (the whole pack in one file).
        `marks`: character index → a line printed above its seed (a kit's table and seat).
        `layers`, `geometry`, `collect`: sheets drawn in layers (products/characters/layers.py)."""
        if index_pages is None:
            index_pages = self.index_pages(characters) \
                if part in ("cover", "all") and self.options.cover else []
        if blank_back is None:
            blank_back = part == "all" and \
                self.layout(pack["count"]).cover_pages > len(index_pages)
        if self._env is None:  # compiling the template once, not once a chunk
            self._env = jinja_environment(self.project)
        return render_template(self._env, self.template,
                               part=part, pack=pack, characters=characters,
                               index_pages=index_pages, first_index_page=first_index_page,
                               blank_back=blank_back, marks=marks or {},
                               screen_css=Markup(screen_css), layers=layers or {},
                               geometry=geometry or {}, collect=collect or _no_collect,
                               sheet=None)

    def _stylesheets(self, paper: str) -> tuple[Stylesheet, ...]:
        """The palette's colours (sRGB: pregens print for home printers), the sheet's
        stylesheets and its page and sheet size."""
        from printshop.products.printing import sheet_palette_css

        sheets = tuple(stylesheet(self.project, s) for s in self.stylesheets)
        return (sheet_palette_css(self.project),) + sheets + (
            page_size_css(self.project, paper), self._sheet_size_css(paper))

    def _sheet_size_css(self, paper: str) -> Stylesheet:
        """The page box each sheet must fill exactly (fit checks measure against it)."""
        width, height = self.project.paper_size_mm(paper)
        margin = SHEET_MARGIN_MM
        return Stylesheet(
            text=(f"@page {{ margin: {margin}mm; }}\n"
                  f":root {{ --page-width: {width - 2 * margin:g}mm; "
                  f"--page-height: {height - 2 * margin:g}mm; }}\n"
                  f".page {{ width: {width - 2 * margin:g}mm; "
                  f"height: {height - 2 * margin - 0.5:g}mm; }}"),
            label=f"sheet size ({paper})")

    # --- outputs -----------------------------------------------------------------------------
    def pdf(self, ctx: BuildContext) -> bytes:
        characters = self.characters(ctx)
        paper = self.paper_for_sheets(ctx)
        pack = self.pack_info(characters, paper)
        layout = self.layout(len(characters))
        merge = self._render_parts(ctx, characters, paper, pack, layout)
        # the workers' memory goes back before the last of the merge (a later render
        # starts new ones)
        ctx.renderer.release()
        outline = [("Cover and index", 0)] if self.options.cover else []
        outline += [(f"#{c.index} {c.label}", layout.first_page_of(n))
                    for n, c in enumerate(characters, start=1)]
        from printshop.progress import Counter

        joining = Counter(ctx.progress, f"{self.name}: joining", merge.count, "parts",
                          quiet_for=PROGRESS_AFTER_S, every=PROGRESS_EVERY_S)
        pdf = merge.result(title=f"{pack['game']}: {self.title} "
                                 f"(seed {self.options.seed})", outline=outline,
                           counter=joining)
        self.pages = layout.total(len(characters))
        return pdf

    def _render_parts(self, ctx, characters, paper, pack, layout):
        from printshop.products.characters.pdf import render_parts

        return render_parts(self, ctx, characters, paper, pack, layout)

    def _layered(self, characters) -> bool:
        """Sheets in layers: only with a template that draws them so (the recipe's sheet
        says `layers: true`), and a pack big enough for the forms to pay."""
        if not self.recipe.layers or self.options.template not in (None, self.recipe.template):
            return False
        layered = self.options.layered
        return not (layered is False or (layered is None and len(characters) < LAYERED_FROM))

    def layered_sheets(self, ctx, characters, paper, pack, make_job, marks=None):
        """The forms of the pack's sheets, laid out (with their stamps), or None when its
        sheets are laid out whole."""
        if not self._layered(characters):
            return None
        from printshop.products.characters.layers import LayeredSheets

        layers = LayeredSheets(self, paper, pack, make_job)
        layers.collect(characters, marks)
        layers.prepare(ctx.renderer, characters, marks, warn=ctx.warn)
        return layers if any(layers.forms.values()) else None

    def pack_problems(self, work, results) -> list[Problem]:
        """The problems of a pack's renders (`work`: (what, pages expected, …) a render):
        the first LISTED boxes that overflow one by one, the others in one line (a
        stylesheet that made every sheet overflow was said once a sheet: 200 lines for a
        200-character pack)."""
        seed, template = self.options.seed, self.template
        problems, overflows = [], []
        for (what, expected, _, _), result in zip(work, results):
            for overflow in FitCheck.overflows(result):
                overflows.append(overflow)
                if len(overflows) <= LISTED:
                    problems.append(Problem(self.name, f"{overflow.describe()} (seed {seed}); "
                                            f"shorten what it prints or adjust {template}"))
            if result.pages != expected and not FitCheck.overflows(result):
                problems.append(Problem(self.name, f"{what} came out as {result.pages} pages, "
                                        f"expected {expected} (a page break in {template}?)"))
        rest = overflows[LISTED:]
        if rest:
            numbers = sorted({int(m[1]) for o in rest if (m := re.search(r"#(\d+)", o.name))})
            problems.append(Problem(
                self.name, f"{len(rest)} more boxes do not fit either, on the sheets of "
                f"{_ranges(numbers)} (by up to {max(o.by_mm for o in rest):.1f} mm; seed "
                f"{seed}); shorten what they print or adjust {template}"))
        return problems

    def html(self, ctx: BuildContext) -> str:
        characters = self.characters(ctx)
        paper = self.paper_for_sheets(ctx)
        pack = self.pack_info(characters, paper)
        css = "\n".join(inline_css_for_screen(stylesheet(self.project, s),
                                              self.project.read_roots)
                        for s in self.stylesheets)
        generated = "\n".join(s.text for s in self._stylesheets(paper) if s.text)
        return self._render("all", characters, paper, pack, screen_css=css + "\n" + generated,
                            marks=self.marks_for(characters))

    def json(self, ctx: BuildContext | None = None) -> str:
        data = {"seed": self.options.seed, "printshop": __version__,
                "characters": [c.to_json() for c in self.characters(ctx)]}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        for fmt in self.options.formats:
            if fmt == "pdf":
                output.add(f"{self.name}.pdf", self.pdf(ctx))
            elif fmt == "html":
                output.add(f"{self.name}.html", self.html(ctx))
            else:
                output.add(f"{self.name}.json", self.json(ctx))


SHEET_MARGIN_MM = 9
LAYERED_FROM = 12   # 20 sheets took the same time either way, 50 took a fifth less layered

def _no_collect(name, text) -> str:
    return ""
# An index page is a table of 110 rows: laying four out in one job grew a worker by 35 MB
# that it kept for the rest of the pack (the 1,000-pack's peak: 265 MB, 240 one a job)
INDEX_PAGES_PER_JOB = 1


PRODUCT = Pregens


LISTED = 5   # overflows of a pack said one by one; the others in one line


def _ranges(numbers: list[int]) -> str:
    """#3, #5–#9, #12: sorted numbers as runs."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"#{a}" if a == b else f"#{a}–#{b}" for a, b in runs)


def _collect(problems: Problems, step) -> bool:
    """Runs `step`, keeping its problems with the others; whether it went through."""
    try:
        step()
    except PrintshopError as exc:
        problems.extend(exc)
        return False
    return True
