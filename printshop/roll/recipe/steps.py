"""Running a recipe's steps for one character: each step kind's procedure, drawing every
number from the character's own generator, in the recipe's order.

The table rolls and picks draw exactly as `Table.roll`, `Table.pick` and `Table.sample` do
(same calls, same order), so a recipe that follows the old code's steps rolls the same
characters from the same seed.
"""

from __future__ import annotations

from printshop.roll.recipe.dice_ops import roll_pool
from printshop.roll.recipe.evaluate import EvalError
from printshop.roll.recipe.functions import row_record
from printshop.roll.recipe.model import Step
from printshop.roll.recipe.values import Record, Roll, describe

MAX_THEN_DEPTH = 5       # a roll may send you on to another table, and that to another
MAX_REROLLS = 10_000     # `until:`, excluded rows of a dice table: give up after this many
MAX_TIMES = 1_000        # `times:`, `count:`


class StepError(Exception):
    """A step that could not be done; `where` is the part of the recipe that failed."""

    def __init__(self, message: str, where, offset: int = 0):
        super().__init__(message)
        self.message, self.where, self.offset = message, where, offset


def evaluate(expr, env):
    try:
        return expr.run(env)
    except EvalError as exc:
        raise StepError(exc.message, expr.where, exc.offset) from None


def whole(expr, env, what: str, low: int = 0, high: int = MAX_TIMES) -> int:
    value = evaluate(expr, env)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise StepError(f"{what} must be a whole number, not {describe(value)}", expr.where)
    value = int(value)
    if not low <= value <= high:
        raise StepError(f"{what} must be from {low} to {high}, not {value}", expr.where)
    return value


def table_of(ref, env, ctx):
    table_id = ref.literal if ref.expr is None else evaluate(ref.expr, env)
    try:
        return ctx.table(table_id)
    except EvalError:
        raise StepError(f"no table '{table_id}' in tables/", ref.where) from None


def roll_table(table, ctx, where) -> Record:
    """The table's dice, then on through the `then:` of the row they land on."""
    if table.dice is None:
        raise StepError(f"tables/{table.id}.yaml has no dice to roll (pick: chooses a row "
                        "of a table without dice)", where)
    result, row = table.roll(ctx.rng)
    rolls = [Roll(result.total, result.faces, dice=table.dice.text)]
    depth = 0
    while row.then and depth < MAX_THEN_DEPTH:
        table = ctx.tables[row.then]
        result, row = table.roll(ctx.rng)
        rolls.append(Roll(result.total, result.faces, dice=table.dice.text))
        depth += 1
    return row_record(table, row, rolls)


def _allowed(step, env, record) -> bool:
    where, unless = step.options.get("where"), step.options.get("unless")
    if where is None and unless is None:
        return True
    env["row"] = record
    if where is not None and not evaluate(where, env):
        return False
    return not (unless is not None and evaluate(unless, env))


def pick_rows(step: Step, env: dict, ctx, count: int) -> list[Record]:
    """`count` different rows, picked by weight among the rows still wanted (a table's dice,
    if it has any, are not rolled: each row has its weight's chance, as the dice printed
    with a list give each entry the same; `table:` rolls them)."""
    table = table_of(step.options["table"], env, ctx)
    records = ctx.rows(table.id)
    chosen: list[Record] = []
    saved = env.get("row")
    try:
        if "where" in step.options or "unless" in step.options:
            allowed = [(r, row.weight) for r, row in zip(records, table.rows)
                       if row.weight > 0 and _allowed(step, env, r)]
        else:
            allowed = [(r, row.weight) for r, row in zip(records, table.rows) if row.weight > 0]
        total = sum(weight for _, weight in allowed)
        for _ in range(count):
            if not total:
                break
            point = ctx.rng.randrange(total)
            for n, (record, weight) in enumerate(allowed):
                point -= weight
                if point < 0:
                    chosen.append(record)
                    del allowed[n]
                    total -= weight
                    break
        return chosen
    finally:
        env["row"] = saved


