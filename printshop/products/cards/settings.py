"""A card product's print settings: its options (the manifest's, which the command line may
override, then a card printer's profile), each deck's card size, and the imposition of each
deck's cards on the paper; with where each setting came from, for messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import Field, model_validator

from printshop.errors import Problems
from printshop.products import BuildContext, Product
from printshop.products.cards.imposition import (
    BLEED_MM,
    DEFAULT_MARGIN_MM,
    SAFE_MM,
    DoesNotFit,
    Imposition,
    impose,
)
from printshop.source.card_sizes import CardSize, load_card_sizes, unknown_size_message
from printshop.source.decks import Card, Deck
from printshop.source.schema import Strict

if TYPE_CHECKING:
    from printshop.profiles import PrintProfile

PAPER = Literal["letter", "a4", "a5", "a3", "digest"]
CLI_CARD_OPTIONS = ("layout", "flip", "size", "guides", "formats", "png_bleed")


class CardOptions(Strict):
    """Options every card product takes (the command line may override them)."""

    paper: PAPER | None = None       # default: the manifest's
    profile: str | None = None   # a print profile (print-profiles.yaml); default home
    # home: duplex sheets; foldover: fold each sheet in half; printshop: a card a page, bleed
    layout: Literal["home", "foldover", "printshop"] = "home"
    flip: Literal["long", "short"] = "long"   # how the duplex printer turns the sheet
    size: str | None = None          # a card size for every deck (default: each deck's)
    margin: float = Field(default=DEFAULT_MARGIN_MM, ge=0, le=50)   # sheet margin, mm
    guides: bool = False             # draw trim, bleed and safe-zone lines
    # pdf and/or png (one 300 dpi image a card face, in a folder named after the product)
    formats: list[Literal["pdf", "png"]] = Field(default=["pdf"], min_length=1)
    png_bleed: bool = False          # PNGs include the 3 mm bleed


class CardsOptions(CardOptions):
    kind: Literal["cards"]
    decks: list[str] = Field(min_length=1)     # decks/ID.yaml, in print order
    title: str | None = None   # the PDF's title (default: the decks' titles)
    # rolled decks (deal: hirelings): the seed; per_tier or count says how many cards
    seed: str | None = Field(default=None, min_length=1, max_length=40,
                             pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    per_tier: dict[int, int] | None = None     # tier → how many cards of that tier
    count: int | None = Field(default=None, ge=1, le=10_000)  # tiers drawn by chance

    @model_validator(mode="after")
    def one_way_to_count(self):
        if self.per_tier is not None and self.count is not None:
            raise ValueError("give per_tier (cards per tier) or count (tiers drawn by their "
                             "chance of finding), not both")
        if self.per_tier is not None and any(n < 0 or n > 10_000
                                             for n in self.per_tier.values()):
            raise ValueError("per_tier: each count is a whole number from 0 to 10000")
        return self


@dataclass
class Settings:
    """The resolved print settings, and where each came from (for messages)."""

    paper: str
    paper_size: tuple[float, float]
    layout: Literal["home", "foldover", "printshop"]
    flip: Literal["long", "short"]
    margin: float
    guides: bool
    formats: list[str]
    png_bleed: bool
    size: CardSize | None            # forced size, else each deck's
    size_where: tuple[str, int | None] | None = None
    profile: PrintProfile | None = None
    bleed: float = BLEED_MM          # printshop layout and PNGs: the bleed around each card
    safe: float = SAFE_MM            # text stays this far inside the trim
    order: str = "front-back"        # printshop layout: which face of a card comes first
    one_file_per_deck: bool = False


@dataclass
class DeckGroup:
    deck: Deck
    cards: list[Card]
    size: CardSize
    size_where: tuple[str, int | None]
    # set by impose_groups before anything is composed or rendered
    imposition: Imposition = None  # type: ignore[assignment]


def resolve_settings(product: Product, ctx: BuildContext, problems: Problems) -> Settings:
    options = product.options
    override = getattr(ctx, "card_options", None) or {}
    project = product.project
    paper = product.paper(ctx)
    layout = override.get("layout") or options.layout
    forced = None
    size_where: tuple[str, int | None] | None = None
    size_name = override.get("size") or options.size
    if size_name:
        sizes = load_card_sizes(project.root)
        if override.get("size"):
            size_where = ("--card-size", None)
        else:
            size_where = manifest_where(product, "size")
        from printshop.source.choices import fold_case

        size_name = fold_case(size_name, sizes)   # Poker is poker
        if size_name not in sizes:
            problems.add(size_where[0], unknown_size_message(size_name, sizes), size_where[1])
        else:
            forced = sizes[size_name]
    formats = override.get("formats") or list(options.formats)
    png_bleed = bool(override.get("png_bleed") if override.get("png_bleed") is not None
                     else options.png_bleed)
    profile = product.print_profile()
    extra = {}
    if profile is not None and profile.cards is not None:
        # a card printer's profile sets the layout, faces' order, bleed and files
        rule = profile.cards
        layout = override.get("layout") or rule.layout
        formats = override.get("formats") or [rule.files]
        if rule.files == "png" and override.get("png_bleed") is None:
            png_bleed = True
        extra = {"bleed": profile.bleed, "safe": max(profile.safe, SAFE_MM),
                 "order": rule.order, "one_file_per_deck": rule.one_file_per_deck}
    return Settings(
        paper=paper, paper_size=project.paper_size_mm(paper), layout=layout,
        flip=override.get("flip") or options.flip, margin=options.margin,
        guides=bool(override.get("guides")) or options.guides, formats=formats,
        png_bleed=png_bleed, size=forced, size_where=size_where, profile=profile, **extra)


def manifest_where(product: Product, key: str) -> tuple[str, int | None]:
    from printshop.errors import display_path
    from printshop.source.yamlfile import load_yaml

    path = product.project.manifest_path
    if path is None:
        return ("printshop.yaml", None)
    doc = load_yaml(path)
    return (display_path(path), doc.pos(("products", product.name, key)).line)


def manifest_pos(product: Product, *loc) -> tuple[str, int | None, int | None]:
    """Where a value of the product's manifest entry is: (file, line, column)."""
    from printshop.errors import display_path
    from printshop.source.yamlfile import load_yaml

    path = product.project.manifest_path
    if path is None:
        return ("printshop.yaml", None, None)
    pos = load_yaml(path).pos(("products", product.name, *loc))
    return (display_path(path), pos.line, pos.column)


def impose_groups(groups: list[DeckGroup], settings: Settings, problems: Problems) -> None:
    width, height = settings.paper_size
    for group in groups:
        try:
            group.imposition = impose(settings.layout, len(group.cards), group.size.width,
                                      group.size.height, width, height, settings.margin,
                                      settings.flip, settings.bleed, settings.order)
        except DoesNotFit as exc:
            where, line = group.size_where
            problems.add(where, f"card size '{group.size.id}' on {settings.paper}: {exc}",
                         line)


def group_size(deck: Deck, settings: Settings) -> tuple[CardSize, tuple[str, int | None]]:
    if settings.size is not None and settings.size_where is not None:
        return settings.size, settings.size_where
    from printshop.errors import display_path

    return deck.size, (display_path(deck.path), deck.line_of("size") if "size" in
                       deck.doc.data else None)
