"""A recipe's `checks:`: what its tables' cells must be, checked row by row when the recipe
loads, each bad cell reported at its own line of its table.

    checks:
      - {table: skills, column: stat, one_of: stat_names}     # a data: list, or a list
      - {table: per_class.kit, column: armour, in: armour.name}  # another table's column
      - {table: kit-basics, column: classes, in: classes}      # the class ids
      - {table: kit-basics, column: quantity, is: dice}        # a number or dice (3, 3d6)
      - {table: skills, column: skill, unique: true}           # no two rows alike

`table:` is a table id, a list of them, or `per_class.FIELD`: every table the classes'
data names there. A list cell (weapons: [Sword, Dagger]) is checked item by item; an empty
cell is not checked.
"""

from __future__ import annotations

from typing import Any

from printshop.dice import parse_dice
from printshop.roll.recipe.model import Check, Recipe
from printshop.roll.recipe.step_checks import class_ids

NO_VALUE = ("", "-", "—", "–")


def check_tables(check: Check, recipe: Recipe, tables: dict, reader) -> list[str]:
    found: list[str] = []
    for name in check.tables:
        if name.startswith("per_class."):
            path = name.split(".")[1:]
            for entry in recipe.per_class.values():
                value: Any = entry
                for part in path:
                    value = value.get(part) if isinstance(value, dict) else None
                if isinstance(value, str) and value not in found:
                    found.append(value)
        elif name not in found:
            found.append(name)
    ok = []
    for table_id in found:
        if table_id not in tables:
            reader.problem(check.where, f"check: no table '{table_id}' in tables/")
        else:
            ok.append(table_id)
    return ok


def run_checks(recipe: Recipe, tables: dict, records: dict, reader) -> None:
    for check in recipe.checks:
        table_ids = check_tables(check, recipe, tables, reader)
        allowed = _allowed(check, recipe, tables, records, reader)
        if allowed is False:
            continue
        for table_id in table_ids:
            table = tables[table_id]
            if check.column not in {c.key for c in table.columns}:
                reader.problem(check.where, f"check: tables/{table_id}.yaml has no column "
                               f"'{check.column}'")
                continue
            seen: dict = {}
            for row in table.rows:
                cell = row.values.get(check.column)
                for value in cell if isinstance(cell, list) else [cell]:
                    if value is None:
                        continue
                    message = _problem(check, value, allowed, seen, row.line)
                    if message:
                        reader.problems.add(table.path, f"{check.column} '{value}' {message}",
                                            row.line)


def _allowed(check: Check, recipe: Recipe, tables: dict, records: dict, reader):
    """What the cells may be: a list of values (one_of, in), or None (is, unique); False
    when the check itself is wrong (reported)."""
    argument = check.argument
    if check.rule == "one_of":
        if isinstance(argument, str) and argument in recipe.data:
            argument = recipe.data[argument]
        if not isinstance(argument, list):
            reader.problem(check.where, "one_of: a list of the values allowed, or the name "
                           "of one in data:")
            return False
        return [str(v) for v in argument]
    if check.rule == "in":
        text = str(argument)
        if text == "classes":
            return [str(c) for c in (list(records) or class_ids(recipe, tables))]
        table_id, _, column = text.partition(".")
        if table_id not in tables or column not in {c.key for c in tables[table_id].columns}:
            reader.problem(check.where, f"in: '{text}' should be TABLE.COLUMN of a table in "
                           "tables/ (or classes, the class ids)")
            return False
        return [str(r.values.get(column)) for r in tables[table_id].rows]
    if check.rule == "is" and argument not in ("dice", "number"):
        reader.problem(check.where, "is: dice (a number or dice like 3d6) or number")
        return False
    return None


def _problem(check: Check, value, allowed, seen: dict, line: int) -> str | None:
    text = str(value)
    if check.rule == "one_of" and text not in allowed:
        return f"is not one of {', '.join(allowed)}"
    if check.rule == "in" and text not in allowed:
        where = "a class id" if str(check.argument) == "classes" else \
            f"in tables/{str(check.argument).split('.')[0]}.yaml"
        return f"is not {where}"
    if check.rule == "is":
        stripped = text.strip()
        if stripped.lstrip("+-").isdigit():
            return None
        if check.argument == "number":
            return "is not a number"
        try:
            parse_dice(stripped)
        except ValueError:
            return "is neither a number nor dice (3, 3d6)"
    if check.rule == "unique":
        key = text.casefold()
        if key in seen:
            return f"is listed twice (also on line {seen[key]})"
        seen[key] = line
    return None