def across_pack(step, env, ctx, count: int) -> list[Record]:
    """Rows that do not repeat across the pack until the table runs out: the pack's rows in
    an order shuffled from the seed (a new order each time round), character n taking the
    next `count` of them after the n − 1 before it. So character n depends only on the
    seed and n, and a pack of N characters (N × count rows) repeats none while the table
    lasts. Rows ruled out by where:/unless: for this character are passed over (the next
    one comes instead); weights are not used."""
    table = table_of(step.options["table"], env, ctx)
    records = ctx.rows(table.id)
    usable = [n for n, row in enumerate(table.rows) if row.weight > 0]
    if not usable:
        raise StepError(f"tables/{table.id}.yaml has no row to pick", step.where)
    saved = env.get("row")
    try:
        chosen: list[Record] = []
        position = (ctx.index - 1) * count
        for _ in range(count + len(usable) * 2):
            if len(chosen) == count:
                break
            cycle, place = divmod(position, len(usable))
            position += 1
            record = records[ctx.pack_order(step, table.id, usable, cycle)[place]]
            if record not in chosen and _allowed(step, env, record):
                chosen.append(record)
        if not chosen:
            raise StepError(f"no row of tables/{table.id}.yaml is allowed here", step.where)
        return chosen
    finally:
        env["row"] = saved


def run_roll(step, env, ctx):
    dice = step.options["dice"]
    count = whole(step.options["count"], env, "count") if "count" in step.options else None
    if "times" in step.options:
        return [dice.roll(ctx.rng, count)
                for _ in range(whole(step.options["times"], env, "times"))]
    return dice.roll(ctx.rng, count)


def run_pool(step, env, ctx):
    def once():
        size = whole(step.options["size"], env, "pool", -MAX_TIMES)
        dc = whole(step.options["dc"], env, "dc", 0, step.options["sides"])
        return roll_pool(ctx.rng, size, dc, step.options["sides"], step.options["crits"],
                         step.options["keep_lowest"])
    if "times" in step.options:
        return [once() for _ in range(whole(step.options["times"], env, "times"))]
    return once()


def run_table(step, env, ctx):
    table = table_of(step.options["table"], env, ctx)
    until = step.options.get("until")

    def once():
        for _ in range(MAX_REROLLS):
            record = roll_table(table, ctx, step.where)
            if until is None:
                return record
            env["row"] = record
            if evaluate(until, env):
                return record
        raise StepError(f"until: never came true in {MAX_REROLLS} rolls", until.where)

    saved = env.get("row")
    try:
        if "times" in step.options:
            return [once() for _ in range(whole(step.options["times"], env, "times"))]
        return once()
    finally:
        env["row"] = saved


def run_pick(step, env, ctx):
    if step.options.get("across_pack"):
        count = whole(step.options["count"], env, "count") if "count" in step.options else 1
        picked = across_pack(step, env, ctx, count)
        return picked if "count" in step.options else picked[0]
    if "count" in step.options:
        count = whole(step.options["count"], env, "count")
        return pick_rows(step, env, ctx, count)
    picked = pick_rows(step, env, ctx, 1)
    if not picked:
        raise StepError("no row of the table is left to pick (where:/unless: rule out "
                        "every row)", step.options["table"].where)
    return picked[0]


def run_lookup(step, env, ctx):
    table = table_of(step.options["table"], env, ctx)
    records = ctx.rows(table.id)
    if "by" in step.options:
        value = evaluate(step.options["by"], env)
        found = None
        for record, row in zip(records, table.rows):
            if row.roll and isinstance(value, (int, float)) and row.roll[0] <= value <= row.roll[1]:
                found = record
                break
        if found is None:
            raise StepError(f"tables/{table.id}.yaml has no row for {describe(value)}",
                            step.options["by"].where)
    else:
        wanted = {k: evaluate(e, env) for k, e in step.options["row"].items()}
        found = next((r for r in records if all(r.get(k) == v for k, v in wanted.items())),
                     None)
        if found is None:
            said = ", ".join(f"{k} '{v}'" for k, v in wanted.items())
            raise StepError(f"no row of tables/{table.id}.yaml has {said}", step.where)
    if "column" in step.options:
        column = evaluate(step.options["column"], env)
        if column not in found:
            raise StepError(f"tables/{table.id}.yaml has no column '{column}'",
                            step.options["column"].where)
        return found[column]
    return found


