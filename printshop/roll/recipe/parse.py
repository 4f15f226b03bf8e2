"""Reading a recipe file (`recipes/NAME.yaml`) into steps, every problem located at its line.

The file's parts (docs/recipes.md has them all, with examples): `title`, `sheet`, `label`,
`classes`, `data`, `per_class`, `steps` (in order: each names the value it makes), `json`,
`reroll_while`, `index` and `checks`. Expressions are parsed here (`expr.py`); what they name
is checked against the steps before them and the project's tables by `check.py`.
"""

from __future__ import annotations

import difflib
import re

from printshop.errors import Problems
from printshop.roll.recipe.dice_ops import DiceSpec, dice_spec
from printshop.roll.recipe.evaluate import compile_node
from printshop.roll.recipe.expr import ExprError, Node, parse
from printshop.roll.recipe.functions import ARITY, FUNCTIONS
from printshop.roll.recipe.model import Entry, Expr, Step, TableRef, Where
from printshop.source.tables import TABLE_ID_RE
from printshop.source.yamlfile import YamlDoc

NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
TOP_KEYS = ("title", "description", "noun", "nouns", "name_line", "sheet", "label", "classes",
            "data", "per_class", "steps", "json", "reroll_while", "index", "checks")
COMMON = ("when", "else", "value", "label", "show", "format")
FORMATS = ("signed",)   # how a sheet prints the value: signed: +1, 0, −1
KINDS = {   # a step's kind (its first key) and the options it takes besides COMMON
    "roll": ("times", "count", "keep", "drop", "reroll"),
    "pool": ("dc", "sides", "crits", "under_one", "times"),
    "table": ("until", "times"),
    "pick": ("where", "unless", "count", "across_pack"),
    "lookup": ("by", "row", "column"),
    "place": ("into", "primes", "shuffle", "swap"),
    "choose": ("weights",),
    "fill": ("from", "size", "where", "unless", "repeats"),
    "inventory": (),
    "value": (),
}
SHOW = ("box", "line", "list", "table", "stats", "hidden")
ENTRY_KEYS = ("item", "quantity", "kind", "each", "when", "table", "times")
RESERVED_NAMES = {"index", "seed", "id", "class", "class_rolls", "per_class", "row", "it"}


