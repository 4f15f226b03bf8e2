"""Card products: decks from `decks/*.yaml` (kind `deck`), rolled hirelings (kind
`hirelings`) and rolled characters (`deal: characters`, cards/characters.py), imposed for
home duplex, fold-over or a card printer, as PDF and/or PNG.

The pipeline: deal or roll the cards (data) → impose them (geometry, printshop.cards) →
render each face with its deck's template → lay the faces out on sheets → WeasyPrint on
all cores → text that overflows its `data-fit` box is set again one size smaller, down to
the smallest size its template allows → merge (PDF) or rasterise (PNG).

This module is the product (kind `cards`); the stages are its neighbours: card_settings
(options, settings, imposition), card_compose (faces and sheets to HTML), card_fit (text
fitting), card_render (render, merge, rasterise) and hireling_cards (rolled hirelings, and
`printshop roll hirelings`).
"""

from __future__ import annotations

from printshop.errors import PrintshopError, Problems
from printshop.output import BuildOutput
from printshop.products import BuildContext, Product
from printshop.products.cards.characters import character_cards
from printshop.products.cards.compose import STYLESHEETS, check_templates
from printshop.products.cards.hirelings import hireling_cards
from printshop.products.cards.render import build_cards
from printshop.products.cards.settings import (
    CardsOptions,
    DeckGroup,
    Settings,
    group_size,
    impose_groups,
    manifest_pos,
    manifest_where,
    resolve_settings,
)
from printshop.products.common import check_stylesheets
from printshop.products.printing import colours_for
from printshop.source.decks import Card, Deck, load_deck


class CardsProduct(Product):
    kind = "cards"
    Options = CardsOptions

    def groups(self, ctx: BuildContext, problems: Problems) -> tuple[Settings, list[DeckGroup]]:
        settings = resolve_settings(self, ctx, problems)
        groups = []
        for n, deck_id in enumerate(self.options.decks):
            try:
                deck = load_deck(self.project, deck_id, where=manifest_pos(self, "decks", n))
                cards = (self._rolled_cards(deck) if deck.spec.deal == "hirelings"
                         else character_cards(self, deck) if deck.spec.deal == "characters"
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
        assert deck.spec.hirelings is not None    # (a hireling deck's settings)
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
        """The decks, their templates and the stylesheets: every problem together (the
        templates of the decks that loaded)."""
        problems = Problems()
        settings, groups = self.groups(ctx, problems)
        for step in (lambda: check_templates(self.project, groups),
                     lambda: check_stylesheets(ctx, self.project, list(STYLESHEETS))):
            try:
                step()
            except PrintshopError as exc:
                problems.extend(exc)
        problems.raise_if_any()

    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        problems = Problems()
        settings, groups = self.groups(ctx, problems)
        problems.raise_if_any()
        title = self.options.title or " · ".join(g.deck.spec.title for g in groups)
        build_cards(ctx, output, self.name, title, groups, settings, self.project)


PRODUCT = CardsProduct
