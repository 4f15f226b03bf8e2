"""What the generic character sheet (templates/character-sheet.html.j2) shows, from the
recipe: the stat block (a `place` step's scores, with the modifiers beside them), big boxes
for numbers, lines for words, lists, small tables for records. A recipe may say it itself:

    sheet:
      layout:
        stats: {scores: stats, mods: mods, label: Attributes}
        boxes: [hp, defence]
        lines: [title, background]
        lists: [gear]
        tables: [saves]

Without `layout:` each value (not a `_private` one, nor `show: hidden`) goes where its kind
of value goes, in step order; `show:` on a step moves one. The same layout, without values,
is the blank sheet's.
"""

from __future__ import annotations

from typing import Any

from printshop.roll.recipe import abstract as A
from printshop.roll.recipe.abstract import Known, ListOf, Rec, Rows, Span

PARTS = ("stats", "boxes", "lines", "lists", "tables")
LONG_TEXT = 14   # a text longer than this goes on a line, not in a box


def label_of(step) -> str:
    if step.label:
        return step.label
    return step.name.replace("_", " ").strip().capitalize()


def read_layout(raw, reader) -> dict:
    if not isinstance(raw, dict):
        reader.problem(reader.where(("sheet", "layout")), "layout: a mapping of "
                       f"{', '.join(PARTS)}")
        return {}
    reader.unknown_keys(raw, PARTS, ("sheet", "layout"), "layout")
    layout: dict = {}
    for part in PARTS:
        if part not in raw:
            continue
        loc = ("sheet", "layout", part)
        value = raw[part]
        if part == "stats":
            if not isinstance(value, dict) or "scores" not in value:
                reader.problem(reader.where(loc), "stats: {scores: NAME, mods: NAME, label: "
                               "TEXT}")
                continue
            reader.unknown_keys(value, ("scores", "mods", "label"), loc, "stats")
            layout["stats"] = {k: str(v) for k, v in value.items()}
        elif not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            reader.problem(reader.where(loc), f"{part}: a list of the recipe's value names")
        else:
            layout[part] = [(v, loc + (n,)) for n, v in enumerate(value)]
    return layout


def check_layout(recipe, scope: dict, reader) -> None:
    names = {step.name for step in recipe.steps}
    for part, value in recipe.layout.items():
        if part == "stats":
            for key in ("scores", "mods"):
                if key in value and value[key] not in names:
                    reader.problem(reader.where(("sheet", "layout", "stats", key)),
                                   f"no step '{value[key]}' in the recipe")
            continue
        for name, loc in value:
            if name not in names:
                reader.problem(reader.where(loc), f"no step '{name}' in the recipe")


def _is_number(shape) -> bool:
    span = A.span_of(shape) if not isinstance(shape, (Rec, ListOf, Rows)) else None
    if isinstance(shape, Span):
        return True
    return span is not None and not any(isinstance(o, bool) for o in A.options_of(shape) or [])


def _is_short(shape) -> bool:
    options = A.options_of(shape)
    return options is not None and all(isinstance(o, str) and len(o) <= LONG_TEXT
                                       for o in options)


def sheet_layout(recipe) -> dict:
    """{stats: {scores, mods, label, names}, boxes, lines, lists, tables: [(name, label,
    format)]}."""
    cached = getattr(recipe, "_sheet_layout", None)
    if cached is None:
        cached = recipe._sheet_layout = _layout(recipe)
    return cached


def _layout(recipe) -> dict:
    steps = {step.name: step for step in recipe.steps}
    shapes = recipe.shapes
    layout: dict[str, Any] = {part: [] for part in PARTS[1:]}
    layout["stats"] = None
    explicit = recipe.layout
    if explicit:
        if "stats" in explicit:
            stats = dict(explicit["stats"])
            layout["stats"] = _stats(stats["scores"], stats.get("mods"), stats.get("label"),
                                     steps, shapes)
        for part in PARTS[1:]:
            layout[part] = [_entry(steps[name]) for name, _ in explicit.get(part, ())
                            if name in steps]
        return layout
    placed = [s for s in recipe.steps if s.kind == "place" and isinstance(shapes.get(s.name), Rec)]
    used = set()
    if placed:
        scores = placed[0].name
        keys = list(shapes[scores].fields)
        mods = next((s.name for s in recipe.steps if s.name != scores and
                     isinstance(shapes.get(s.name), Rec) and list(shapes[s.name].fields) == keys
                     and all(_is_number(v) for v in shapes[s.name].fields.values())), None)
        layout["stats"] = _stats(scores, mods, None, steps, shapes)
        used = {scores, mods}
    for step in recipe.steps:
        if step.name.startswith("_") or step.name in used or step.show == "hidden":
            continue
        part = _part(step, shapes.get(step.name))
        if part == "stats":
            part = "tables"
        layout[part].append(_entry(step))
    return layout


def _entry(step) -> tuple[str, str, str | None]:
    """(name, label, format) of a value the sheet shows."""
    return step.name, label_of(step), step.format


def _part(step, shape) -> str:
    if step.show:
        return {"box": "boxes", "line": "lines", "list": "lists", "table": "tables",
                "stats": "tables"}[step.show]
    if isinstance(shape, ListOf):
        return "lists"
    if isinstance(shape, Known) and isinstance(shape.value, list):
        return "lists"
    if isinstance(shape, Rec) or (isinstance(shape, Known) and isinstance(shape.value, dict)):
        return "tables"
    if _is_number(shape) or _is_short(shape):
        return "boxes"
    return "lines"


def _stats(scores, mods, label, steps, shapes) -> dict:
    shape = shapes.get(scores)
    names = list(shape.fields) if isinstance(shape, Rec) else []
    return {"scores": scores, "mods": mods, "label": label or label_of(steps[scores]),
            "names": names}


def index_columns(recipe) -> list[str]:
    """The headings of a pack's index (after # and the character's label)."""
    if recipe.index:
        return [label for label, _ in recipe.index]
    layout = sheet_layout(recipe)
    return [label for _, label, _ in layout["boxes"][:3]]


def index_cells(recipe, character, tables) -> list:
    """What the index lists for one character, in `index_columns` order."""
    if recipe.index:
        from printshop.roll.recipe.evaluate import CTX
        from printshop.roll.recipe.functions import Context
        from printshop.roll.recipe.steps import evaluate

        env = {CTX: Context(tables), "index": character.index, "seed": character.pack_seed,
               "id": character.id, **recipe.data, **character.values}
        return [evaluate(expr, env) for _, expr in recipe.index]
    layout = sheet_layout(recipe)
    return [character.values.get(name) for name, _, _ in layout["boxes"][:3]]
