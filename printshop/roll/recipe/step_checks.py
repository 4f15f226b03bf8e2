"""Checking a recipe's classes and steps in order: what each step can make (`abstract.py`)
becomes a name the steps after it may read. Problems go to the reader, located."""

from __future__ import annotations

from printshop.roll.recipe import abstract as A
from printshop.roll.recipe.abstract import ANY, Known, ListOf, Rec, Rows, Span
from printshop.roll.recipe.check import ExprChecker
from printshop.roll.recipe.evaluate import compile_node
from printshop.roll.recipe.expr import parse
from printshop.roll.recipe.functions import FUNCTIONS
from printshop.roll.recipe.model import Expr, Recipe, Step, TableRef
from printshop.roll.recipe.steps import MAX_THEN_DEPTH
from printshop.roll.recipe.values import Record
from printshop.source.tables import Row


def final_rows(table_id: str, tables: dict, depth: int = 0) -> list[tuple[str, Row]]:
    """(table id, row) for every row a roll on the table can end on, following `then:`."""
    out = []
    for row in tables[table_id].rows:
        if row.then and depth < MAX_THEN_DEPTH and row.then in tables:
            out += final_rows(row.then, tables, depth + 1)
        else:
            out.append((table_id, row))
    return out


def class_ids(recipe: Recipe, tables: dict, table_id: str | None = None) -> list[str]:
    """The class ids a class table can roll (all of them: every class table's)."""
    found: list[str] = []
    for tid in ([table_id] if table_id else recipe.class_tables.values()):
        if tid not in tables:
            continue
        for _owner, row in final_rows(tid, tables):
            value = row.values.get("id")
            if value is not None and value not in found:
                found.append(value)
    return found


def check_recipe(recipe: Recipe, tables: dict, records: dict, reader) -> None:
    checker = ExprChecker(tables, reader.problem)
    scope: dict = {"index": Span(1, None), "seed": ANY, "id": ANY}
    for name, value in recipe.data.items():
        scope[name] = Known(value)
    if recipe.has_classes:
        classes = _check_classes(recipe, tables, records, reader)
        scope["class"] = A.choice(classes) if classes else ANY
        scope["class_rolls"] = ListOf(ANY)
        entries = [recipe.per_class.get(_id_of(c), Record()) for c in classes]
        for class_id in recipe.per_class:
            if classes and class_id not in [_id_of(c) for c in classes]:
                reader.problem(reader.where(("per_class", class_id), key=True),
                               f"'{class_id}' is not a class the class table can roll "
                               f"({', '.join(_id_of(c) for c in classes)})")
        scope["per_class"] = A.choice(entries) if entries else Known(Record())
    for name in recipe.broken:
        scope[name] = ANY
    for step in recipe.steps:
        if step.name in scope and step.name not in recipe.broken:
            reader.problem(step.where, f"'{step.name}' is already the name of "
                           f"{'the recipe data' if step.name in recipe.data else 'a value'}: "
                           "choose another")
        scope[step.name] = StepChecker(checker, tables, reader).step(step, scope)
    final = dict(scope)
    for expr in [recipe.label, recipe.class_name] + recipe.reroll_while + \
            [e for _, e in recipe.index]:
        checker.check(expr, final)
    _check_json(recipe.json, checker, final)
    if recipe.layout:
        from printshop.roll.recipe.layout import check_layout

        check_layout(recipe, final, reader)
    recipe.shapes = {step.name: final[step.name] for step in recipe.steps}


def _id_of(record) -> str:
    """A class record's id ("" if it has none: a row whose optional id is empty)."""
    value = record.get("id") if isinstance(record, dict) else None
    return value if isinstance(value, str) else ""


def _check_json(json, checker, scope) -> None:
    if isinstance(json, dict):
        for value in json.values():
            _check_json(value, checker, scope)
    elif json is not None:
        checker.check(json, scope)


