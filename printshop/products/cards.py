"""Card products: decks from `decks/*.yaml` (kind `deck`) and rolled hirelings (kind
`hirelings`), imposed for home duplex, fold-over or a card printer, as PDF and/or PNG.

The pipeline: deal or roll the cards (data) → impose them (geometry, printshop.cards) →
render each face with its deck's template → lay the faces out on sheets → WeasyPrint on
all cores → text that overflows its `data-fit` box is set again one size smaller, down to
the smallest size its template allows → merge (PDF) or rasterise (PNG).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from printshop.cards.imposition import Page, impose_printshop
from printshop.errors import PrintshopError, Problem, Problems
from printshop.output import BuildOutput
from printshop.products import BuildContext, Product
from printshop.products.card_compose import (SHEET_TEMPLATE, STYLESHEETS, CardComposer,
                                             check_templates, sheet_job)
from printshop.products.card_fit import FitState, fit_alone, overflows_by_box
from printshop.products.card_settings import (CardsOptions, DeckGroup, Settings, group_size,
                                              impose_groups, manifest_where, resolve_settings)
from printshop.products.common import check_stylesheets
from printshop.products.printing import colours_for, finish_for_profile
from printshop.render.merge import merge_pdfs
from printshop.render.pdf import collect_warnings
from printshop.source.decks import Card, Deck, load_deck

# A job is one sheet (its fronts and its backs; a fold-over sheet is one page): one edited
# card renders its own sheet again and the others come from the chunk cache
# (render/chunks.py), and a card set smaller is rendered again with only its sheet. The
# printshop layout (one card a page) takes three cards a job. Chunks never depend on the
# number of cores: same bytes everywhere.
PAGES_PER_JOB = {"home": 2, "foldover": 1, "printshop": 6}
MAX_FIT_ROUNDS = 12
PNG_DPI = 300


# --- rendering -----------------------------------------------------------------------------

@dataclass
class Chunk:
    group_index: int
    pages: list[Page]
    first_page: int        # index of its first page in the whole document
    cards: set[int]        # cards whose fronts it shows


def chunks_of(groups: list[DeckGroup]) -> list[Chunk]:
    chunks, page_no = [], 0
    for gi, group in enumerate(groups):
        pages = group.imposition.pages
        step = PAGES_PER_JOB.get(group.imposition.layout, 6)
        for start in range(0, len(pages), step):
            part = pages[start:start + step]
            cards = {f.card for p in part for f in p.faces if f.side == "front"}
            chunks.append(Chunk(gi, part, page_no, cards))
            page_no += len(part)
    return chunks


def render_cards(ctx: BuildContext, composer: CardComposer, groups: list[DeckGroup],
                 fit: FitState, what: str) -> list[list[bytes]]:
    """Each group's PDF chunks, every text box fitting.

    The sheets are rendered once. Cards whose text overflows are then tried alone at every
    smaller size in one render (a page per try: cheap), and set at the largest that fits
    (or fail naming the card); only the sheets holding them are rendered again.
    """
    chunks = chunks_of(groups)
    results: dict[int, bytes] = {}
    pending = list(range(len(chunks)))
    for _round in range(MAX_FIT_ROUNDS):
        if ctx.progress:
            pages = sum(len(chunks[i].pages) for i in pending)
            ctx.progress(f"{what}: rendering {pages} pages" if _round == 0 else
                         f"{what}: rendering {pages} pages again with smaller text")
        jobs = [sheet_job(ctx, composer, groups[chunks[i].group_index],
                          chunks[i].group_index, chunks[i].pages, fit) for i in pending]
        rendered = ctx.renderer.render(jobs)
        for warning in collect_warnings(rendered):
            ctx.warn(warning)
        again, overflowing = [], {}
        for index, result in zip(pending, rendered):
            found = overflows_by_box(result)
            if found:
                again.append(index)
                overflowing.update(found)
            else:
                results[index] = result.pdf
        if not again:
            break
        fit_alone(ctx, composer, groups, fit, overflowing, what)
        pending = again
    else:
        raise PrintshopError(Problem(SHEET_TEMPLATE, "cards still overflow after "
                                     f"{MAX_FIT_ROUNDS} rounds"))
    by_group: list[list[bytes]] = [[] for _ in groups]
    for index, chunk in enumerate(chunks):
        by_group[chunk.group_index].append(results[index])
    return by_group


def build_cards(ctx: BuildContext, output: BuildOutput, name: str, title: str,
                groups: list[DeckGroup], settings: Settings, project) -> None:
    composer = CardComposer(project, settings, title)
    fit = FitState()
    profile = settings.profile
    bookmarks = profile is None or profile.bookmarks
    if "pdf" in settings.formats:
        parts = render_cards(ctx, composer, groups, fit, name)
        if settings.one_file_per_deck and len(groups) > 1:
            # a card printer takes one deck per file: NAME-DECK.pdf
            files = [(f"{name}-{group.deck.id}.pdf", group.deck.spec.title, [group], [part])
                     for group, part in zip(groups, parts)]
        else:
            files = [(f"{name}.pdf", title, groups, parts)]
        for file_name, file_title, file_groups, file_parts in files:
            outline, page = [], 0
            for group in file_groups:
                outline.append((group.deck.spec.title, page))
                page += len(group.imposition.pages)
            pdf = merge_pdfs([p for ps in file_parts for p in ps], title=file_title,
                             outline=outline if bookmarks else None)
            if profile is not None:
                sizes = {(g.size.width, g.size.height) for g in file_groups}
                trim = next(iter(sizes)) if settings.layout == "printshop" and \
                    len(sizes) == 1 else None
                pdf = finish_for_profile(ctx, project, profile, pdf, trim, file_title,
                                         file_name)
            output.add(file_name, pdf)
    if "png" in settings.formats:
        output.add_tree(name, export_png(ctx, composer, groups, fit, settings, name))


def export_png(ctx, composer: CardComposer, groups: list[DeckGroup], fit: FitState,
               settings: Settings, name: str) -> dict[str, bytes]:
    """One PNG per card front, and one per deck back (a deck's backs are all the same)."""
    from printshop.cards.raster import pages_to_png

    png_groups = []
    for group in groups:
        imposition = impose_printshop(len(group.cards), group.size.width, group.size.height,
                                      settings.bleed)
        imposition.pages = [p for p in imposition.pages
                            if p.side == "front" or p.faces[0].card == 0]
        png_groups.append(DeckGroup(group.deck, group.cards, group.size, group.size_where,
                                    imposition))
    parts = render_cards(ctx, composer, png_groups, fit, f"{name} (PNG)")
    files: dict[str, bytes] = {}
    for group_parts, group in zip(parts, png_groups):
        part = merge_pdfs(group_parts)
        pages = group.imposition.pages
        sizes = [(group.size.width, group.size.height, settings.bleed)] * len(pages)
        images = pages_to_png(part, sizes, PNG_DPI, keep_bleed=settings.png_bleed)
        for page, image in zip(pages, images):
            card = group.cards[page.faces[0].card]
            file_name = (f"{card.file_stem or card.id}-front.png" if page.side == "front"
                         else f"{group.deck.spec.code}-back.png")
            files[_file_safe(file_name)] = image
    return files


def _file_safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "-" for c in name)


