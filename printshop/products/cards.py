"""Card products: decks from `decks/*.yaml` (kind `deck`) and rolled hirelings (kind
`hirelings`), imposed for home duplex, fold-over or a card printer, as PDF and/or PNG.

The pipeline: deal or roll the cards (data) → impose them (geometry, printshop.cards) →
render each face with its deck's template → lay the faces out on sheets → WeasyPrint on
all cores → text that overflows its `data-fit` box is set again one size smaller, down to
the smallest size its template allows → merge (PDF) or rasterise (PNG).
"""

from __future__ import annotations

import json
from pathlib import Path

from printshop.errors import PrintshopError, Problem, Problems
from printshop.output import BuildOutput
from printshop.products import BuildContext, Product
from printshop.products.card_compose import STYLESHEETS, check_templates
from printshop.products.card_render import build_cards
from printshop.products.card_settings import (CardsOptions, DeckGroup, Settings, group_size,
                                              impose_groups, manifest_where, resolve_settings)
from printshop.products.common import check_stylesheets
from printshop.products.printing import colours_for
from printshop.source.decks import Card, Deck, load_deck


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