def run_place(step, env, ctx):
    rolls = evaluate(step.options["rolls"], env)
    names = evaluate(step.options["into"], env)
    if not isinstance(rolls, (list, tuple)) or not isinstance(names, (list, tuple)):
        raise StepError("place: and into: are two lists", step.where)
    if len(rolls) != len(names):
        raise StepError(f"{len(rolls)} numbers to place into {len(names)} names", step.where)
    numbers = [int(r) if isinstance(r, int) else r for r in rolls]
    order = list(range(len(numbers)))
    if step.options.get("shuffle"):
        for i in range(len(order) - 1, 0, -1):
            j = ctx.rng.randrange(i + 1)
            order[i], order[j] = order[j], order[i]
        placed = {name: numbers[order[n]] for n, name in enumerate(names)}
    elif step.options.get("primes") is not None:
        placed = primes_first(numbers, list(names), evaluate(step.options["primes"], env) or [])
    else:
        placed = dict(zip(names, numbers))
    for expr in step.options.get("swap") or ():
        if evaluate(expr, env) not in placed:
            raise StepError(f"swap: '{evaluate(expr, env)}' is not one of "
                            f"{', '.join(map(str, names))}", expr.where)
    if step.options.get("swap"):
        a, b = (evaluate(e, env) for e in step.options["swap"])
        placed[a], placed[b] = placed[b], placed[a]
    return Record((name, placed[name]) for name in names)


def primes_first(rolls: list, names: list, primes) -> dict:
    """The highest rolls, kept in roll order, go to the prime names in `names` order; on a
    tie the earlier roll counts as higher. The rest go, in roll order, to the rest."""
    prime_names = [n for n in names if n in primes]
    by_height = sorted(range(len(rolls)), key=lambda i: (-rolls[i], i))
    prime_rolls = sorted(by_height[:len(prime_names)])
    other_rolls = [i for i in range(len(rolls)) if i not in prime_rolls]
    others = [n for n in names if n not in prime_names]
    placed = {name: rolls[i] for name, i in zip(prime_names, prime_rolls)}
    placed.update({name: rolls[i] for name, i in zip(others, other_rolls)})
    return placed


def run_choose(step, env, ctx):
    options = evaluate(step.options["options"], env)
    if not isinstance(options, (list, tuple)) or not options:
        raise StepError("choose: needs a list of at least one option", step.where)
    weights_expr = step.options.get("weights")
    if weights_expr is None:
        return options[ctx.rng.randrange(len(options))]
    weights = evaluate(weights_expr, env)
    if not isinstance(weights, (list, tuple)) or len(weights) != len(options) or \
            any(not isinstance(w, int) or w < 0 for w in weights) or not sum(weights):
        raise StepError("weights: one whole number ≥ 0 for each option", weights_expr.where)
    point = ctx.rng.randrange(sum(weights))
    for option, weight in zip(options, weights):
        point -= weight
        if point < 0:
            return option
    raise AssertionError("unreachable")


def run_value(step, env, ctx):
    return evaluate(step.value, env)


# (inventory.py builds its two steps on this module's helpers, so it is imported last)
from printshop.roll.recipe.inventory import run_fill, run_inventory  # noqa: E402

RUNNERS = {"roll": run_roll, "pool": run_pool, "table": run_table, "pick": run_pick,
           "lookup": run_lookup, "place": run_place, "choose": run_choose, "fill": run_fill,
           "inventory": run_inventory, "value": run_value}


def run_step(step: Step, env: dict, ctx):
    if step.when is not None and not evaluate(step.when, env):
        return evaluate(step.otherwise, env) if step.otherwise is not None else None
    result = RUNNERS[step.kind](step, env, ctx)
    if step.value is not None and step.kind != "value":
        bound = "row" if step.kind in ("table", "pick", "lookup", "fill") else "it"
        saved = env.get(bound)
        try:
            if isinstance(result, list) and (step.kind == "fill" or
                                             "count" in step.options or "times" in step.options):
                out = []
                for item in result:
                    env[bound] = item
                    out.append(evaluate(step.value, env))
                result = out
            else:
                env[bound] = result
                result = evaluate(step.value, env)
        finally:
            env[bound] = saved
    return result
