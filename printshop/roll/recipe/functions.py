"""The functions a recipe's expressions may call. Each takes the roll's context first (the
project's tables, the character's generator), then the expression's arguments.

`ARITY` says how many arguments each takes (checked when the recipe loads); `TABLE_ARGUMENT`
which functions name a table first (checked against tables/ when the recipe loads), and
`RANDOM` the one that throws dice.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from printshop.dice import parse_dice
from printshop.roll.recipe.evaluate import EvalError
from printshop.roll.recipe.values import Record, describe

_NUMBER_RE = re.compile(r"^\s*(\d+)\s+(.+)$")
_PERCENT_RE = re.compile(r"^\s*(\d{1,3})\s*%\s*$")
NO_VALUE = ("", "-", "—", "–")


class Context:
    """What functions need from the roll: the tables, a row cache and the generator."""

    def __init__(self, tables: dict, rng=None):
        self.tables = tables
        self.rng = rng
        self._rows: dict[str, list[Record]] = {}
        self._tables: dict = {}   # read once each (the project records what is read)
        self.pack_seed: str = ""     # the pack and the character being rolled (for picks
        self.index: int = 1          # that do not repeat across the pack)
        self.recipe_id: str = ""
        self._orders: dict = {}

    def pack_order(self, step, table_id: str, usable: list[int], cycle: int) -> list[int]:
        """The pack's order of a table's rows for one time round it: shuffled from the pack
        seed, the recipe, the step and the round alone (kept: every character of a pack
        reads the same orders)."""
        key = (self.pack_seed, step.name, table_id, cycle)
        order = self._orders.get(key)
        if order is None:
            from printshop.dice import item_rng

            rng = item_rng(self.pack_seed, f"pack/{self.recipe_id}/{step.name}/{table_id}",
                           cycle)
            order = list(usable)
            for i in range(len(order) - 1, 0, -1):
                j = rng.randrange(i + 1)
                order[i], order[j] = order[j], order[i]
            if len(self._orders) > 256:
                self._orders.clear()
            self._orders[key] = order
        return order

    def table(self, table_id):
        table = self._tables.get(table_id)
        if table is None:
            table = self.tables.get(table_id) if isinstance(table_id, str) else None
            if table is None:
                raise EvalError(f"no table '{table_id}' in tables/")
            self._tables[table_id] = table
        return table

    def rows(self, table_id) -> list[Record]:
        rows = self._rows.get(table_id)
        if rows is None:
            table = self.table(table_id)
            rows = [row_record(table, row) for row in table.rows]
            self._rows[table_id] = rows
        return rows


def row_record(table, row, rolls=()) -> Record:
    """A table's row as a record: every column (none where an optional one is empty)."""
    return Record({c.key: row.values.get(c.key) for c in table.columns}, table=table.id,
                  line=row.line, rolls=tuple(rolls))


def _number(value, what: str):
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise EvalError(f"{what} needs a number, not {describe(value)}")
    return value


def _list(value, what: str) -> list:
    if value is None:
        return []
    if isinstance(value, dict):
        return list(value.values())
    if not isinstance(value, (list, tuple)):
        raise EvalError(f"{what} needs a list, not {describe(value)}")
    return list(value)


def _extreme(pick, name):
    def extreme(ctx, *args):
        items = _list(args[0], f"{name}()") if len(args) == 1 else list(args)
        if not items:
            raise EvalError(f"{name}() of an empty list")
        return pick(_number(i, f"{name}()") for i in items)
    return extreme


def _best_key(pick):
    def best(ctx, record):
        if not isinstance(record, dict) or not record:
            raise EvalError(f"needs a record of numbers, not {describe(record)}")
        top = None
        for key, value in record.items():       # the first of equals wins
            if top is None or pick(_number(value, "a record's value"), record[top]):
                top = key
        return top
    return best


def _int(ctx, value):
    if isinstance(value, str):
        text = value.strip().replace("−", "-")
        if not re.fullmatch(r"[+-]?\d+", text):
            raise EvalError(f"int(): '{value}' is not a whole number")
        return int(text)
    return int(math.floor(_number(value, "int()")))


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, Fraction):
        return str(int(value)) if value.denominator == 1 else str(float(value))
    return str(value)


def _row(ctx, table_id, column, value):
    found = _find(ctx, table_id, column, value)
    if found is None:
        raise EvalError(f"no row of tables/{table_id}.yaml has {column} '{value}'")
    return found


def _find(ctx, table_id, column, value):
    table = ctx.table(table_id)
    _need_column(table, column)
    for record in ctx.rows(table_id):
        if record[column] == value:
            return record
    return None


def _need_column(table, column) -> None:
    if column not in {c.key for c in table.columns}:
        raise EvalError(f"tables/{table.id}.yaml has no column '{column}' (columns: "
                        f"{', '.join(c.key for c in table.columns)})")


def _index(ctx, table_id, column):
    table = ctx.table(table_id)
    _need_column(table, column)
    out = Record()
    for record in ctx.rows(table_id):
        out.setdefault(record[column], record)
    return out


