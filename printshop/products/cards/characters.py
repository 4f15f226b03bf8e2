"""Character cards: characters rolled from a recipe as the cards of a deck (`deal:
characters`), a retainer or a hireling to a card (A8 or poker). The card product gives the
seed and the count; card n is character n of that seed, the same one `printshop roll
characters --recipe RECIPE --seed SEED --first n --count 1` prints on a sheet."""

from __future__ import annotations

from printshop.errors import PrintshopError
from printshop.products.cards.settings import manifest_where
from printshop.source.decks import Card, Deck


def character_cards(product, deck: Deck) -> list[Card]:
    """The deck's rolled characters (`count` of them from the product's `seed`), then its
    rules cards."""
    from printshop.roll.recipe import Roller, Wishes, load_recipe
    from printshop.roll.recipe.layout import sheet_layout

    options = product.options
    if options.seed is None or options.count is None or options.per_tier is not None:
        path, line = manifest_where(product, "decks")
        raise PrintshopError.at(path, f"products.{product.name}: deck '{deck.id}' is rolled "
                                "from a recipe: give a seed and a count", line)
    deal = deck.spec.characters
    recipe_id = deal.recipe if deal is not None else "characters"
    recipe = load_recipe(product.project, recipe_id)
    wishes = Wishes(class_table=deal.class_table if deal is not None else None)
    roller = Roller(recipe, product.project.tables, wishes)
    template = deck.spec.template or "cards/character.html.j2"
    layout = sheet_layout(recipe)
    cards = []
    for n in range(1, options.count + 1):
        c = roller.roll(options.seed, n)
        card_id = f"{deck.spec.code} · {c.id}"
        cards.append(Card(
            number=n, id=card_id, template=template,
            data={"kind": "character", "c": c, "id": card_id, "number": n,
                  "layout": layout, "noun": recipe.noun, "recipe": recipe.id},
            path=recipe.path, line=None, label=f"{recipe.noun} {c.id} ({c.label})",
            file_stem=f"{deck.spec.code}-{options.seed}-{n:03d}"))
    return cards + [card for card in deck.cards if card.data.get("kind") == "rules"]