# --- products ------------------------------------------------------------------------------

class CardsProduct(Product):
    kind = "cards"
    Options = CardsOptions

    def groups(self, ctx: BuildContext, problems: Problems) -> tuple[Settings, list[DeckGroup]]:
        settings = resolve_settings(self, ctx, problems)
        groups = []
        path, line = manifest_where(self, "decks")
        for deck_id in self.options.decks:
            try:
                deck = load_deck(self.project, deck_id, where=(path, line))
                cards = (self._rolled_cards(deck) if deck.spec.deal == "hirelings"
                         else deck.cards)
            except PrintshopError as exc:
                problems.extend(exc)
                continue
            for message, line in deck.colour_problems(colours_for(self.project,
                                                                  settings.profile)):
                problems.add(deck.path, message, line)
            size, where = group_size(deck, settings)
            groups.append(DeckGroup(deck, cards, size, where))
        if not problems:
            impose_groups(groups, settings, problems)
        return settings, groups

    def _rolled_cards(self, deck: Deck) -> list[Card]:
        from printshop.roll.hirelings import hireling_tables

        options = self.options
        if options.seed is None or (options.per_tier is None and options.count is None):
            path, line = manifest_where(self, "decks")
            raise PrintshopError.at(path, f"products.{self.name}: deck '{deck.id}' is rolled: "
                                    "give a seed and either per_tier (cards per tier) or "
                                    "count", line)
        tables = hireling_tables(self.project.tables, deck.spec.hirelings, deck.path)
        if options.per_tier is not None:
            unknown = sorted(set(options.per_tier) - set(tables.tier_numbers))
            if unknown:
                path, line = manifest_where(self, "per_tier")
                raise PrintshopError.at(path, f"products.{self.name}.per_tier: no tier "
                                        f"{', '.join(map(str, unknown))} in "
                                        f"tables/{tables.tiers_table.path.name} (tiers: "
                                        f"{', '.join(map(str, tables.tier_numbers))})", line)
        return hireling_cards(deck, tables, options.seed, per_tier=options.per_tier,
                              count=options.count)

    def check(self, ctx: BuildContext) -> None:
        problems = Problems()
        settings, groups = self.groups(ctx, problems)
        problems.raise_if_any()
        check_templates(self.project, groups)
        check_stylesheets(ctx, self.project, list(STYLESHEETS))

    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        problems = Problems()
        settings, groups = self.groups(ctx, problems)
        problems.raise_if_any()
        title = self.options.title or " · ".join(g.deck.spec.title for g in groups)
        build_cards(ctx, output, self.name, title, groups, settings, self.project)


