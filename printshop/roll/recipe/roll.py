"""Rolling characters from a loaded recipe.

`Roller.roll(pack_seed, index)` is a pure function of the recipe, the tables, the seed, the
index and the wishes: character n has its own generator (`dice.item_rng`), so it is the
same whatever else is in the pack. Wishes are a convention's: which class table, which
classes (the class roll is repeated until one of them comes up, which keeps the table's odds
between them), and conditions to reroll the whole character while they hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from printshop.dice import item_rng
from printshop.errors import PrintshopError, Problem, display_path
from printshop.roll.recipe.evaluate import CTX
from printshop.roll.recipe.functions import Context
from printshop.roll.recipe.model import Recipe, Where
from printshop.roll.recipe.steps import StepError, evaluate, roll_table, run_step
from printshop.roll.recipe.values import Character, Record

ITEM_KIND = "character"   # the `kind` of item_rng: characters have their own stream
MAX_CLASS_REROLLS = 10_000
MAX_CHARACTER_REROLLS = 1_000


@dataclass
class Wishes:
    class_table: str | None = None                 # a key of the recipe's class tables
    classes: frozenset[str] | None = None          # class ids; None: every class
    reroll_while: list = field(default_factory=list)   # parsed Exprs


class Roller:
    def __init__(self, recipe: Recipe, tables, wishes: Wishes | None = None):
        self.recipe, self.tables = recipe, tables
        self.wishes = wishes or Wishes()
        self.context = Context(tables)
        self.rerolls = list(recipe.reroll_while) + list(self.wishes.reroll_while)
        self.class_table = None
        if recipe.has_classes:
            key = self.wishes.class_table or next(iter(recipe.class_tables))
            self.class_table = tables[recipe.class_tables[key]]

    def roll(self, pack_seed: str, index: int) -> Character:
        """Character `index` (1-based) of the pack `pack_seed`."""
        self.context.rng = item_rng(pack_seed, ITEM_KIND, index)
        self.context.pack_seed, self.context.index = pack_seed, index
        self.context.recipe_id = self.recipe.id
        try:
            for _ in range(MAX_CHARACTER_REROLLS):
                env = self._once(pack_seed, index)
                if not any(evaluate(c, env) for c in self.rerolls):
                    break
            else:
                raise PrintshopError(Problem(display_path(self.recipe.path),
                                             f"reroll_while: still true after "
                                             f"{MAX_CHARACTER_REROLLS} rerolls of {pack_seed} "
                                             f"#{index}: is it true of every character?"))
            return self._character(env, pack_seed, index)
        except StepError as exc:
            line, column = exc.where.at(exc.offset)
            raise PrintshopError(Problem(display_path(exc.where.path),
                                         f"{exc.where.field}: {exc.message} (rolling "
                                         f"{pack_seed} #{index})", line, column)) from None

    def _once(self, pack_seed: str, index: int) -> dict:
        recipe, ctx = self.recipe, self.context
        env: dict = {CTX: ctx, "index": index, "seed": pack_seed,
                     "id": f"{pack_seed} #{index}", **recipe.data}
        if recipe.has_classes:
            self._class(env)
        for step in recipe.steps:
            env[step.name] = run_step(step, env, ctx)
        return env

    def _class(self, env: dict) -> None:
        table = self.class_table
        assert table is not None    # (a recipe with classes has a class table)
        allowed = self.wishes.classes
        pos = self.recipe.doc.pos(("classes",))
        where = Where(self.recipe.path, pos.line, pos.column, "classes")
        for _ in range(MAX_CLASS_REROLLS):
            row = roll_table(table, self.context, where)
            if allowed is None or row["id"] in allowed:
                break
        else:
            raise PrintshopError(Problem(display_path(table.path),
                                         f"no allowed class came up in {MAX_CLASS_REROLLS} "
                                         "rolls"))
        records = self.recipe.records
        env["class"] = records[row["id"]] if records else row
        env["class_rolls"] = list(row.rolls)
        env["per_class"] = self.recipe.per_class.get(row["id"], Record())

    def _character(self, env: dict, pack_seed: str, index: int) -> Character:
        recipe = self.recipe
        values = {}
        if recipe.has_classes:
            values["class"] = env["class"]
        values.update((step.name, env[step.name]) for step in recipe.steps)
        kind = env["class"]["id"] if recipe.has_classes else None
        if recipe.label is not None:
            label = evaluate(recipe.label, env)
        elif recipe.class_name is not None:
            label = evaluate(recipe.class_name, env)
        elif recipe.has_classes:
            cls = env["class"]
            label = cls.get("name") or cls.get("class") or kind
        else:
            label = recipe.title
        json_values = _json(recipe.json, env) if recipe.json is not None else None
        return Character(pack_seed, index, values, str(label), kind, json_values)


def _json(spec, env):
    if isinstance(spec, dict):
        return {key: _json(value, env) for key, value in spec.items()}
    return evaluate(spec, env)


def class_name_of(recipe: Recipe, record) -> str:
    """How the pack names a class (its record's name, else its id)."""
    if isinstance(record, dict):
        return str(record.get("name") or record.get("class") or record.get("id"))
    return str(record)
