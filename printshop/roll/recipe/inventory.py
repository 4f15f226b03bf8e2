"""The steps that fill a character's slots and pack: `fill` (rows of a table until the
slots are full) and `inventory` (items added up by name and kind)."""

from __future__ import annotations

from printshop.roll.recipe.steps import (
    MAX_TIMES,
    StepError,
    _allowed,
    evaluate,
    roll_table,
    table_of,
    whole,
)
from printshop.roll.recipe.values import Record, describe


def run_fill(step, env, ctx):
    """Rows of the table, picked by weight among those that still fit, until the slots are
    full or nothing fits."""
    slots = whole(step.options["slots"], env, "fill", -MAX_TIMES)
    table = table_of(step.options["table"], env, ctx)
    records = ctx.rows(table.id)
    size_expr = step.options.get("size")
    saved = env.get("row")
    try:
        candidates = []
        for record, row in zip(records, table.rows):
            if row.weight <= 0 or not _allowed(step, env, record):
                continue
            env["row"] = record
            size = whole(size_expr, env, "size", 1) if size_expr is not None else 1
            candidates.append((record, row.weight, size))
        chosen, left = [], slots
        while left > 0:
            fitting = [(n, c) for n, c in enumerate(candidates) if c[2] <= left]
            if not fitting:
                break
            point = ctx.rng.randrange(sum(c[1] for _, c in fitting))
            for n, (record, weight, size) in fitting:
                point -= weight
                if point < 0:
                    chosen.append(record)
                    left -= size
                    if not step.options["repeats"]:
                        del candidates[n]
                    break
        return chosen
    finally:
        env["row"] = saved


def run_inventory(step, env, ctx):
    items: list[Record] = []
    saved = {k: env.get(k) for k in ("it", "row")}
    try:
        for entry in step.options.get("entries", ()):
            if entry.when is not None and not evaluate(entry.when, env):
                continue
            times = whole(entry.times, env, "times") if entry.times is not None else 1
            for _ in range(times):
                if entry.table is not None:
                    env["row"] = roll_table(table_of(entry.table, env, ctx), ctx, entry.where)
                    sources = [None]
                elif entry.each is not None:
                    sources = evaluate(entry.each, env)
                    if not isinstance(sources, (list, tuple)):
                        raise StepError(f"each: needs a list, not {describe(sources)}",
                                        entry.each.where)
                else:
                    sources = [None]
                for source in sources:
                    if entry.each is not None:
                        env["it"] = source
                    _add(items, entry, env)
    finally:
        env.update(saved)
    return items


def _add(items: list[Record], entry, env) -> None:
    name = evaluate(entry.item, env) if entry.item is not None else None
    if name is None or name == "":
        return
    quantity = evaluate(entry.quantity, env) if entry.quantity is not None else 1
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        raise StepError(f"quantity must be a whole number, not {describe(quantity)}",
                        entry.quantity.where)
    kind = entry.kind
    for n, item in enumerate(items):
        if item["name"] == name and item["kind"] == kind:
            items[n] = Record(item, quantity=item["quantity"] + int(quantity))
            return
    record = Record(name=name, quantity=int(quantity), kind=kind)
    for key, expr in entry.fields.items():
        record[key] = evaluate(expr, env)
    items.append(record)