def hireling_cards(deck: Deck, tables, seed: str, per_tier: dict | None = None,
                   count: int | None = None, tier: int | None = None) -> list[Card]:
    """Rolled hireling cards (by tier when `per_tier`), then the deck's rules cards."""
    from printshop.roll.hirelings import roll_hirelings

    if per_tier is not None:
        hirelings = [h for t in sorted(per_tier) for h in
                     roll_hirelings(tables, seed, per_tier[t], tier=t)]
    else:
        hirelings = roll_hirelings(tables, seed, count or 0, tier=tier)
    template = deck.spec.template or "cards/hireling.html.j2"
    cards = [hireling_card(deck, tables, h, template, n + 1) for n, h in enumerate(hirelings)]
    return cards + [c for c in deck.cards if c.data.get("kind") == "rules"]


def hireling_card(deck: Deck, tables, hireling, template: str, number: int) -> Card:
    data = {"kind": "hireling", **hireling.as_data(), "id": f"{deck.spec.code} · {hireling.id}",
            "number": number}
    tier = "" if hireling.forced_tier is None else f"-t{hireling.forced_tier}"
    return Card(number=number, id=data["id"], template=template, data=data,
                file_stem=f"{deck.spec.code}-{hireling.seed}{tier}-{hireling.index:03d}",
                path=tables.professions.path, line=hireling.profession_line,
                label=f"{hireling.name}, {hireling.profession}; quirk from "
                      f"tables/{tables.quirks.path.name}:{hireling.quirk_line}")


def hirelings_json(hirelings) -> str:
    return json.dumps([h.as_data() for h in hirelings], indent=2, ensure_ascii=False) + "\n"


PRODUCT = CardsProduct


# --- printshop roll hirelings ----------------------------------------------------------------

class _RollProduct(Product):
    """Lets `roll hirelings` share the card settings of a manifest product."""

    kind = "cards"
    Options = CardsOptions


def roll_hireling_pack(source: Path, seed: str, count: int, tier: int | None, fmt: str,
                       out: Path | None, paper: str | None, card_options: dict,
                       deck_id: str = "hirelings", jobs: int | None = None, progress=None,
                       strict: bool = False) -> tuple[list[Path], list, list[Problem]]:
    """Roll `count` hirelings and write them as a PDF, JSON or a folder of PNGs.

    Returns the written paths, the hirelings and any warnings. Nothing is written unless
    everything succeeded.
    """
    from printshop.output import write_atomic
    from printshop.project import Project
    from printshop.render.pdf import Renderer
    from printshop.roll.hirelings import hireling_tables, roll_hirelings

    project = Project.load(source)
    deck = load_deck(project, deck_id, where=("--deck", None))
    if deck.spec.deal != "hirelings":
        raise PrintshopError.at("--deck", f"deck '{deck_id}' is not a hireling deck (its "
                                "deal is not hirelings)")
    tables = hireling_tables(project.tables, deck.spec.hirelings, deck.path)
    if tier is not None and tier not in tables.tier_numbers:
        raise PrintshopError.at("--tier", f"no tier {tier} in "
                                f"tables/{tables.tiers_table.path.name} (tiers: "
                                f"{', '.join(map(str, tables.tier_numbers))})")
    hirelings = roll_hirelings(tables, seed, count, tier)
    stem = f"hirelings-{seed}" + (f"-tier{tier}" if tier is not None else "")
    if fmt == "json":
        target = out or Path("build") / f"{stem}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        return [write_atomic(target, hirelings_json(hirelings).encode("utf-8"))], hirelings, []
    options = CardsOptions(kind="cards", decks=[deck_id], seed=seed, count=count,
                           formats=[fmt])
    product = _RollProduct(project, stem, options)
    ctx = BuildContext(project=project, paper=paper, strict=strict, progress=progress,
                       card_options={k: v for k, v in card_options.items() if k != "formats"})
    problems = Problems()
    settings = resolve_settings(product, ctx, problems)
    template = deck.spec.template or "cards/hireling.html.j2"
    cards = [hireling_card(deck, tables, h, template, n + 1) for n, h in enumerate(hirelings)]
    size, where = group_size(deck, settings)
    groups = [DeckGroup(deck, cards, size, where)]
    problems.raise_if_any()
    impose_groups(groups, settings, problems)
    problems.raise_if_any()
    check_templates(project, groups)
    output = BuildOutput(Path("."))
    with Renderer(processes=jobs) as renderer:
        ctx.renderer = renderer
        build_cards(ctx, output, stem, f"{deck.spec.title} (seed {seed})", groups, settings,
                    project)
    if strict and ctx.warnings:
        raise PrintshopError([Problem(w.path, f"{w.message} (--strict: warnings are errors)",
                                      w.line, w.column) for w in ctx.warnings])
    written = []
    if fmt == "pdf":
        target = out or Path("build") / f"{stem}.pdf"
        target.parent.mkdir(parents=True, exist_ok=True)
        written.append(write_atomic(target, output.files[f"{stem}.pdf"]))
    else:
        folder = out or Path("build") / stem
        images = BuildOutput(folder)
        for name, data in output.files.items():
            images.add(name.split("/", 1)[1], data)
        written = images.commit()
    return written, hirelings, ctx.warnings
