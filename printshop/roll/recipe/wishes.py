"""A convention's wishes about a pack, given in the manifest or on the command line:
`reroll_while` conditions (recipe expressions over the character's values) under which a
character is rolled again, e.g. `all([m <= 0 for m in values(mods)])`."""

from __future__ import annotations

import difflib
from pathlib import Path

from printshop.errors import PrintshopError
from printshop.roll.recipe.evaluate import compile_node
from printshop.roll.recipe.expr import ExprError, parse
from printshop.roll.recipe.functions import ARITY, FUNCTIONS
from printshop.roll.recipe.model import Expr, Where

BUILT_IN = ("index", "seed", "id")


def known_names(recipe) -> list[str]:
    names = list(BUILT_IN) + list(recipe.data)
    if recipe.has_classes:
        names += ["class", "class_rolls", "per_class"]
    return names + [step.name for step in recipe.steps]


def parse_wishes(pregens, texts: list[str], flag: str | None) -> list[Expr]:
    """Each condition parsed and its names checked; a problem names the option (or flag)."""
    recipe = pregens.recipe
    names = known_names(recipe)
    out = []
    for n, text in enumerate(texts):
        def fail(message: str, text: str = text):
            raise pregens._problem_at("reroll_while", f"'{text}': {message}") \
                if flag is None else PrintshopError.at(flag, f"'{text}': {message}")
        try:
            node = parse(text)
        except ExprError as exc:
            fail(f"{exc.message} (at character {exc.offset + 1})")
        for missing in sorted(node.names() - set(names)):
            close = difflib.get_close_matches(missing, names, n=1)
            made = ", ".join(n for n in names if not n.startswith("_"))
            hint = f"did you mean '{close[0]}'?" if close else \
                f"recipes/{recipe.id}.yaml makes {made}"
            fail(f"no value '{missing}' ({hint})")
        for name, count in _calls(node):
            if name not in FUNCTIONS:
                fail(f"no function '{name}'")
            low, high = ARITY[name]
            if count < low or (high is not None and count > high):
                fail(f"{name}() takes {low}{'' if high == low else ' or more'} arguments")
        where = Where(Path(flag or "reroll_while"), None, None, "reroll_while")
        out.append(Expr(text, node, compile_node(node, FUNCTIONS), where))
    return out


def _calls(node):
    if node.kind == "call":
        yield node.value, len(node.args)
    for arg in node.args:
        yield from _calls(arg)
    loop = node.extra
    if hasattr(loop, "iterable"):
        yield from _calls(loop.iterable)
        if loop.condition is not None:
            yield from _calls(loop.condition)
