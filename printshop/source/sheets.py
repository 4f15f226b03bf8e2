"""Sheet layouts (`sheets/ID.yaml`): which blocks of tables and text go on which page.

A reference sheet, the Hammersmith's screen or a set of class cards is laid out by a YAML
file, so a designer can move a table to another column, page or panel without touching code:

    title: Player Reference
    orientation: portrait          # or landscape (a screen)
    fold_lines: false              # true: each column is a panel with a fold line between
    type_size: 8                   # body text in points (8–12); the blocks scale with it
    pages:
      - title: In the Fight        # printed in the page's header
        side: Front
        columns:
          - blocks:
              - title: The Combat Round
                items:
                  - text: Each side's leader rolls **1d10 + DEX mod + WIS mod**.
                  - table: initiative-tie-breaks
                    description: false   # leave out the table's description line

Class cards are one card per class of `tables/classes.yaml` instead of pages:

    title: Class Cards
    cards: {per_page: 2}           # 1, 2 or 4 cards a page; `classes: [...]` picks some

Tables are named by id (the file name in `tables/`); a name that is not a table is an
error at its line, found before anything is rendered.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from printshop.errors import PrintshopError, Problems
from printshop.source.schema import Strict, validate
from printshop.source.yamlfile import YamlDoc, load_yaml

CARDS_PER_PAGE = (1, 2, 4)


class SheetItem(Strict):
    """One piece of a block: a table from `tables/` or a short Markdown text."""

    table: str | None = None
    text: str | None = None
    caption: bool = True       # print the table's title above it
    description: bool = True   # print the table's description line
    notes: bool = True         # print the table's notes

    @model_validator(mode="after")
    def table_or_text(self):
        if (self.table is None) == (self.text is None):
            raise ValueError("an item is either `table: ID` or `text: …` (exactly one)")
        return self


class SheetBlock(Strict):
    title: str | None = None   # default: the first table's title
    items: list[SheetItem] = Field(min_length=1)


class SheetColumn(Strict):
    width: float = Field(default=1, gt=0, le=10)  # relative to the page's other columns
    blocks: list[SheetBlock] = []


class SheetPage(Strict):
    title: str
    side: str | None = None    # "Front", "Back", "Facing the players"…
    columns: list[SheetColumn] = Field(min_length=1, max_length=6)


class ClassCards(Strict):
    per_page: int = 2
    classes: list[str] | None = Field(default=None, min_length=1)  # ids; default: all

    @field_validator("per_page")
    @classmethod
    def known_grid(cls, value: int) -> int:
        if value not in CARDS_PER_PAGE:
            raise ValueError(f"per_page is 1, 2 or 4 (cards a page), not {value}")
        return value


class SheetLayout(Strict):
    title: str = Field(min_length=1)
    subtitle: str | None = None
    orientation: Literal["portrait", "landscape"] = "portrait"
    fold_lines: bool = False
    # Body type size in points; everything in a block scales with it and nothing in a block
    # is smaller than it. 8 pt is the smallest a player reads at arm's length across a table.
    type_size: float = Field(default=8, ge=8, le=12)
    template: str | None = None
    footer: str | None = None
    pages: list[SheetPage] | None = None
    cards: ClassCards | None = None

    @model_validator(mode="after")
    def pages_or_cards(self):
        if (self.pages is None) == (self.cards is None):
            raise ValueError("a sheet has either `pages:` or `cards:` (exactly one)")
        return self


@dataclass(frozen=True)
class BlockPlace:
    """Where a block sits, for messages: `sheets/x.yaml:41: block 'Shield Bash' (page 1…)`."""

    page: int      # 1-based
    column: int    # 1-based
    index: int     # 1-based within its column
    line: int


@dataclass
class Sheet:
    id: str
    path: Path
    layout: SheetLayout
    doc: YamlDoc

    @property
    def is_cards(self) -> bool:
        return self.layout.cards is not None

    def blocks(self):
        """(place, block) for every block, in page, column, block order."""
        for p, page in enumerate(self.layout.pages or []):
            for c, column in enumerate(page.columns):
                for b, block in enumerate(column.blocks):
                    loc = ("pages", p, "columns", c, "blocks", b)
                    yield BlockPlace(p + 1, c + 1, b + 1, self.doc.pos(loc).line), block

    def table_refs(self) -> list[tuple[str, int, int]]:
        """(table id, line, column) of every table the layout names."""
        refs = []
        for p, page in enumerate(self.layout.pages or []):
            for c, column in enumerate(page.columns):
                for b, block in enumerate(column.blocks):
                    for i, item in enumerate(block.items):
                        if item.table is not None:
                            pos = self.doc.pos(("pages", p, "columns", c, "blocks", b,
                                                "items", i, "table"))
                            refs.append((item.table, pos.line, pos.column))
        return refs

    def card_class_ids(self, all_ids: list[str]) -> list[str]:
        cards = self.layout.cards
        return list(cards.classes) if cards and cards.classes is not None else list(all_ids)

    def check_references(self, table_ids, class_ids: list[str] | None) -> None:
        """Every table and class the layout names exists; all problems at once."""
        problems = Problems()
        known = sorted(table_ids)
        for table_id, line, column in self.table_refs():
            if table_id not in table_ids:
                close = difflib.get_close_matches(table_id, known, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                problems.add(self.path, f"no table '{table_id}' in tables/{hint}", line, column)
        cards = self.layout.cards
        if cards is not None:
            if class_ids is None:
                problems.add(self.path, "class cards need tables/classes.yaml, which this "
                             "project does not have", self.doc.pos(("cards",)).line)
            else:
                for i, class_id in enumerate(cards.classes or []):
                    if class_id not in class_ids:
                        pos = self.doc.pos(("cards", "classes", i))
                        close = difflib.get_close_matches(class_id, class_ids, n=1)
                        hint = f" (did you mean '{close[0]}'?)" if close else ""
                        problems.add(self.path, f"no class '{class_id}' in "
                                     f"tables/classes.yaml{hint}", pos.line, pos.column)
        problems.raise_if_any()


def load_sheet(path: Path, sheet_id: str | None = None) -> Sheet:
    path = Path(path)
    doc = load_yaml(path, keep_going=True)
    if not isinstance(doc.data, dict):
        raise PrintshopError.at(path, "a sheet layout is a mapping with a title and pages "
                                "(or cards)", 1)
    layout = validate(doc, SheetLayout)
    return Sheet(id=sheet_id or path.stem, path=path, layout=layout, doc=doc)
