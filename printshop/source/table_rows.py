"""A table's rows (tables.py): each read and checked at its place in the YAML file or the
spreadsheet it came from: its values converted to its columns' types, its roll range,
weight, copies and the table it sends the roller on to (`then`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from printshop.dice import parse_dice
from printshop.errors import Problems
from printshop.source.table_dice import RANGE_RE as _RANGE_RE
from printshop.source.table_dice import range_text

if TYPE_CHECKING:
    from printshop.source.tables import ColumnSpec

TABLE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
RESERVED_KEYS = {"roll", "then", "weight", "copies"}



class BadValue:
    """A value that could not be read (a spreadsheet cell that became a date): the row is
    refused and `message` is reported at the value's place."""

    def __init__(self, message: str):
        self.message = message


@dataclass(frozen=True)
class Row:
    values: dict[str, Any]
    line: int
    roll: tuple[int, int] | None = None
    then: str | None = None
    weight: int = 1
    copies: int = 1              # a deck dealt by rows deals this many cards of the row
    path: str | None = None      # where the row is, when not in its table's file (a
                                 # spreadsheet: "decks/events.xlsx", `line` its row)
    part: int | None = None   # which part of a parted list (0-based), None without parts

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    @property
    def roll_text(self) -> str:
        return range_text(self.roll)


def build_row(raw, loc, columns: dict[str, ColumnSpec], has_dice: bool, doc,
              problems: Problems) -> Row | None:
    """One row of a table read and checked (each problem added to `problems` at its place):
    its values converted to its columns' types, its roll range, weight, copies and `then`;
    None if it has a problem."""
    where = doc.where(loc)
    if not isinstance(raw, dict):
        problems.at(where, "a row is a mapping of column: value")
        return None
    ok = True
    values: dict[str, Any] = {}
    in_sheet = where[0] != doc.path     # a spreadsheet's cell is named by its place alone

    def _field(loc, key=None):
        return (key or "row") if in_sheet else _yaml_field(loc, key)

    for key, value in raw.items():
        if isinstance(value, BadValue):   # already unreadable: say why, at its place
            problems.at(doc.where(loc + (key,)), value.message)
            ok = False
            continue
        if key in RESERVED_KEYS:
            continue
        if key not in columns:
            hint = ", ".join(columns)
            problems.at(doc.where(loc + (key,), key=True),
                        f"{_field(loc, key)}: unknown column '{key}' (columns are: {hint})")
            ok = False
            continue
        try:
            values[key] = _convert(value, columns[key])
        except ValueError as exc:
            problems.at(doc.where(loc + (key,)), f"{_field(loc, key)}: {exc}")
            ok = False
    for key, column in columns.items():
        if key not in raw and not column.optional:
            problems.at(where, f"{_field(loc)}: row is missing column '{key}'")
            ok = False
    roll = None
    if any(isinstance(raw.get(key), BadValue) for key in RESERVED_KEYS):
        return None                       # reported above, at its cell
    if has_dice:
        if "roll" not in raw or raw["roll"] is None:
            problems.at(doc.where(loc + ("roll",)) if "roll" in raw else where,
                        "row is missing 'roll' (this is a dice table)")
            ok = False
        else:
            match = _RANGE_RE.match(str(raw["roll"]))
            rwhere = doc.where(loc + ("roll",))
            if not match:
                problems.at(rwhere, f"roll: '{raw['roll']}' is not a number or a range like "
                            "3-5")
                ok = False
            else:
                low = int(match[1])
                high = int(match[2]) if match[2] is not None else low
                if high < low:
                    problems.at(rwhere, f"roll: range {low}-{high} runs backwards")
                    ok = False
                roll = (low, high)
    elif raw.get("roll") is not None:
        problems.at(doc.where(loc + ("roll",), key=True),
                    "'roll' given but the table has no dice")
        ok = False
    then = raw.get("then")
    if then is not None and not (isinstance(then, str) and TABLE_ID_RE.match(then)):
        problems.at(doc.where(loc + ("then",)), "then: expected a table id")
        ok = False
    counts = {}
    for key in ("weight", "copies"):
        counts[key] = 1
        if raw.get(key) is not None:
            try:
                counts[key] = int(str(raw[key]))
                if counts[key] < 0:
                    raise ValueError
            except ValueError:
                problems.at(doc.where(loc + (key,)),
                            f"{key}: expected a whole number ≥ 0, got '{raw[key]}'")
                ok = False
    if not ok:
        return None
    path, line, _ = where
    return Row(values=values, line=line, roll=roll, then=then, weight=counts["weight"],
               copies=counts["copies"], path=None if path == doc.path else str(path))


def _yaml_field(loc: tuple, key: str | None = None) -> str:
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
        kind = "list" if isinstance(value, list) else "mapping"
        raise ValueError(f"expected a single value, got a {kind}")
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