class Reader:
    """Turns the YAML document into a Recipe, adding each problem to `problems`."""

    def __init__(self, doc: YamlDoc, problems: Problems):
        self.doc, self.problems = doc, problems
        self.lines: list[str] | None = None

    # --- locating ---------------------------------------------------------------------------
    def where(self, loc: tuple, key: bool = False) -> Where:
        pos = self.doc.pos(loc, key=key)
        quoted = False
        if not key:
            if self.lines is None:
                try:
                    self.lines = self.doc.path.read_text(encoding="utf-8").splitlines()
                except OSError:
                    self.lines = []
            if 0 < pos.line <= len(self.lines):
                text = self.lines[pos.line - 1]
                quoted = text[pos.column - 1:pos.column] in ("'", '"')
        return Where(self.doc.path, pos.line, pos.column, ".".join(map(str, loc)), quoted)

    def problem(self, where: Where, message: str, offset: int = 0) -> None:
        line, column = where.at(offset)
        self.problems.add(where.path, f"{where.field}: {message}", line, column)

    # --- pieces ------------------------------------------------------------------------------
    def expr(self, value, loc: tuple) -> Expr | None:
        where = self.where(loc)
        if isinstance(value, (dict, list)):
            self.problem(where, "expected an expression (a formula), not a "
                         f"{'mapping' if isinstance(value, dict) else 'list'}")
            return None
        if value is None:
            self.problem(where, "expected an expression, found nothing")
            return None
        try:
            node = parse(str(value))
        except ExprError as exc:
            self.problem(where, f"{exc.message} (in '{value}')", exc.offset)
            return None
        ok = self._calls(node, where, str(value))
        if not ok:
            return None
        return Expr(str(value), node, compile_node(node, FUNCTIONS), where)

    def _calls(self, node: Node, where: Where, text: str) -> bool:
        ok = True
        if node.kind == "call":
            if node.value not in FUNCTIONS:
                close = difflib.get_close_matches(node.value, list(FUNCTIONS), n=1)
                hint = f" (did you mean {close[0]}?)" if close else \
                    " (docs/recipes.md lists them)"
                self.problem(where, f"no function '{node.value}'{hint}", node.offset)
                ok = False
            else:
                low, high = ARITY[node.value]
                n = len(node.args)
                if n < low or (high is not None and n > high):
                    want = str(low) if low == high else \
                        f"{low} or more" if high is None else f"{low} to {high}"
                    self.problem(where, f"{node.value}() takes {want} argument"
                                 f"{'s' if want != '1' else ''}, not {n}", node.offset)
                    ok = False
        for arg in node.args:
            ok = self._calls(arg, where, text) and ok
        extra = node.extra
        if hasattr(extra, "iterable"):
            ok = self._calls(extra.iterable, where, text) and ok
            if extra.condition is not None:
                ok = self._calls(extra.condition, where, text) and ok
        return ok

    def table_ref(self, value, loc: tuple) -> TableRef | None:
        where = self.where(loc)
        if not isinstance(value, str) or not value.strip():
            self.problem(where, "expected a table id (the file name in tables/, without "
                         ".yaml) or an expression that gives one")
            return None
        value = value.strip()
        if TABLE_ID_RE.match(value) and "_" not in value:
            return TableRef(value, None, where)
        expr = self.expr(value, loc)
        return TableRef(None, expr, where) if expr else None

    def flag(self, value, loc: tuple) -> bool:
        if isinstance(value, str) and value.lower() in ("true", "yes", "false", "no"):
            return value.lower() in ("true", "yes")
        self.problem(self.where(loc), f"expected true or false, not '{value}'")
        return False

    def text(self, value, loc: tuple) -> str | None:
        if not isinstance(value, str):
            self.problem(self.where(loc), "expected a text")
            return None
        return value

    def unknown_keys(self, mapping: dict, allowed, loc: tuple, what: str) -> None:
        for key in mapping:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), list(allowed), n=1)
                hint = f"did you mean '{close[0]}'? " if close else ""
                self.problem(self.where(loc + (key,), key=True),
                             f"unknown key '{key}' in {what} ({hint}it takes "
                             f"{', '.join(allowed)})")

    # --- steps -------------------------------------------------------------------------------
    def step(self, name: str, raw, loc: tuple) -> Step | None:
        where = self.where(loc, key=True)
        if not NAME_RE.match(name):
            self.problem(where, f"'{name}' is not a name: use letters, digits and _ "
                         "(starting with a letter)")
            return None
        if name in RESERVED_NAMES:
            self.problem(where, f"'{name}' is a name printshop gives a value itself (one of "
                         f"{', '.join(sorted(RESERVED_NAMES))}); choose another")
            return None
        if not isinstance(raw, dict):
            expr = self.expr(raw, loc)
            return Step(name, "value", where, value=expr) if expr else None
        kinds = [k for k in raw if k in KINDS and k != "value"] or \
            [k for k in raw if k == "value"]
        if len(kinds) != 1:
            self.problem(where, "a step is an expression, or a mapping with exactly one of "
                         f"{', '.join(KINDS)} (found {', '.join(kinds) or 'none'})")
            return None
        kind = kinds[0]
        step = Step(name, kind, where)
        self.unknown_keys(raw, tuple(dict.fromkeys((kind,) + KINDS[kind] + COMMON)), loc,
                          f"a {kind} step")
        for key in ("when", "else"):
            if key in raw:
                expr = self.expr(raw[key], loc + (key,))
                if key == "when":
                    step.when = expr
                else:
                    step.otherwise = expr
        if "value" in raw and kind != "value":
            step.value = self.expr(raw["value"], loc + ("value",))
        if "label" in raw:
            step.label = self.text(raw["label"], loc + ("label",))
        if "show" in raw:
            if raw["show"] not in SHOW:
                self.problem(self.where(loc + ("show",)), f"show: '{raw['show']}' is not one "
                             f"of {', '.join(SHOW)}")
            else:
                step.show = raw["show"]
        if "format" in raw:
            if raw["format"] not in FORMATS:
                self.problem(self.where(loc + ("format",)), f"format: '{raw['format']}' is "
                             f"not one of {', '.join(FORMATS)}")
            else:
                step.format = raw["format"]
        getattr(self, f"_{kind}")(step, raw, loc)
        return step

    def _value(self, step, raw, loc):
        step.value = self.expr(raw["value"], loc + ("value",))

    def _exprs(self, step, raw, loc, keys):
        for key in keys:
            if key in raw:
                step.options[key] = self.expr(raw[key], loc + (key,))

    def _roll(self, step, raw, loc):
        where = self.where(loc + ("roll",))
        try:
            step.options["dice"] = dice_spec(raw["roll"], raw.get("keep"), raw.get("drop"),
                                             raw.get("reroll"))
        except ValueError as exc:
            self.problem(where, str(exc))
        self._exprs(step, raw, loc, ("times", "count"))

    def _pool(self, step, raw, loc):
        step.options["size"] = self.expr(raw["pool"], loc + ("pool",))
        step.options["dc"] = self.expr(raw.get("dc", "4"), loc + ("dc",))
        sides = str(raw.get("sides", "6"))
        if not sides.isdigit() or not 2 <= int(sides) <= 100:
            self.problem(self.where(loc + ("sides",)), "sides: a whole number from 2 to 100")
        step.options["sides"] = int(sides) if sides.isdigit() else 6
        step.options["crits"] = self.flag(raw["crits"], loc + ("crits",)) \
            if "crits" in raw else True
        under = raw.get("under_one", "keep-lowest")
        if under not in ("keep-lowest", "nothing"):
            self.problem(self.where(loc + ("under_one",)), "under_one: keep-lowest (throw "
                         "2 − size dice, keep the lowest) or nothing")
        step.options["keep_lowest"] = under == "keep-lowest"
        self._exprs(step, raw, loc, ("times",))

    def _table(self, step, raw, loc):
        step.options["table"] = self.table_ref(raw["table"], loc + ("table",))
        self._exprs(step, raw, loc, ("until", "times"))

    def _pick(self, step, raw, loc):
        step.options["table"] = self.table_ref(raw["pick"], loc + ("pick",))
        self._exprs(step, raw, loc, ("where", "unless", "count"))
        step.options["across_pack"] = self.flag(raw["across_pack"], loc + ("across_pack",)) \
            if "across_pack" in raw else False

    def _lookup(self, step, raw, loc):
        step.options["table"] = self.table_ref(raw["lookup"], loc + ("lookup",))
        if ("by" in raw) == ("row" in raw):
            self.problem(self.where(loc, key=True), "a lookup finds its row either by a "
                         "number in the rolls' ranges (by:) or by columns' values (row:)")
        self._exprs(step, raw, loc, ("by", "column"))
        if "row" in raw:
            if not isinstance(raw["row"], dict) or not raw["row"]:
                self.problem(self.where(loc + ("row",)), "row: a mapping of column: value")
            else:
                step.options["row"] = {k: self.expr(v, loc + ("row", k))
                                       for k, v in raw["row"].items()}

    def _place(self, step, raw, loc):
        step.options["rolls"] = self.expr(raw["place"], loc + ("place",))
        if "into" not in raw:
            self.problem(self.where(loc, key=True), "place: needs into: (the names, in "
                         "order, e.g. [STR, DEX, CON])")
        self._exprs(step, raw, loc, ("into", "primes"))
        step.options["shuffle"] = self.flag(raw["shuffle"], loc + ("shuffle",)) \
            if "shuffle" in raw else False
        if "swap" in raw:
            swap = raw["swap"]
            if not isinstance(swap, list) or len(swap) != 2:
                self.problem(self.where(loc + ("swap",)), "swap: two names (or expressions "
                             "giving them), e.g. [STR, CON]")
            else:
                step.options["swap"] = [self.expr(s, loc + ("swap", i))
                                        for i, s in enumerate(swap)]
        if step.options.get("primes") and step.options.get("shuffle"):
            self.problem(self.where(loc, key=True), "primes and shuffle both decide where "
                         "the numbers go: use one")

    def _fill(self, step, raw, loc):
        step.options["slots"] = self.expr(raw["fill"], loc + ("fill",))
        if "from" not in raw:
            self.problem(self.where(loc, key=True), "fill: needs from: (the table whose rows "
                         "fill the slots)")
        else:
            step.options["table"] = self.table_ref(raw["from"], loc + ("from",))
        self._exprs(step, raw, loc, ("size", "where", "unless"))
        step.options["repeats"] = self.flag(raw["repeats"], loc + ("repeats",)) \
            if "repeats" in raw else True

    def _choose(self, step, raw, loc):
        step.options["options"] = self.expr(raw["choose"], loc + ("choose",))
        self._exprs(step, raw, loc, ("weights",))

    def _inventory(self, step, raw, loc):
        entries = raw["inventory"]
        if not isinstance(entries, list) or not entries:
            self.problem(self.where(loc + ("inventory",)), "inventory: a list of what it "
                         "adds ({item: …, quantity: …})")
            return
        step.options["entries"] = [e for i, item in enumerate(entries)
                                   if (e := self.entry(item, loc + ("inventory", i)))]

    def entry(self, raw, loc) -> Entry | None:
        where = self.where(loc)
        if not isinstance(raw, dict):
            self.problem(where, "each line of an inventory is a mapping (item:, quantity:, "
                         "kind:, each:, when:, table:, times:)")
            return None
        entry = Entry(where)
        if "item" not in raw:
            self.problem(where, "item: what is added (an expression; `it` is each of "
                         "`each`, `row` the row of `table`)")
        for key, value in raw.items():
            if key == "table":
                entry.table = self.table_ref(value, loc + (key,))
            elif key == "kind":
                entry.kind = self.text(value, loc + (key,))
            elif key in ENTRY_KEYS:
                setattr(entry, key, self.expr(value, loc + (key,)))
            elif NAME_RE.match(str(key)) and key not in ("name",):
                expr = self.expr(value, loc + (key,))
                if expr is not None:    # (else its problem is said: the recipe fails)
                    entry.fields[key] = expr
            else:
                self.problem(self.where(loc + (key,), key=True), f"'{key}' cannot be an "
                             "item's field (item, quantity and kind are built in)")
        if entry.table is not None and entry.each is not None:
            self.problem(where, "a line takes either each: (a list) or table: (a roll), "
                         "not both")
        return entry


def dice_of(step: Step) -> DiceSpec | None:
    return step.options.get("dice")
