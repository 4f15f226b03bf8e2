"""Tables: one YAML file each, printed by the book and rolled on by the generators.

A dice table's rows are proven on load to cover every result of its dice exactly once. A
list too long for one die is split into parts: a first die (`part_die`) picks the part, the
table's `dice` the row within it (`parts: [1-2, 3-4, 5-6]`: a d6 for three parts of d100).
Results that say "roll again" (`reroll: 93-100`, in the last part) let a list whose length
is not the number of results give every row the same chance.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from printshop.dice import Dice, DiceRoll, parse_dice
from printshop.errors import PrintshopError, Problems
from printshop.source.schema import Strict, validate
from printshop.source.table_dice import RANGE_RE as _RANGE_RE
from printshop.source.table_dice import Part, check_parts, parts_and_reroll, range_text
from printshop.source.yamlfile import YamlDoc, load_yaml, read_text

TABLE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
RESERVED_KEYS = {"roll", "then", "weight"}


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
    columns: list[ColumnSpec] = Field(min_length=1)
    rows: list[dict[str, Any]] = Field(min_length=1)
    notes: list[str] = []


@dataclass(frozen=True)
class Row:
    values: dict[str, Any]
    line: int
    roll: tuple[int, int] | None = None
    then: str | None = None
    weight: int = 1
    part: int | None = None   # which part of a parted list (0-based), None without parts

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    @property
    def roll_text(self) -> str:
        return range_text(self.roll)


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


def load_table(path: Path, table_id: str | None = None) -> Table:
    path = Path(path)
    table_id = table_id or path.stem
    text = read_text(path)     # recorded as read, whether parsed now or before
    key = (str(path), table_id)
    known = _last_read.get(key)
    if known is not None and known[0] == text:
        return known[1]
    doc = load_yaml(path, text=text, keep_going=True)
    if not isinstance(doc.data, dict):
        raise PrintshopError.at(path, "a table file is a mapping with title, columns and rows", 1)
    spec = validate(doc, TableSpec)
    table = build_table(table_id, spec, doc)
    _last_read[key] = (text, table)
    return table


def build_table(table_id: str, spec: TableSpec, doc: YamlDoc, base: tuple = ()) -> Table:
    problems = Problems()
    path = doc.path
    if not TABLE_ID_RE.match(table_id):
        problems.add(path, f"table id '{table_id}' must be lower-case letters, digits and '-'")
    dice = None
    if spec.dice is not None:
        try:
            dice = parse_dice(spec.dice)
        except ValueError as exc:
            pos = doc.pos(base + ("dice",))
            problems.add(path, f"dice: {exc}", pos.line, pos.column)
    seen_keys: dict[str, int] = {}
    for i, column in enumerate(spec.columns):
        pos = doc.pos(base + ("columns", i))
        if column.key in seen_keys:
            problems.add(path, f"column '{column.key}' is declared twice", pos.line, pos.column)
        if column.key in RESERVED_KEYS:
            problems.add(path, f"'{column.key}' is reserved for rows, not a column name",
                         pos.line, pos.column)
        seen_keys[column.key] = i
    columns = {c.key: c for c in spec.columns}
    rows: list[Row] = []
    for index, raw in enumerate(spec.rows):
        loc = base + ("rows", index)
        row = _build_row(raw, loc, columns, dice is not None or spec.dice is not None, doc,
                         problems)
        if row is not None:
            rows.append(row)
    before = len(problems.items)
    part_die, parts, reroll = parts_and_reroll(spec, dice, doc, base, problems)
    if dice is not None and len(rows) == len(spec.rows) and len(problems.items) == before:
        rows = check_parts(dice, part_die, parts, reroll, rows, doc, base, problems)
    if spec.dice is None and rows and sum(r.weight for r in rows) <= 0:
        problems.add(path, "rows: the weights add up to zero, nothing could ever be picked",
                     doc.pos(base + ("rows",)).line)
    problems.raise_if_any()
    return Table(id=table_id, path=path, title=spec.title, columns=list(spec.columns),
                 rows=rows, description=spec.description, dice=dice,
                 roll_label=spec.roll_label, notes=list(spec.notes), wide=spec.wide,
                 part_die=part_die, parts=parts, reroll=reroll)


def _build_row(raw, loc, columns, has_dice, doc, problems) -> Row | None:
    path = doc.path
    pos = doc.pos(loc)
    if not isinstance(raw, dict):
        problems.add(path, "a row is a mapping of column: value", pos.line, pos.column)
        return None
    ok = True
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key in RESERVED_KEYS:
            continue
        if key not in columns:
            kpos = doc.pos(loc + (key,), key=True)
            hint = ", ".join(columns)
            problems.add(path, f"{_field(loc, key)}: unknown column '{key}' (columns are: "
                         f"{hint})", kpos.line, kpos.column)
            ok = False
            continue
        try:
            values[key] = _convert(value, columns[key])
        except ValueError as exc:
            vpos = doc.pos(loc + (key,))
            problems.add(path, f"{_field(loc, key)}: {exc}", vpos.line, vpos.column)
            ok = False
    for key, column in columns.items():
        if key not in raw and not column.optional:
            problems.add(path, f"{_field(loc)}: row is missing column '{key}'", pos.line,
                         pos.column)
            ok = False
    roll = None
    if has_dice:
        if "roll" not in raw or raw["roll"] is None:
            problems.add(path, "row is missing 'roll' (this is a dice table)", pos.line,
                         pos.column)
            ok = False
        else:
            match = _RANGE_RE.match(str(raw["roll"]))
            rpos = doc.pos(loc + ("roll",))
            if not match:
                problems.add(path, f"roll: '{raw['roll']}' is not a number or a range like "
                             "3-5", rpos.line, rpos.column)
                ok = False
            else:
                low = int(match[1])
                high = int(match[2]) if match[2] is not None else low
                if high < low:
                    problems.add(path, f"roll: range {low}-{high} runs backwards", rpos.line,
                                 rpos.column)
                    ok = False
                roll = (low, high)
    elif "roll" in raw:
        rpos = doc.pos(loc + ("roll",), key=True)
        problems.add(path, "'roll' given but the table has no dice", rpos.line, rpos.column)
        ok = False
    then = raw.get("then")
    if then is not None and not (isinstance(then, str) and TABLE_ID_RE.match(then)):
        tpos = doc.pos(loc + ("then",))
        problems.add(path, "then: expected a table id", tpos.line, tpos.column)
        ok = False
    weight = 1
    if "weight" in raw:
        try:
            weight = int(str(raw["weight"]))
            if weight < 0:
                raise ValueError
        except ValueError:
            wpos = doc.pos(loc + ("weight",))
            problems.add(path, f"weight: expected a whole number ≥ 0, got '{raw['weight']}'",
                         wpos.line, wpos.column)
            ok = False
    if not ok:
        return None
    return Row(values=values, line=pos.line, roll=roll, then=then, weight=weight)


def _field(loc: tuple, key: str | None = None) -> str:
    """rows[3].bonus: where in the file, as a reader of the YAML would say it."""
    text = ".".join(str(p) for p in loc[:-2]) + ("." if loc[:-2] else "")
    text += f"{loc[-2]}[{loc[-1]}]"
    return f"{text}.{key}" if key else text


def _convert(value: Any, column: ColumnSpec) -> Any:
    if column.type == "list":
        if isinstance(value, str):
            return [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError("expected a list of words")
        return value
    if value is None:
        if column.optional:
            return None
        raise ValueError("has no value")
    if not isinstance(value, str):
        raise ValueError(f"expected a single value, got a {'list' if isinstance(value, list) else 'mapping'}")
    if column.type in ("int", "signed"):
        text = value.strip().replace("−", "-")
        if not re.fullmatch(r"[+-]?\d+", text):
            raise ValueError(f"expected a whole number, got '{value}'")
        return int(text)
    if column.type == "number":
        try:
            return float(value.strip())
        except ValueError:
            raise ValueError(f"expected a number, got '{value}'") from None
    if column.type == "dice":
        parse_dice(value)
        return value.strip()
    return value


def load_tables(folder: Path) -> dict[str, Table]:
    """Every `*.yaml` table in `folder` (special data files excluded), problems together."""
    tables: dict[str, Table] = {}
    problems = Problems()
    if not folder.is_dir():
        return tables
    for path in sorted(folder.glob("*.yaml")):
        if path.stem in SPECIAL_FILES:
            continue
        try:
            tables[path.stem] = load_table(path)
        except PrintshopError as exc:
            problems.extend(exc)
    for table in tables.values():
        for row in table.rows:
            if row.then and row.then not in tables:
                problems.add(table.path, f"then: no table '{row.then}' in {folder.name}/",
                             row.line)
    problems.raise_if_any()
    return tables


SPECIAL_FILES = {"classes"}
