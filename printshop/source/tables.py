"""Tables: one YAML file each, printed by the book and rolled on by the generators.

A dice table's rows are proven on load to cover every result of its dice exactly once. A
list too long for one die is split into parts: a first die (`part_die`) picks the part, the
table's `dice` the row within it (`parts: [1-2, 3-4, 5-6]`: a d6 for three parts of d100).
Results that say "roll again" (`reroll: 93-100`, in the last part) let a list whose length
is not the number of results give every row the same chance.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from printshop.dice import Dice, DiceRoll, parse_dice
from printshop.errors import PrintshopError, Problems
from printshop.source.schema import Strict, validate
from printshop.source.table_dice import Part, check_parts, parts_and_reroll, range_text
from printshop.source.table_rows import RESERVED_KEYS as RESERVED_KEYS
from printshop.source.table_rows import TABLE_ID_RE as TABLE_ID_RE
from printshop.source.table_rows import BadValue as BadValue
from printshop.source.table_rows import Row, build_row
from printshop.source.yamlfile import YamlDoc, load_yaml, read_text

if TYPE_CHECKING:
    from printshop.source.spreadsheets import SheetRowsDoc


class ColumnSpec(Strict):
    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    label: str
    type: Literal["text", "int", "signed", "number", "list", "dice"] = "text"
    print: bool = True
    optional: bool = False
    nowrap: bool = False   # keep each cell on one line ("1–8 ♥", "9–10")


class TableSpec(Strict):
    title: str = Field(min_length=1)
    description: str | None = None
    dice: str | None = None
    part_die: str | None = None          # rolled first: which part of the list
    parts: list[str | int] | None = None  # the part die's results for each part, in order
    reroll: str | int | None = None       # results of `dice` (last part) meaning "roll again"
    roll_label: str | None = None
    wide: bool | None = None
    # without columns, a spreadsheet's header row names them (each a text column)
    columns: list[ColumnSpec] | None = Field(default=None, min_length=1)
    # the rows themselves, or a spreadsheet (CSV, XLSX, ODS) next to this file
    rows: list[dict[str, Any]] | str = Field(min_length=1)
    sheet: str | None = None          # which sheet of a workbook (default: the first)
    header_row: int = Field(default=1, ge=1)   # the spreadsheet row naming the columns
    notes: list[str] = []


@dataclass
class Table:
    id: str
    path: Path
    title: str
    columns: list[ColumnSpec]
    rows: list[Row]
    description: str | None = None
    dice: Dice | None = None
    roll_label: str | None = None
    notes: list[str] = field(default_factory=list)
    wide: bool | None = None
    sources: list[Path] = field(default_factory=list)   # spreadsheets its rows came from
    part_die: Dice | None = None
    parts: list[Part] = field(default_factory=list)
    reroll: tuple[int, int] | None = None   # in the last part

    @property
    def dice_text(self) -> str | None:
        """How the table is rolled: `1d6`, or `d6, then d100` for a parted list."""
        if self.dice is None:
            return None
        if self.part_die is not None:
            return f"{self.part_die.text}, then {self.dice.text}"
        return self.dice.text

    @property
    def reroll_text(self) -> str:
        return range_text(self.reroll)

    @property
    def printed_columns(self) -> list[ColumnSpec]:
        return [c for c in self.columns if c.print]

    @property
    def is_wide(self) -> bool:
        if self.wide is not None:
            return self.wide
        return len(self.printed_columns) + (1 if self.dice else 0) >= 4

    def row_for(self, result: int, part: int | None = None) -> Row:
        """The row for `result` of the dice (in part `part` of a parted list)."""
        for row in self.rows:
            if row.part == part and row.roll and row.roll[0] <= result <= row.roll[1]:
                return row
        raise KeyError(f"table {self.id} has no row for {result}")

    def roll(self, rng: random.Random) -> tuple[DiceRoll, Row]:
        """Roll as a player would: the part die first (a parted list), then the dice, and
        again on a "roll again" result. Every row of such a list has the same chance, as in
        `pick`."""
        if self.dice is None:
            raise ValueError(f"table {self.id} has no dice")
        while True:
            part = None
            if self.part_die is not None:
                picked = self.part_die.roll(rng).total
                part = next(i for i, p in enumerate(self.parts)
                            if p.results[0] <= picked <= p.results[1])
            result = self.dice.roll(rng)
            last = part is None or part == len(self.parts) - 1
            if last and self.reroll and self.reroll[0] <= result.total <= self.reroll[1]:
                continue
            return result, self.row_for(result.total, part)

    def pick(self, rng: random.Random, exclude=()) -> Row:
        """One row, by weight (uniform without weights), skipping rows in `exclude`."""
        pool = [row for row in self.rows if row not in exclude and row.weight > 0]
        if not pool:
            raise ValueError(f"table {self.id} has no rows left to pick")
        total = sum(row.weight for row in pool)
        point = rng.randrange(total)
        for row in pool:
            point -= row.weight
            if point < 0:
                return row
        raise AssertionError("unreachable")

    def sample(self, rng: random.Random, count: int, exclude=()) -> list[Row]:
        """`count` different rows (fewer if the table runs out)."""
        chosen: list[Row] = []
        excluded = list(exclude)
        for _ in range(count):
            try:
                row = self.pick(rng, exclude=excluded + chosen)
            except ValueError:
                break
            chosen.append(row)
        return chosen

    def column(self, key: str) -> list[Any]:
        return [row.values.get(key) for row in self.rows]


# (file, table id) → (its text, its Table): the last table read from each file.
# `printshop serve` loads the project again for every save (the chapter alone, its HTML
# edition, the whole book), and parsing YAML with line numbers in pure Python is most of a
# load (0.2 s for the 70 tables of rules-src/); a file read again with the same text gives
# the same Table. Keyed by the text read, never by a date: an edit is always seen. One
# entry a file, so a long `serve` does not grow it. Tables are not changed once built.
_last_read: dict[tuple[str, str], tuple[str, Table]] = {}


def load_table(path: Path, table_id: str | None = None, root: Path | None = None) -> Table:
    """The table file `path`; `root` (default: its folder) is the folder a spreadsheet it
    takes its rows from must be inside (the project)."""
    path = Path(path)
    table_id = table_id or path.stem
    text = read_text(path)     # recorded as read, whether parsed now or before
    key = (str(path), table_id)
    known = _last_read.get(key)
    if known is not None and known[0] == text and not known[1].sources:
        return known[1]
    doc = load_yaml(path, text=text, keep_going=True)
    if not isinstance(doc.data, dict):
        raise PrintshopError.at(path, "a table file is a mapping with title, columns and rows", 1)
    spec = validate(doc, TableSpec)
    table = table_from_spec(table_id, spec, doc, root=root or path.parent)
    _last_read[key] = (text, table)
    return table


def table_from_spec(table_id: str, spec: TableSpec, doc: YamlDoc, base: tuple = (),
                    root: Path | None = None) -> Table:
    """`build_table`, with rows from a spreadsheet when `spec.rows` names one (a path
    relative to the YAML file, inside `root`)."""
    sources: list[Path] = []
    problems = Problems()
    if isinstance(spec.rows, str):
        from printshop.source.spreadsheets import rows_from_spreadsheet

        spec, sheet_doc, sources = rows_from_spreadsheet(spec, doc, base,
                                                         root or doc.path.parent)
        table = build_table(table_id, spec, sheet_doc, base)
        table.sources = sources
        return table
    if spec.sheet is not None or spec.header_row != 1:
        key = "sheet" if spec.sheet is not None else "header_row"
        problems.at(doc.where(base + (key,)),
                    f"'{key}' goes with rows from a spreadsheet (rows: cards.xlsx)")
    elif spec.columns is None:
        problems.at(doc.where(base + ("rows",)), "rows need 'columns' (as in a table file)")
    problems.raise_if_any()
    table = build_table(table_id, spec, doc, base)
    table.sources = sources
    return table


def build_table(table_id: str, spec: TableSpec, doc: YamlDoc | SheetRowsDoc,
                base: tuple = ()) -> Table:
    """`doc` is where the table was written: a YamlDoc, or a spreadsheet's rows under their
    YAML (`where(loc)` names the file, line and column of any part)."""
    problems = Problems()
    path = doc.path
    if not TABLE_ID_RE.match(table_id):
        problems.add(path, f"table id '{table_id}' must be lower-case letters, digits and '-'")
    dice = None
    if spec.dice is not None:
        try:
            dice = parse_dice(spec.dice)
        except ValueError as exc:
            problems.at(doc.where(base + ("dice",)), f"dice: {exc}")
    seen_keys: dict[str, int] = {}
    declared = spec.columns or []   # (a table's columns are checked given by now)
    for i, column in enumerate(declared):
        where = doc.where(base + ("columns", i))
        if column.key in seen_keys:
            problems.at(where, f"column '{column.key}' is declared twice")
        if column.key in RESERVED_KEYS:
            problems.at(where, f"'{column.key}' is reserved for rows, not a column name")
        seen_keys[column.key] = i
    columns = {c.key: c for c in declared}
    rows: list[Row] = []
    for index, raw in enumerate(spec.rows):
        loc = base + ("rows", index)
        row = build_row(raw, loc, columns, dice is not None or spec.dice is not None, doc,
                         problems)
        if row is not None:
            rows.append(row)
    before = len(problems.items)
    part_die, parts, reroll = parts_and_reroll(spec, dice, doc, base, problems)
    if dice is not None and len(rows) == len(spec.rows) and len(problems.items) == before:
        rows = check_parts(dice, part_die, parts, reroll, rows, doc, base, problems)
    if spec.dice is None and rows and sum(r.weight for r in rows) <= 0:
        where = doc.where(base + ("rows",))
        problems.add(where[0], "rows: the weights add up to zero, nothing could ever be "
                     "picked", where[1])
    problems.raise_if_any()
    return Table(id=table_id, path=path, title=spec.title, columns=list(declared),
                 rows=rows, description=spec.description, dice=dice,
                 roll_label=spec.roll_label, notes=list(spec.notes), wide=spec.wide,
                 part_die=part_die, parts=parts, reroll=reroll)


def row_name(row: Row) -> str:
    """How a message names another row: "the row on line 12", or "row 12" of a sheet."""
    return f"row {row.line}" if row.path else f"the row on line {row.line}"


def load_tables(folder: Path, root: Path | None = None,
                keep: Problems | None = None) -> dict[str, Table]:
    """Every `*.yaml` table in `folder` (special data files excluded), problems together:
    raised, or with `keep` added to it and the tables that loaded returned."""
    tables: dict[str, Table] = {}
    problems = Problems()
    if not folder.is_dir():
        return tables
    for path in sorted(folder.glob("*.yaml")):
        if path.stem in SPECIAL_FILES:
            continue
        try:
            tables[path.stem] = load_table(path, root=root)
        except PrintshopError as exc:
            problems.extend(exc)
    for table in tables.values():
        for row in table.rows:
            if row.then and row.then not in tables:
                problems.add(row.path or table.path, f"then: no table '{row.then}' in "
                             f"{folder.name}/", row.line)
    if keep is not None:
        keep.items.extend(problems.items)
        return tables
    problems.raise_if_any()
    return tables


SPECIAL_FILES = {"classes"}
