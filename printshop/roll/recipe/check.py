"""Checking a recipe when it loads: every name it reads is made by an earlier step (or is the
recipe's data, the class, …), every table and column it names exists, and the numbers it
looks up can find a row. Each expression is worked out on what its values can be
(`abstract.py`) with the project's tables in hand; a problem is reported at its line with
what would fix it, and every problem of the recipe comes out in one run.
"""

from __future__ import annotations

import difflib
from typing import Any

from printshop.roll.recipe import abstract as A
from printshop.roll.recipe.abstract import ANY, Abs, Choice, Known, ListOf, Rec, Rows, Span
from printshop.roll.recipe.evaluate import CTX, EvalError, _index, compile_node, get_attribute
from printshop.roll.recipe.expr import Node
from printshop.roll.recipe.functions import (
    COLUMN_ARGUMENT,
    FUNCTIONS,
    RANDOM,
    TABLE_ARGUMENT,
    Context,
)


class ExprChecker:
    """Works out what an expression can be, reporting what it names wrongly."""

    def __init__(self, tables: dict, report):
        self.tables = tables
        self.report = report           # (where, message, offset)
        self.context = Context(tables)
        self.column_values: dict[tuple, Abs] = {}

    def check(self, expr, scope: dict) -> Abs:
        if expr is None:
            return ANY
        return self.node(expr.node, scope, expr.where)

    # --- tables ------------------------------------------------------------------------------
    def table_known(self, table_id, where, offset: int = 0) -> bool:
        if table_id in self.tables:
            return True
        close = difflib.get_close_matches(str(table_id), list(self.tables), n=1)
        hint = f"did you mean '{close[0]}'?" if close else "add tables/" + \
            f"{table_id}.yaml or fix the name"
        self.report(where, f"no table '{table_id}' in tables/ ({hint})", offset)
        return False

    def column_known(self, table_id, column, where, offset: int = 0) -> bool:
        table = self.tables[table_id]
        keys = [c.key for c in table.columns]
        if column in keys:
            return True
        close = difflib.get_close_matches(str(column), keys, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        self.report(where, f"tables/{table_id}.yaml has no column '{column}' ({hint}its "
                    f"columns: {', '.join(keys)})", offset)
        return False

    def column(self, table_id: str, column: str) -> Abs:
        """What a column's cells can be."""
        key = (table_id, column)
        if key not in self.column_values:
            cells = [row.values.get(column) for row in self.tables[table_id].rows]
            if any(isinstance(c, list) for c in cells):
                items = [i for c in cells if isinstance(c, list) for i in c]
                value = A.join(ListOf(A.choice(items) if items else ANY),
                               Known(None)) if None in cells else \
                    ListOf(A.choice(items) if items else ANY)
            else:
                value = A.choice(cells)
            self.column_values[key] = value
        return self.column_values[key]

    def rows_attr(self, value: Rows, name: str, where, offset: int) -> Abs:
        if name in ("roll", "rolls"):
            return ANY
        results = []
        for table_id in value.tables:
            if self.column_known(table_id, name, where, offset):
                results.append(self.column(table_id, name))
        return A.join_all(results) if results else ANY

    # --- expressions -------------------------------------------------------------------------
    def node(self, node: Node, scope: dict, where) -> Abs:
        kind = node.kind
        if kind == "const":
            return Known(node.value)
        if kind == "name":
            if node.value in scope:
                return scope[node.value]
            names = [n for n in scope if not n.startswith("\x00")]
            close = difflib.get_close_matches(node.value, names, n=1)
            hint = f"did you mean '{close[0]}'?" if close else \
                "a step must make it before it is read"
            self.report(where, f"no value '{node.value}' here ({hint})", node.offset)
            return ANY
        args = node.args
        if kind == "attr":
            return self.attr(self.node(args[0], scope, where), node.value, where, node.offset)
        if kind == "index":
            return self.index(self.node(args[0], scope, where),
                              self.node(args[1], scope, where), where, node.offset)
        if kind == "call":
            return self.call(node, [self.node(a, scope, where) for a in args], where)
        if kind in ("listcomp", "recordcomp"):
            return self.comprehension(node, scope, where)
        if kind == "if":
            condition = self.node(args[0], scope, where)
            if isinstance(condition, Known):    # only the branch taken is ever read
                return self.node(args[1] if condition.value else args[2], scope, where)
            return A.join(self.node(args[1], scope, where), self.node(args[2], scope, where))
        values = [self.node(a, scope, where) for a in args]
        if kind in ("and", "or") and not all(isinstance(v, Known) for v in values):
            return A.join(values[0], values[1])    # either side may be the value
        if kind == "list":
            known = [v for v in values if isinstance(v, Known)]
            if len(known) == len(values):
                return Known([v.value for v in known])
            return ListOf(A.join_all(values))
        if kind == "record":
            return Rec(dict(zip(node.extra, values)))
        if all(isinstance(v, Known) for v in values):
            return self.concrete(node, values, where)
        if kind == "binary" and node.value in ("+", "-", "*", "//"):
            return A.arithmetic(node.value, values[0], values[1])
        if kind == "unary":
            return A.arithmetic("-", Known(0), values[0]) if node.value == "-" else values[0]
        return ANY

    def concrete(self, node: Node, values: list, where) -> Abs:
        """Every part known: work it out exactly as a roll would."""
        copy = Node(node.kind, node.offset, node.value,
                    [Node("const", a.offset, value=v.value) for a, v in zip(node.args, values)],
                    node.extra)
        try:
            return Known(compile_node(copy, FUNCTIONS)({CTX: self.context}))
        except EvalError as exc:
            self.report(where, exc.message, exc.offset)
            return ANY

    def attr(self, value: Abs, name: str, where, offset: int) -> Abs:
        if isinstance(value, Known):
            if value.value is None:
                return Known(None)
            try:
                return Known(get_attribute(value.value, name, offset))
            except EvalError as exc:
                self.report(where, exc.message, offset)
                return ANY
        if isinstance(value, Choice):
            results: list[Abs] = []
            for option in value.options:
                if option is None:
                    results.append(Known(None))
                elif isinstance(option, dict):
                    results.append(Known(option.get(name)))
                else:
                    results.append(self.attr(Known(option), name, where, offset))
            return A.join_all(results)
        if isinstance(value, Rows):
            return self.rows_attr(value, name, where, offset)
        if isinstance(value, Rec):
            if name in value.fields:
                return value.fields[name]
            if value.closed:
                self.report(where, f"no '{name}' here (it has "
                            f"{', '.join(value.fields) or 'nothing'})", offset)
            return ANY
        return ANY

    def index(self, value: Abs, key: Abs, where, offset: int) -> Abs:
        keys = A.options_of(key)
        if isinstance(value, Rec):
            if keys is not None and all(isinstance(k, str) for k in keys):
                found = [value.fields[k] for k in keys if k in value.fields]
                missing = [k for k in keys if k not in value.fields]
                if missing and value.closed and not found:
                    self.report(where, f"no '{missing[0]}' here (it has "
                                f"{', '.join(value.fields)})", offset)
                return A.join_all(found) if found else ANY
            return A.join_all(list(value.fields.values()))
        if isinstance(value, Known) and keys is not None:
            results = []
            for k in keys:
                try:
                    results.append(Known(_index(_constant(value.value), _constant(k),
                                                offset)({})))
                except EvalError as exc:
                    self.report(where, exc.message, offset)
                    return ANY
            return A.join_all(results)
        if isinstance(value, ListOf):
            return A.join(value.element, Known(None))
        return ANY

    def call(self, node: Node, values: list[Abs], where) -> Abs:
        name = node.value
        if name in TABLE_ARGUMENT and values:
            tables = A.options_of(values[0])
            if tables is not None:
                tables = [t for t in tables if t is not None]
                ok = [t for t in tables if self.table_known(t, where, node.args[0].offset)]
                if len(ok) < len(tables):
                    return ANY
                if name in COLUMN_ARGUMENT and len(values) > 1:
                    columns = A.options_of(values[1])
                    for t in tables:
                        for c in columns or []:
                            if not self.column_known(t, c, where, node.args[1].offset):
                                return ANY
                if name == "lookup":
                    for t in tables:
                        self.lookup_range(t, values[1], where, node.args[1].offset)
        if name not in RANDOM and all(isinstance(v, Known) for v in values):
            return self.concrete(node, values, where)
        if name not in RANDOM and name not in TABLE_ARGUMENT:
            combined = self.each_option(node, values, where)
            if combined is not None:
                return combined
        tables = [t for t in A.options_of(values[0]) or () if t is not None] if values \
            else None
        if name in ("row", "find", "lookup") and tables:
            return Rows(tuple(tables)) if name != "find" else \
                A.join(Rows(tuple(tables)), Known(None))
        if name == "rows" and tables:
            return ListOf(Rows(tuple(tables)))
        if name in ("max", "min"):
            items = [A.elements(values[0])] if len(values) == 1 else values
            return A.extreme(max if name == "max" else min, items)
        if name in ("floor", "ceil", "int", "abs"):
            span = A.span_of(values[0])
            if span is not None and name != "abs":
                return span
            return ANY
        if name in ("highest", "lowest") and isinstance(values[0], Rec):
            return A.choice(list(values[0].fields))
        if name == "roll":
            options = A.options_of(values[0])
            if options:
                spans: list[Abs] = []
                for option in options:
                    from printshop.dice import parse_dice
                    text = str(option).strip()
                    if text.isdigit():
                        spans.append(Known(int(text)))
                        continue
                    try:
                        outcomes = parse_dice(text).outcomes()
                    except ValueError as exc:
                        self.report(where, f"roll(): {exc}", node.offset)
                        return ANY
                    spans.append(Span(outcomes[0], outcomes[-1]))
                return A.join_all(spans)
        if name == "str":
            options = A.options_of(values[0])
            if options is not None:
                return A.choice([FUNCTIONS["str"](None, o) for o in options])
        if name in ("first", "last"):
            return A.join(A.elements(values[0]), Known(None))
        if name in ("sorted", "unique"):
            element = A.elements(values[0])
            return ListOf(element)
        if name == "get" and isinstance(values[0], (Rows, Choice, Known)):
            return ANY
        return ANY

    def each_option(self, node: Node, values: list[Abs], where) -> Abs | None:
        """A function of a few known choices: worked out for each (the class's hit die)."""
        import itertools

        found = [A.options_of(v) if not isinstance(v, A.Span) else None for v in values]
        options = [o for o in found if o is not None]
        if len(options) < len(found):
            return None
        total = 1
        for o in options:
            total *= len(o)
        if total > A.MAX_CHOICES:
            return None
        results = [self.concrete(node, [Known(v) for v in combination], where)
                   for combination in itertools.product(*options)]
        return A.join_all(results)

    def lookup_range(self, table_id: str, value: Abs, where, offset: int = 0) -> None:
        """A number looked up in a dice table's ranges: is there a row for each value it can
        be, and (for a roll as thrown) can it reach every row?"""
        table = self.tables[table_id]
        if table.dice is None:
            self.report(where, f"lookup(): tables/{table_id}.yaml has no dice, so no ranges "
                        "to look a number up in (row() finds a row by a column's value)",
                        offset)
            return
        span = A.span_of(value)
        if span is None or span.low is None or span.high is None:
            return
        covered: set[int] = set()
        for row in table.rows:
            covered.update(range(row.roll[0], row.roll[1] + 1))
        possible = set(range(span.low, span.high + 1))
        if isinstance(value, Span) and value.die is False:
            options = None
        else:
            options = A.options_of(value)
        if options is not None:
            possible = {o for o in options if A.is_number(o)}
        missing = sorted(possible - covered)
        if missing:
            self.report(where, f"this can be {_ranges(sorted(possible))}, but "
                        f"tables/{table_id}.yaml has no row for {_ranges(missing)} (its rows "
                        f"cover {_ranges(sorted(covered))})", offset)
        if isinstance(value, Span) and value.die:
            never = [row for row in table.rows
                     if not any(v in possible for v in range(row.roll[0], row.roll[1] + 1))]
            if never:
                self.report(where, f"a roll of {span.low}–{span.high} can never reach the "
                            f"row{'s' if len(never) > 1 else ''} for "
                            f"{', '.join(r.roll_text for r in never)} of tables/{table_id}.yaml "
                            f"({table.dice.text}): roll {table.dice.text} for it, or fix the "
                            "ranges", offset)

    def comprehension(self, node: Node, scope: dict, where) -> Abs:
        loop = node.extra
        source = self.node(loop.iterable, scope, where)
        is_record = node.kind == "recordcomp"
        items: list[Any] | None = None     # values, or (key, value) pairs
        keyed = None
        if isinstance(source, Known) and isinstance(source.value, (list, tuple, dict)):
            raw = source.value
            if isinstance(raw, dict):
                items = [Known(k) for k in raw] if len(loop.variables) == 1 else \
                    [(Known(k), Known(v)) for k, v in raw.items()]
            else:
                items = [Known(v) for v in raw] if len(loop.variables) == 1 else \
                    [(Known(i), Known(v)) for i, v in enumerate(raw)]
        elif isinstance(source, Rec):
            keyed = list(source.fields)
            items = [Known(k) for k in keyed] if len(loop.variables) == 1 else \
                [(Known(k), v) for k, v in source.fields.items()]
        results: list[list[Abs]] = []
        items_certain = True
        for item in items if items is not None else [None]:
            local = dict(scope)
            if item is None:
                element = A.elements(source) if not isinstance(source, Rec) else ANY
                for variable in loop.variables:
                    local[variable] = element if variable == loop.variables[-1] else ANY
            elif len(loop.variables) == 2:
                local[loop.variables[0]], local[loop.variables[1]] = item
            else:
                local[loop.variables[0]] = item
            if loop.condition is not None:
                condition = self.node(loop.condition, local, where)
                if isinstance(condition, Known) and not condition.value:
                    continue
                if not isinstance(condition, Known):
                    items_certain = False
            parts = [self.node(a, local, where) for a in node.args]
            results.append(parts)
        if is_record:
            fields: dict[str, Abs] = {}
            for key, value in results:
                keys = A.options_of(key)
                if keys is not None and len(keys) == 1:
                    fields[keys[0]] = value
                else:
                    return Rec({}, closed=False)
            known_fields = {k: v for k, v in fields.items() if isinstance(v, Known)}
            if items is not None and items_certain and len(known_fields) == len(fields):
                from printshop.roll.recipe.values import Record
                return Known(Record({k: v.value for k, v in known_fields.items()}))
            return Rec(fields)
        values = [parts[0] for parts in results]
        known = [v for v in values if isinstance(v, Known)]
        if items is not None and items_certain and len(known) == len(values):
            return Known([v.value for v in known])
        return ListOf(A.join_all(values)) if values else Known([])


def _constant(value):
    """A compiled expression (evaluate.py) that is `value`, whatever the scope."""
    return lambda env: value


def _ranges(values: list[int]) -> str:
    parts: list[str] = []
    start: int | None = None
    previous: int | None = None
    for v in [*values, None]:
        if start is None:
            start = previous = v
            continue
        if v is not None and previous is not None and v == previous + 1:
            previous = v
            continue
        parts.append(str(start) if start == previous else f"{start}–{previous}")
        start = previous = v
    return ", ".join(parts)