def _check_classes(recipe: Recipe, tables: dict, records: dict, reader) -> list:
    classes: list = []
    for name, table_id in recipe.class_tables.items():
        where = reader.where(("classes", "tables", name))
        if table_id not in tables:
            reader.problem(where, f"no table '{table_id}' in tables/")
            continue
        if tables[table_id].dice is None:
            reader.problem(where, f"tables/{table_id}.yaml has no dice: the class table is "
                           "rolled on")
            continue
        for owner, row in final_rows(table_id, tables):
            if "id" not in {c.key for c in tables[owner].columns}:
                reader.problem(where, f"the class roll can end on tables/{owner}.yaml, which "
                               "needs an 'id' column of class ids")
                break
            class_id = row.values.get("id")
            if records and class_id not in records:
                reader.problems.add(tables[owner].path, f"'{class_id}' is not a class in "
                                    f"the recipe's class records ({', '.join(records)})",
                                    row.line)
                continue
            from printshop.roll.recipe.functions import row_record

            record = records.get(class_id) if records else row_record(tables[owner], row)
            if record is not None and record not in classes:
                classes.append(record)
    return classes


class StepChecker:
    def __init__(self, checker: ExprChecker, tables: dict, reader):
        self.checker, self.tables, self.reader = checker, tables, reader

    def expr(self, expr, scope, **bound):
        if expr is None:
            return ANY
        local = {**scope, **bound} if bound else scope
        return self.checker.check(expr, local)

    def tables_of(self, ref: TableRef | None, scope) -> list[str] | None:
        """The tables a step's table can be (None: not known until it rolls)."""
        if ref is None:
            return None
        if ref.literal is not None:
            if ref.literal in self.tables:
                return [ref.literal]
            if ref.literal in scope:     # a value's name, not a table's: read it
                ref.expr = Expr(ref.literal, parse(ref.literal),
                                compile_node(parse(ref.literal), FUNCTIONS), ref.where)
                ref.literal = None
            else:
                self.checker.table_known(ref.literal, ref.where)
                return []
        value = self.expr(ref.expr, scope)
        options = A.options_of(value)
        if options is None:
            return None
        found = []
        for option in options:
            if option is None:
                continue
            if self.checker.table_known(option, ref.where):
                found.append(option)
        return found

    def step(self, step: Step, scope: dict):
        when = self.expr(step.when, scope)
        result = getattr(self, f"_{step.kind}")(step, scope)
        if step.value is not None and step.kind != "value":
            bound = "row" if step.kind in ("table", "pick", "lookup", "fill") else "it"
            many = isinstance(result, ListOf) and (step.kind == "fill" or "count" in step.options
                                                   or "times" in step.options)
            element = result.element if many else result
            value = self.expr(step.value, scope, **{bound: element})
            result = ListOf(value) if many else value
        if step.when is not None and not (isinstance(when, Known) and when.value):
            result = A.join(result, self.expr(step.otherwise, scope) if step.otherwise
                            else Known(None))
        return result

    def _value(self, step, scope):
        return self.expr(step.value, scope)

    def _times(self, step, scope, value):
        if "times" in step.options:
            self.expr(step.options["times"], scope)
            return ListOf(value)
        return value

    def _roll(self, step, scope):
        dice = step.options.get("dice")
        count = self.expr(step.options.get("count"), scope) if "count" in step.options else None
        if dice is None:
            return ANY
        low, high = dice.outcomes()
        if count is not None:
            span = A.span_of(count)
            if span is None or span.low is None or span.high is None:
                low, high = None, None
            else:
                low, high = dice.outcomes(max(0, span.low))[0], dice.outcomes(span.high)[1]
        return self._times(step, scope, Span(low, high, die=count is None))

    def _pool(self, step, scope):
        size = self.expr(step.options.get("size"), scope)
        self.expr(step.options.get("dc"), scope)
        span = A.span_of(size)
        crits = step.options.get("crits", True)
        high = None if crits or span is None or span.high is None else max(1, span.high)
        return self._times(step, scope, Span(0, high))

    def _fill(self, step, scope):
        self.expr(step.options.get("slots"), scope)
        found = self.tables_of(step.options.get("table"), scope)
        rows = Rows(tuple(found)) if found else ANY
        for key in ("where", "unless", "size"):
            if key in step.options:
                self.expr(step.options[key], scope, row=rows)
        return ListOf(rows)

    def _table(self, step, scope):
        found = self.tables_of(step.options.get("table"), scope)
        if found is None:
            return self._times(step, scope, ANY)
        ends = []
        for table_id in found:
            if self.tables[table_id].dice is None:
                self.reader.problem(step.options["table"].where, f"tables/{table_id}.yaml has "
                                    "no dice to roll: pick: chooses a row of a table without "
                                    "dice")
                continue
            for owner, _ in final_rows(table_id, self.tables):
                if owner not in ends:
                    ends.append(owner)
        rows = Rows(tuple(ends)) if ends else ANY
        if "until" in step.options:
            self.expr(step.options["until"], scope, row=rows)
        return self._times(step, scope, rows)

    def _pick(self, step, scope):
        found = self.tables_of(step.options.get("table"), scope)
        rows = Rows(tuple(found)) if found else ANY
        for key in ("where", "unless"):
            if key in step.options:
                self.expr(step.options[key], scope, row=rows)
        if "count" not in step.options:
            return rows
        count = A.span_of(self.expr(step.options["count"], scope))
        if count is not None and count.high is not None and found:
            for table_id in found:
                size = len(self.tables[table_id].rows)
                if count.high > size:
                    self.reader.problem(step.options["count"].where,
                                        f"this can ask for {count.high} different rows, but "
                                        f"tables/{table_id}.yaml has only {size}: add rows or "
                                        "lower the count")
        return ListOf(rows)

    def _lookup(self, step, scope):
        found = self.tables_of(step.options.get("table"), scope)
        if "by" in step.options:
            value = self.expr(step.options["by"], scope)
            for table_id in found or ():
                self.checker.lookup_range(table_id, value, step.options["by"].where)
        for column, expr in (step.options.get("row") or {}).items():
            self.expr(expr, scope)
            for table_id in found or ():
                self.checker.column_known(table_id, column, expr.where)
        rows = Rows(tuple(found)) if found else ANY
        if "column" in step.options:
            column = self.expr(step.options["column"], scope)
            options = A.options_of(column)
            if options is None or not found:
                return ANY
            results = []
            for table_id in found:
                for option in options:
                    if self.checker.column_known(table_id, option,
                                                 step.options["column"].where):
                        results.append(self.checker.column(table_id, option))
            return A.join_all(results) if results else ANY
        return rows

    def _place(self, step, scope):
        rolls = self.expr(step.options.get("rolls"), scope)
        into = self.expr(step.options.get("into"), scope)
        self.expr(step.options.get("primes"), scope)
        for expr in step.options.get("swap") or ():
            self.expr(expr, scope)
        names = into.value if isinstance(into, Known) else None
        if not isinstance(names, list) or not names:
            if "into" in step.options:
                self.reader.problem(step.options["into"].where, "into: the names the numbers "
                                    "go to must be known when the recipe loads: a list like "
                                    "[STR, DEX, CON] or a name from data:")
            return Rec({}, closed=False)
        element = A.elements(rolls)
        if isinstance(rolls, Known) and isinstance(rolls.value, list) and \
                len(rolls.value) != len(names):
            self.reader.problem(step.options["rolls"].where, f"{len(rolls.value)} numbers "
                                f"to place into {len(names)} names")
        return Rec({str(n): element for n in names})

    def _choose(self, step, scope):
        options = self.expr(step.options.get("options"), scope)
        self.expr(step.options.get("weights"), scope)
        return A.elements(options)

    def _inventory(self, step, scope):
        fields: dict = {}
        for entry in step.options.get("entries", ()):
            local = dict(scope)
            self.expr(entry.when, scope)
            self.expr(entry.times, scope)
            if entry.table is not None:
                found = self.tables_of(entry.table, scope)
                ends = [owner for t in found or () for owner, _ in final_rows(t, self.tables)]
                local["row"] = Rows(tuple(dict.fromkeys(ends))) if ends else ANY
            if entry.each is not None:
                local["it"] = A.elements(self.expr(entry.each, scope))
            parts = {"name": self.expr(entry.item, local),
                     "quantity": self.expr(entry.quantity, local) if entry.quantity
                     else Known(1),
                     "kind": Known(entry.kind)}
            parts.update({k: self.expr(e, local) for k, e in entry.fields.items()})
            for key, value in parts.items():
                fields[key] = A.join(fields[key], value) if key in fields else value
        return ListOf(Rec(fields, closed=False))
