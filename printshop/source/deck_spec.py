"""What a deck file may say (`decks/ID.yaml`, checked by pydantic) and the loaded deck with
its cards. Loading and checking is `printshop.source.decks`; dealing the cards from the deck's
table is `printshop.source.deck_dealing`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator

from printshop.source.card_sizes import CardSize
from printshop.source.schema import Strict
from printshop.source.tables import ColumnSpec, Table
from printshop.source.yamlfile import YamlDoc

DECKS_FOLDER = "decks"
HEX_COLOUR = r"^(#[0-9a-fA-F]{6}|[a-z][a-z0-9-]{0,40})$"  # #rrggbb or a palette name
SUITS = ("hearts", "diamonds", "clubs", "spades")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
MAX_DICE_CARDS = 1296  # 4d6; more than that is not a deck anyone shuffles
DEFAULT_TEMPLATES = {"rows": "cards/result.html.j2", "dice": "cards/dice.html.j2",
                     "playing-cards": "cards/playing-card.html.j2",
                     "hirelings": "cards/hireling.html.j2",
                     "characters": "cards/character.html.j2"}


class DeckBack(Strict):
    title: str = Field(min_length=1)
    subtitle: str | None = None
    # templates/cards/emblems/NAME.svg, or any icon (icons/NAME.svg, a bundled one)
    emblem: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    template: str = "cards/back.html.j2"
    image: str | None = None   # the whole back is this picture (relative to the project)

    @field_validator("emblem", mode="before")
    @classmethod
    def _any_case(cls, value):   # emblem files are named in lower case: Torch is torch
        return value.lower() if isinstance(value, str) else value


class DeckArt(Strict):
    """Pictures on the fronts: each card's from its row's `column` (a path relative to the
    project folder), else the deck's `image`; in the layout's art frame, or full bleed."""

    image: str | None = None            # the deck-wide default
    column: str = "image"               # the column naming each card's picture
    place: Literal["frame", "full"] = "frame"


class DeckFace(Strict):
    """Which columns the front template shows where (for `rows` and `playing-cards`)."""

    corner: str | None = None     # printed big in the corner
    title: str | None = None      # the card's heading
    text: list[str] = []          # paragraphs of the body
    extra: list[str] = []         # labelled sections in the lower part of the card
    note: str | None = None       # one small line above the id
    icon: str | None = None       # a column naming an icon, printed large (icons/NAME.svg
                                  # or a bundled one)


class RulesCard(Strict):
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)  # block Markdown
    table: str | None = None         # printed under the text: a guide table id, or a
                                     # table file inside decks/ (tables/my-table.yaml)
    columns: list[str] | None = Field(default=None, min_length=1)  # the table's columns to
                                     # print (keys; default: its printed ones), so a wide
                                     # table can go on two cards instead of in tiny type


class HirelingSettings(Strict):
    tiers: str = "hireling-tiers"
    professions: str = "hireling-professions"
    first_names: str = "hireling-first-names"
    family_names: str = "hireling-family-names"
    quirks: str = "hireling-quirks"
    hit_die: str = "d6"                 # each Hit Die; a hireling has tier × this
    zero_hd_hit_points: str = "1d4"     # a Tier 0 hireling has no Hit Dice
    morale: str = Field(min_length=1)   # the reminder printed on every card


class CharacterDeal(Strict):
    """A deck of rolled characters (`deal: characters`): one card each, from a recipe."""

    recipe: str = "characters"          # recipes/RECIPE.yaml
    class_table: str | None = None      # a name of the recipe's class tables


class DeckSpec(Strict):
    title: str = Field(min_length=1)
    code: str = Field(pattern=r"^[A-Z][A-Z0-9]{0,5}$")  # printed in every card's id
    description: str | None = None
    size: str = "poker"
    colour: str = Field(pattern=HEX_COLOUR)     # the deck's main colour (back, headings)
    accent: str = Field(pattern=HEX_COLOUR)     # frames and ornaments
    background: str = Field(default="card-paper", pattern=HEX_COLOUR)  # behind the fronts
    template: str | None = None                 # front template (default by deal)
    rules_template: str = "cards/rules.html.j2"
    back: DeckBack
    # Who the deck's rules come from, printed as a line of text on the back and on every
    # rules card ("Adapted from …"): a deck restating another game's table says so in words
    # instead of wearing that game's name as a brand on its back.
    credit: str | None = Field(default=None, min_length=1, max_length=120)
    deal: Literal["rows", "dice", "playing-cards", "hirelings", "characters"] = "rows"
    face: DeckFace = DeckFace()
    art: DeckArt = DeckArt()
    # the cards' data: inline (columns + rows), a table file inside decks/, or guide tables
    columns: list[ColumnSpec] | None = None
    # the rows, or a spreadsheet (CSV, XLSX, ODS) relative to the deck file: rows: cards.xlsx
    rows: list[dict[str, Any]] | str | None = Field(default=None, min_length=1)
    sheet: str | None = None                    # a workbook's sheet (default: the first)
    header_row: int = Field(default=1, ge=1)    # the spreadsheet row naming the columns
    dice: str | None = None
    roll_label: str | None = None
    table: str | None = None
    tables: list[str] | None = None
    rules_cards: list[RulesCard] = []
    hirelings: HirelingSettings | None = None
    characters: CharacterDeal | None = None     # deal: characters
    # playing-cards: a row with `die: N` takes its texts from row N of this guide dice table,
    # so a deck that stands in for a die (the Event Deck) can never disagree with the book
    results_from: str | None = None


@dataclass
class Card:
    number: int          # 1-based place in the deck
    id: str              # printed on the card: "EV-07"
    template: str
    data: dict           # what the template reads as `card`
    path: Path           # where its text comes from (for messages)
    line: int | None
    label: str           # how messages name it: "card EV-07 (7 of hearts)"
    file_stem: str | None = None  # PNG file names (default: the id)


@dataclass
class Deck:
    id: str
    path: Path
    spec: DeckSpec
    doc: YamlDoc
    size: CardSize
    cards: list[Card] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    results: Table | None = None  # spec.results_from, loaded
    emblem_template: str | None = None  # the back's emblem, when a template draws it (else
                                        # it is an icon of that name)

    def line_of(self, *loc) -> int:
        return self.doc.pos(loc).line

    COLOUR_FIELDS = ("colour", "accent", "background")

    def theme(self, colours) -> dict:
        """What templates read as `deck`, its colours written for `colours` (a
        printshop.source.palette.Colours: sRGB, or DeviceCMYK for the press)."""
        spec = self.spec
        return {"id": self.id, "title": spec.title, "code": spec.code,
                "description": spec.description, "colour": colours(spec.colour),
                "accent": colours(spec.accent), "background": colours(spec.background),
                # soft panels on the fronts; the lattice on the back
                "tint": colours.mix(spec.colour, spec.background, 0.86),
                "shade": colours.mix(spec.colour, "white", 0.10),
                # the emblem behind a result card's text, for presses without transparency:
                # the look of the 7 % opaque emblem, as a solid colour
                "watermark": colours.mix(spec.colour, spec.background, 0.93),
                "back": {**spec.back.model_dump(), "emblem_template": self.emblem_template},
                "face": spec.face.model_dump(), "art": spec.art.model_dump(),
                "credit": spec.credit,
                "size": self.size.id}

    def colour_problems(self, colours) -> list[tuple[str, int | None]]:
        """(message, line) for each deck colour `colours` cannot print."""
        from printshop.source.palette import UnknownColour

        out = []
        for key in self.COLOUR_FIELDS:
            try:
                colours(getattr(self.spec, key))
            except UnknownColour as exc:
                line = self.line_of(key) if key in self.doc.data else None
                out.append((f"{key}: {exc}", line))
        return out
