"""A convention kit: N tables of M seats, each seat with a few characters, one envelope (PDF)
per table, the whole kit in table order, and `kit.json` saying which sheet went where.

The characters are one pregen pack (`products/characters/pregens.py`) numbered across the
kit: character n is rolled from the seed and n alone, so it is the same in a kit of any
size. Every sheet is rendered once (one job per seat, on every core) and its pages are
reused in the table's PDF and in the whole kit; so are the player reference and the includes
(includes.py).
Every part of an envelope starts on a new leaf: a blank page follows a part with an odd
number of pages, so the file prints double-sided.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import Field

from printshop import __version__
from printshop.commands import Command, source_flag
from printshop.errors import PrintshopError, Problem, Problems
from printshop.output import BuildOutput
from printshop.products import BuildContext, Product
from printshop.products.characters.chunks import LazyJobs
from printshop.products.characters.includes import include_kind, included_product, render_include
from printshop.products.characters.pregens import (
    MAX_COUNT,
    PROGRESS_AFTER_S,
    PROGRESS_EVERY_S,
    SEED_PATTERN,
    Pregens,
    PregensOptions,
)
from printshop.products.common import (
    base_url,
    check_stylesheets,
    jinja_environment,
    stylesheet,
    template_problem,
)
from printshop.render.checks import FitCheck
from printshop.render.jinja import render_template
from printshop.render.job import RenderJob
from printshop.render.job_warnings import collect_warnings
from printshop.source.schema import Strict
from printshop.source.yamlfile import load_yaml

MAX_TABLES = 500
MAX_SEATS = 12
MAX_PER_SEAT = 10


class ConventionOptions(Strict):
    kind: Literal["convention"]
    seed: str = Field(pattern=SEED_PATTERN)   # same seed, same characters (printed on each)
    tables: int = Field(ge=1, le=MAX_TABLES)   # one envelope each
    seats: int = Field(default=6, ge=1, le=MAX_SEATS)   # players at each table
    characters_per_seat: int = Field(default=3, ge=1, le=MAX_PER_SEAT)   # spares for the dead
    recipe: str | None = None          # recipes/RECIPE.yaml (default: characters, or the
                                       # project's only recipe)
    classes: list[str] = []            # only these classes (ids or words); empty: every class
    class_table: str | None = None     # a name of the recipe's class tables (default: its first)
    reroll_while: list[str] = []       # roll a character again while any of these holds
    backs: bool = True                 # tombstones on the back (false: the back is blank)
    paper: Literal["letter", "a4"] | None = None   # default: the manifest's
    player_reference: str | None = "player-reference"   # a sheets/ layout, one per seat
    include: list[str] = []            # products or sheets/ layouts, one of each per table
    title: str = "Convention Kit"      # on each table's cover
    template: str = "convention.html.j2"   # the covers' template
    # the covers' and sheets' stylesheets (templates/css/ first)
    stylesheets: list[str] = ["css/fonts.css", "css/pregens.css", "css/convention.css"]


@dataclass
class Part:
    """A run of pages of an envelope, starting on a new leaf."""

    label: str
    pdfs: list[bytes]
    pages: int
    seat: int | None = None
    characters: list = field(default_factory=list)


class Convention(Product):
    kind = "convention"
    Options = ConventionOptions
    entry: dict   # the manifest entry `printshop kit` made it from (products/characters/kit.py)

    def __init__(self, project, name, options):
        super().__init__(project, name, options)
        o = options
        self.pregens = Pregens(project, name, PregensOptions(
            kind="pregens", seed=o.seed, count=o.tables * o.seats * o.characters_per_seat,
            recipe=o.recipe, classes=o.classes, class_table=o.class_table,
            reroll_while=o.reroll_while, backs=o.backs, paper=o.paper,
            seats=o.seats, characters_per_seat=o.characters_per_seat),
            large_ok=True)
        self.pregens._problem_at = self._problem_at   # a wish's problem names this kit

    # --- inputs ------------------------------------------------------------------------------
    cli_flags: dict[str, str] | None = None   # `printshop kit`: problems name its flags

    def _at(self, option, message: str) -> Problem:
        if self.cli_flags is not None:
            key = option[0] if isinstance(option, tuple) else option
            return Problem(self.cli_flags.get(key, f"--{key}"), message)
        loc = ("products", self.name) + (option if isinstance(option, tuple) else (option,))
        path = self.project.manifest_path
        if path is None:
            return Problem(str(self.project.root), message)
        pos = load_yaml(path).pos(loc)
        return Problem(str(path), f"{'.'.join(map(str, loc[1:]))}: {message}", pos.line,
                       pos.column)

    @property
    def count(self) -> int:
        return self.pregens.options.count

    def includes(self) -> list[str]:
        o = self.options
        return [name for name in ([o.player_reference] if o.player_reference else []) +
                list(o.include) if include_kind(self.project, name) == "product"]

    def check(self, ctx: BuildContext) -> None:
        """Every problem of the kit at once: its size, its pack (recipe, tables, sheet),
        what it includes, its cover's template and stylesheets."""
        o = self.options
        problems = Problems()
        if self.count > MAX_COUNT:
            problems.items.append(self._at("tables", f"{o.tables} tables × {o.seats} seats × "
                                           f"{o.characters_per_seat} characters is "
                                           f"{self.count:,} characters, more than "
                                           f"{MAX_COUNT:,}"))
        try:
            self.pregens.check(ctx)   # the recipe, tables, the sheet template and stylesheets
        except PrintshopError as exc:
            problems.extend(exc)
        kit_ctx = replace(ctx, paper=self.pregens.sheet_paper(ctx))
        wanted: list[tuple[str | tuple[str, int], Any]] = \
            [("player_reference", o.player_reference)] if o.player_reference else []
        wanted += [(("include", i), name) for i, name in enumerate(o.include)]
        for where, name in wanted:
            kind = include_kind(self.project, name)
            if kind is None:
                problems.items.append(self._at(where, f"'{name}' is neither a product of this "
                                               "manifest nor a layout in sheets/"))
            elif kind == "product" and \
                    self.project.manifest.products[name].get("kind") == "convention":
                problems.items.append(self._at(where, f"'{name}' is a convention kit; a kit "
                                               "cannot hold a kit"))
            else:
                try:   # on the kit's paper, as build() renders it
                    included_product(self.project, name).check(kit_ctx)
                except PrintshopError as exc:
                    problems.extend(exc)
        env = jinja_environment(self.project)
        try:
            env.get_template(o.template)
        except Exception as exc:
            problems.extend(template_problem(env, o.template, exc))
        try:
            check_stylesheets(ctx, self.project, list(o.stylesheets))
        except PrintshopError as exc:
            problems.extend(exc)
        problems.raise_if_any()

    # --- the kit -----------------------------------------------------------------------------
    def seating(self) -> list[list[list]]:
        """tables → seats → that seat's characters (table t, seat s: a run of n)."""
        characters = self.pregens.characters()
        per_seat, seats = self.options.characters_per_seat, self.options.seats
        return [[characters[((t * seats) + s) * per_seat:((t * seats) + s + 1) * per_seat]
                 for s in range(seats)] for t in range(self.options.tables)]

    def _problem_at(self, option: str, message: str) -> PrintshopError:
        return PrintshopError(self._at(option, message))

    def reprint_command(self, paper: str) -> Command:
        """Sheet #N of the kit alone, as the kit prints it: with its table and seat, on the
        kit's paper, the sheet and its back."""
        return self.pregens.reprint_command(paper, "N")

    def rebuild_command(self, ctx: BuildContext) -> Command:
        options = []
        source = source_flag(self.project.root)
        if source:
            options.append(("--source", source))
        if ctx.paper:
            options.append(("--paper", ctx.paper))
        return Command(("printshop", "build", self.name), tuple(options))

    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        from printshop.render.pdf.layered_merge import merge_layered_pdfs
        from printshop.render.pdf.merge import blank_page, split_pages

        o = self.options
        paper = self.pregens.paper_for_sheets(ctx)
        seating = self.seating()
        sheets = self._render_sheets(ctx, seating, paper)
        reference = render_include(ctx, o.player_reference, paper) if o.player_reference \
            else None
        includes = [render_include(ctx, name, paper) for name in o.include]
        blank = blank_page(*self.project.paper_size_mm(paper))
        covers = self._render_covers(ctx, seating, paper, reference, includes)

        kit = {"kit": self.name, "seed": o.seed, "printshop": __version__, "paper": paper,
               "tables": o.tables, "seats": o.seats, "characters_per_seat": o.characters_per_seat,
               "recipe": self.pregens.recipe.id, "classes": o.classes,
               "class_table": self.pregens.class_table_key(), "backs": o.backs,
               "reprint": self.reprint_command(paper).shell(), "envelopes": []}
        from printshop.progress import Counter

        files, whole, whole_outline, whole_pages = {}, [], [], 0
        per_character = 2 if o.backs else 1
        joining = Counter(ctx.progress, f"{self.name}: joining", o.tables + 1, "envelopes",
                          quiet_for=PROGRESS_AFTER_S, every=PROGRESS_EVERY_S)
        for t, seats in enumerate(seating, start=1):
            parts = [Part("Table cover", [covers[t - 1][0]], covers[t - 1][1])]
            for s, characters in enumerate(seats, start=1):
                label = f"Seat {s}: #{characters[0].index}–#{characters[-1].index}"
                if o.backs:   # sheet and tombstone share a leaf: the seat's pages as rendered
                    parts.append(Part(label, [sheets[(t, s)]], len(characters) * 2, seat=s,
                                      characters=characters))
                else:         # each sheet on its own leaf, a blank page behind it
                    for n, (c, pdf) in enumerate(zip(characters, split_pages(sheets[(t, s)]))):
                        parts.append(Part(label if n == 0 else "", [pdf], 1, seat=s,
                                          characters=[c]))
            if reference:
                for s in range(1, o.seats + 1):
                    parts.append(Part(f"{reference.title}, seat {s}", list(reference.pdfs),
                                      reference.pages))
            parts += [Part(inc.title, list(inc.pdfs), inc.pages) for inc in includes]

            pdfs, outline, page, envelope = [], [], 0, []
            for part in parts:
                if part.label:
                    outline.append((part.label, page))
                    envelope.append({"part": part.label, "first_page": page + 1})
                for n, c in enumerate(part.characters):
                    assert part.seat is not None    # (characters sit at a seat)
                    _seat_entry(kit, t, part.seat)["characters"].append({
                        "index": c.index, "id": c.id, "class": c.kind,
                        "class_name": c.label, "page": page + n * per_character + 1})
                pdfs += part.pdfs
                page += part.pages
                if part.pages % 2:
                    pdfs.append(blank)
                    page += 1
            stem = f"table-{t:0{max(2, len(str(o.tables)))}d}"
            title = f"{self.project.manifest.title}: {o.title}, table {t} (seed {o.seed})"
            files[f"{stem}.pdf"] = merge_layered_pdfs(pdfs, title=title, outline=outline)
            entry = _table_entry(kit, t)
            entry.update(file=f"{self.name}/{stem}.pdf", pages=page,
                         first_page_in_kit=whole_pages + 1, contents=envelope)
            whole += pdfs
            whole_outline += [(f"Table {t}: {label}", whole_pages + p) for label, p in outline]
            whole_pages += page
            joining.update(t)
        files["kit.json"] = (json.dumps(kit, indent=2, ensure_ascii=False) + "\n").encode()
        output.add_tree(self.name, files)
        output.add(f"{self.name}.pdf", merge_layered_pdfs(
            whole, title=f"{self.project.manifest.title}: {o.title} (seed {o.seed})",
            outline=whole_outline))
        joining.update(o.tables + 1)   # and the whole kit
        self.pages = whole_pages

    # --- rendering ---------------------------------------------------------------------------
    def _render_sheets(self, ctx, seating, paper) -> dict[tuple[int, int], bytes]:
        """(table, seat) → that seat's sheets (and backs) as a PDF: one render job a seat."""
        pregens = self.pregens
        pack = pregens.pack_info(pregens.characters(ctx), paper)
        css = pregens._stylesheets(paper)
        roots = tuple(str(r) for r in self.project.read_roots)
        per_character = 2 if self.options.backs else 1

        def make_job(html: str) -> RenderJob:
            return RenderJob(html=html, stylesheets=css, roots=roots,
                             base_url=base_url(self.project),
                             source=f"{pregens.template} ({self.name})",
                             uncompressed=ctx.uncompressed, extensions=(FitCheck(),))

        # each sheet's table and seat, as `printshop roll characters --seats --per-seat`
        # marks it (the cover's reprint command)
        seats_marks = [(characters, pregens.marks_for(characters))
                       for seats in seating for characters in seats]
        everyone = [c for characters, _ in seats_marks for c in characters]
        layers = pregens.layered_sheets(ctx, everyone, paper, pack, make_job,
                                        marks={i: m for _, marks in seats_marks
                                               for i, m in marks.items()})
        work = []
        for t, seats in enumerate(seating, start=1):
            for s, characters in enumerate(seats, start=1):
                marks = pregens.marks_for(characters)
                work.append((f"table {t}, seat {s}", len(characters) * per_character,
                             len(characters),
                             (lambda chars=characters, marks=marks: layers.job(chars, marks))
                             if layers else
                             (lambda chars=characters, marks=marks: pregens._render(
                                 "sheets", chars, paper, pack, marks=marks))))

        from printshop.progress import Counter

        total = self.count
        if ctx.progress and total > 20:
            ctx.progress(f"{self.name}: rendering {total} character sheets for "
                         f"{self.options.tables} tables")
        counter = Counter(ctx.progress, f"{self.name}: rendering", total, "sheets",
                          quiet_for=PROGRESS_AFTER_S, every=PROGRESS_EVERY_S)

        def on_done(index, result) -> None:
            counter.update(step=work[index][2])

        results = ctx.renderer.render(LazyJobs(work, make_job), on_done=on_done)
        if layers:
            results = layers.redo_overflowing(ctx.renderer, work, results,
                                              lambda n: seats_marks[n])
        problems = pregens.pack_problems(work, results)
        for result in results:
            for warning in collect_warnings([result]):
                ctx.warn(warning)
        if problems:
            raise PrintshopError(problems)
        keys = [(t, s) for t, seats in enumerate(seating, start=1)
                for s in range(1, len(seats) + 1)]
        return {key: result.pdf for key, result in zip(keys, results)}

    def _render_covers(self, ctx, seating, paper, reference, includes) \
            -> list[tuple[bytes, int]]:
        """Each table's cover and its number of pages (a long kit's may take two)."""
        from printshop.products.common import page_size_css
        from printshop.products.printing import sheet_palette_css

        o = self.options
        env = jinja_environment(self.project)
        css = (sheet_palette_css(self.project),) + tuple(
            stylesheet(self.project, s) for s in o.stylesheets) + (
            page_size_css(self.project, paper), self.pregens._sheet_size_css(paper))
        jobs = []
        for t, seats in enumerate(seating, start=1):
            envelope = [{"what": f"Seat {s}", "characters": cs} for s, cs in
                        enumerate(seats, start=1)]
            contents = ([{"what": f"{reference.title} ×{o.seats}",
                          "detail": "one per seat"}] if reference else [])
            contents += [{"what": inc.title, "detail": f"{inc.pages} pages"} for inc in includes]
            html = render_template(
                env, o.template, game=self.project.manifest.title, title=o.title, table=t,
                tables=o.tables, seats=o.seats, per_seat=o.characters_per_seat,
                envelope=envelope, contents=contents, seed=o.seed, backs=o.backs,
                noun=self.pregens.recipe.noun, nouns=self.pregens.recipe.nouns,
                reprint=self.reprint_command(paper).html(),
                rebuild=self.rebuild_command(ctx).html(),
                first=seats[0][0].index, last=seats[-1][-1].index)
            jobs.append(RenderJob(html=html, stylesheets=css,
                                  roots=tuple(str(r) for r in self.project.read_roots),
                                  base_url=base_url(self.project),
                                  source=f"{o.template} ({self.name})",
                                  uncompressed=ctx.uncompressed))
        results = ctx.renderer.render(jobs)
        for warning in collect_warnings(results):
            ctx.warn(warning)
        return [(r.pdf, r.pages) for r in results]


def _table_entry(kit: dict, table: int) -> dict:
    while len(kit["envelopes"]) < table:
        kit["envelopes"].append({"table": len(kit["envelopes"]) + 1, "seats": []})
    return kit["envelopes"][table - 1]


def _seat_entry(kit: dict, table: int, seat: int) -> dict:
    seats = _table_entry(kit, table)["seats"]
    while len(seats) < seat:
        seats.append({"seat": len(seats) + 1, "characters": []})
    return seats[seat - 1]


PRODUCT = Convention
