"""What a recipe is once read: where each piece came from (`Where`), its parsed expressions,
its steps and their options, and the `Recipe` itself. `parse.py` builds them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printshop.roll.recipe.evaluate import Compiled
from printshop.roll.recipe.expr import Node
from printshop.roll.recipe.values import Record
from printshop.source.yamlfile import YamlDoc


@dataclass
class Where:
    """Where a piece of the recipe is: its file, line and column, and how to say it."""

    path: Path
    line: int | None
    column: int | None
    field: str          # "steps.hp.value"
    quoted: bool = False

    def at(self, offset: int = 0) -> tuple[int | None, int | None]:
        if self.line is None or self.column is None:
            return None, None
        return self.line, self.column + offset + (1 if self.quoted else 0)


@dataclass
class Expr:
    text: str
    node: Node
    run: Compiled
    where: Where


@dataclass
class TableRef:
    """A table named in a step: a table id, or an expression that gives one."""

    literal: str | None
    expr: Expr | None
    where: Where


@dataclass
class Step:
    name: str
    kind: str
    where: Where
    options: dict[str, Any] = field(default_factory=dict)
    when: Expr | None = None
    otherwise: Expr | None = None
    value: Expr | None = None
    label: str | None = None
    show: str | None = None
    format: str | None = None


@dataclass
class Entry:
    """One line of an inventory step: what it adds."""

    where: Where
    item: Expr | None = None
    quantity: Expr | None = None
    kind: str | None = None       # a word that sorts items: weapon, gear …
    each: Expr | None = None
    when: Expr | None = None
    table: TableRef | None = None
    times: Expr | None = None
    fields: dict[str, Expr] = field(default_factory=dict)


@dataclass
class Check:
    where: Where
    tables: list          # table ids, or ("per_class", field path)
    column: str
    rule: str             # one_of, in, is, unique
    argument: Any


@dataclass
class Recipe:
    id: str
    path: Path
    doc: YamlDoc
    title: str = "Characters"
    description: str | None = None
    noun: str = "character"         # what one of them is called: adventurer, retainer
    nouns: str = "characters"
    name_line: bool = True          # the sheet has a line for a name the players give
    template: str | None = None
    stylesheets: list[str] | None = None
    layers: bool = False
    layout: dict[str, Any] = field(default_factory=dict)
    blank_template: str | None = None         # the blank sheet (default: the sheet's)
    blank_stylesheets: list[str] | None = None
    label: Expr | None = None
    class_tables: dict[str, str] = field(default_factory=dict)
    class_records: str | None = None
    class_name: Expr | None = None
    data: dict[str, Any] = field(default_factory=dict)
    per_class: dict[str, Record] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    json: Any = None
    reroll_while: list[Expr] = field(default_factory=list)
    index: list[tuple[str, Expr]] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    records: dict[str, Record] = field(default_factory=dict)   # class id → its record
    shapes: dict[str, Any] = field(default_factory=dict)  # step → what it can make (check)
    broken: list[str] = field(default_factory=list)   # steps not read (not reported again)

    @property
    def has_classes(self) -> bool:
        return bool(self.class_tables)