def _lookup(ctx, table_id, value):
    """The row of a dice table whose roll range holds `value` (a score, a total)."""
    table = ctx.table(table_id)
    value = _number(value, "lookup()")
    for row, record in zip(table.rows, ctx.rows(table_id)):
        if row.roll and row.roll[0] <= value <= row.roll[1]:
            return record
    raise EvalError(f"tables/{table_id}.yaml has no row for {value}")


def _roll(ctx, text):
    """A number ("3") as it is, or dice ("3d6") thrown."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    source = str(text).strip()
    if source.isdigit():
        return int(source)
    try:
        dice = parse_dice(source)
    except ValueError as exc:
        raise EvalError(f"roll(): {exc}") from None
    return dice.roll(ctx.rng).total


def _dice_bound(high: bool):
    def bound(ctx, text):
        try:
            outcomes = parse_dice(text).outcomes()
        except ValueError as exc:
            raise EvalError(str(exc)) from None
        return outcomes[-1] if high else outcomes[0]
    return bound


def _percent(ctx, text):
    """"25%" → 25; a dash or nothing → 0; anything else ("Not allowed") → none."""
    if text is None or str(text).strip() in NO_VALUE:
        return 0
    match = _PERCENT_RE.match(str(text))
    return int(match[1]) if match else None


def _number_in(ctx, text):
    match = _NUMBER_RE.match(_text(text))
    return int(match[1]) if match else None


def _without_number(ctx, text):
    match = _NUMBER_RE.match(_text(text))
    return match[2] if match else _text(text)


def _capitalize(ctx, text):
    text = _text(text)
    return text[:1].upper() + text[1:]


def _unique(ctx, items):
    out = []
    for item in _list(items, "unique()"):
        if item not in out:
            out.append(item)
    return out


def _get(ctx, record, key, default=None):
    if isinstance(record, dict):
        return record.get(key, default)
    return default


def _column(ctx, table_id, column):
    _need_column(ctx.table(table_id), column)
    return [r[column] for r in ctx.rows(table_id)]


def _join(ctx, items, separator=", "):
    return str(separator).join(_text(i) for i in _list(items, "join()"))


FUNCTIONS = {
    "max": _extreme(max, "max"),
    "min": _extreme(min, "min"),
    "sum": lambda ctx, items: sum(_number(i, "sum()") for i in _list(items, "sum()")),
    "len": lambda ctx, items: len(items) if isinstance(items, str) else len(
        _list(items, "len()")),
    "abs": lambda ctx, n: abs(_number(n, "abs()")),
    "floor": lambda ctx, n: math.floor(_number(n, "floor()")),
    "ceil": lambda ctx, n: math.ceil(_number(n, "ceil()")),
    "int": _int,
    "str": lambda ctx, value: _text(value),
    "count": lambda ctx, items, value: _list(items, "count()").count(value),
    "all": lambda ctx, items: all(_list(items, "all()")),
    "any": lambda ctx, items: any(_list(items, "any()")),
    "keys": lambda ctx, record: list(record) if isinstance(record, dict) else [],
    "values": lambda ctx, record: list(record.values()) if isinstance(record, dict) else [],
    "highest": _best_key(lambda a, b: a > b),
    "lowest": _best_key(lambda a, b: a < b),
    "sorted": lambda ctx, items: sorted(_list(items, "sorted()")),
    "unique": _unique,
    "first": lambda ctx, items: (_list(items, "first()") or [None])[0],
    "last": lambda ctx, items: (_list(items, "last()") or [None])[-1],
    "join": _join,
    "lower": lambda ctx, text: _text(text).lower(),
    "upper": lambda ctx, text: _text(text).upper(),
    "capitalize": _capitalize,
    "number_in": _number_in,
    "without_number": _without_number,
    "percent": _percent,
    "dice_max": _dice_bound(True),
    "dice_min": _dice_bound(False),
    "get": _get,
    "rows": lambda ctx, table_id: list(ctx.rows(table_id)),
    "row": _row,
    "find": _find,
    "index": _index,
    "lookup": _lookup,
    "column": _column,
    "table_title": lambda ctx, table_id: ctx.table(table_id).title,
    "roll": _roll,
}

# (fewest, most) arguments; None: any number
ARITY = {"max": (1, None), "min": (1, None), "sum": (1, 1), "len": (1, 1), "abs": (1, 1),
         "floor": (1, 1), "ceil": (1, 1), "int": (1, 1), "str": (1, 1), "count": (2, 2),
         "all": (1, 1), "any": (1, 1), "keys": (1, 1), "values": (1, 1), "highest": (1, 1),
         "lowest": (1, 1), "sorted": (1, 1), "unique": (1, 1), "first": (1, 1),
         "last": (1, 1), "join": (1, 2), "lower": (1, 1), "upper": (1, 1),
         "capitalize": (1, 1), "number_in": (1, 1), "without_number": (1, 1),
         "percent": (1, 1), "dice_max": (1, 1), "dice_min": (1, 1), "get": (2, 3),
         "rows": (1, 1), "row": (3, 3), "find": (3, 3), "index": (2, 2), "lookup": (2, 2),
         "column": (2, 2), "table_title": (1, 1), "roll": (1, 1)}
TABLE_ARGUMENT = {"rows", "row", "find", "index", "lookup", "column", "table_title"}
COLUMN_ARGUMENT = {"row", "find", "index", "column"}   # the second argument is a column
RANDOM = {"roll"}
