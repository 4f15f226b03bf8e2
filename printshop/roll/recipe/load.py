"""Loading a recipe: the file read (`parse.py`), its classes and per-class data joined to the
project's tables and classes, every step checked (`check.py`, `step_checks.py`), and the
recipe's own data checks (`data_checks.py`). One `PrintshopError` with every problem, or a
`Recipe` the roller can trust.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from printshop.errors import PrintshopError, Problems
from printshop.roll.recipe.model import Check, Recipe
from printshop.roll.recipe.parse import TOP_KEYS, Reader
from printshop.roll.recipe.values import Record
from printshop.source.yamlfile import load_yaml

RECIPES_FOLDER = "recipes"
DEFAULT_RECIPE = "characters"
DEFAULT_TEMPLATE = "character-sheet.html.j2"
DEFAULT_STYLESHEETS = ["css/fonts.css", "css/pregens.css", "css/character-sheet.css"]
CLASS_TABLE_LIMIT = 12


def recipe_ids(project) -> list[str]:
    folder = project.root / RECIPES_FOLDER
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def default_recipe(project) -> str:
    """`characters`, or the project's only recipe when it has one and no other."""
    ids = recipe_ids(project)
    if DEFAULT_RECIPE not in ids and len(ids) == 1:
        return ids[0]
    return DEFAULT_RECIPE


def recipe_path(project, recipe_id: str) -> Path:
    return project.root / RECIPES_FOLDER / f"{recipe_id}.yaml"


def load_recipe(project, recipe_id: str = DEFAULT_RECIPE, where=None) -> Recipe:
    """The project's recipe `recipes/RECIPE_ID.yaml`, checked against its tables."""
    path = recipe_path(project, recipe_id)
    if not path.is_file():
        known = recipe_ids(project)
        close = difflib.get_close_matches(recipe_id, known, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        place, line = where or (path, None)
        listing = ", ".join(known) if known else "none yet: docs/recipes.md shows how to " \
            "write one"
        raise PrintshopError.at(place, f"no recipe '{recipe_id}' in {RECIPES_FOLDER}/{hint}; "
                                f"recipes: {listing}", line)
    doc = load_yaml(path, keep_going=True)
    problems = Problems()
    problems.items.extend(doc.problems.items)
    if not isinstance(doc.data, dict):
        raise PrintshopError.at(path, "a recipe is a mapping (title, steps, …)", 1)
    reader = Reader(doc, problems)
    recipe = read_recipe(recipe_id, reader)
    tables = project.tables
    from printshop.roll.recipe.step_checks import check_recipe

    records = class_records(project, recipe, reader, tables)
    check_recipe(recipe, tables, records, reader)
    from printshop.roll.recipe.data_checks import run_checks

    run_checks(recipe, tables, records, reader)
    problems.raise_if_any()
    recipe.records = records
    return recipe


def read_recipe(recipe_id: str, reader: Reader) -> Recipe:
    doc, data = reader.doc, reader.doc.data
    recipe = Recipe(recipe_id, doc.path, doc)
    reader.unknown_keys(data, TOP_KEYS, (), "a recipe")
    if "title" in data:
        recipe.title = reader.text(data["title"], ("title",)) or recipe.title
    recipe.description = data.get("description")
    if "noun" in data:
        recipe.noun = reader.text(data["noun"], ("noun",)) or recipe.noun
        recipe.nouns = recipe.noun + "s"
    if "name_line" in data:
        recipe.name_line = reader.flag(data["name_line"], ("name_line",))
    if "nouns" in data:
        recipe.nouns = reader.text(data["nouns"], ("nouns",)) or recipe.nouns
    _sheet(recipe, data.get("sheet"), reader)
    if "label" in data:
        recipe.label = reader.expr(data["label"], ("label",))
    _classes(recipe, data.get("classes"), reader)
    if "data" in data:
        if not isinstance(data["data"], dict):
            reader.problem(reader.where(("data",)), "data: a mapping of name: value")
        else:
            recipe.data = {k: constant(v) for k, v in data["data"].items()}
    if "per_class" in data:
        if not recipe.has_classes:
            reader.problem(reader.where(("per_class",), key=True), "per_class: the recipe has "
                           "no classes (add classes: with the table that rolls them)")
        if not isinstance(data["per_class"], dict):
            reader.problem(reader.where(("per_class",)), "per_class: a mapping of class id: "
                           "{name: value, …}")
        else:
            recipe.per_class = same_keys({k: constant(v) if isinstance(v, dict) else Record()
                                          for k, v in data["per_class"].items()})
    steps = data.get("steps")
    if not isinstance(steps, dict) or not steps:
        reader.problem(reader.where(("steps",)), "steps: a mapping of name: step, in the "
                       "order they are done (at least one)")
    else:
        for name, raw in steps.items():
            step = reader.step(str(name), raw, ("steps", name))
            if step is not None:
                recipe.steps.append(step)
            else:
                recipe.broken.append(str(name))
    if "json" in data:
        recipe.json = _json(data["json"], ("json",), reader)
    rerolls = data.get("reroll_while")
    if rerolls is not None:
        for n, text in enumerate(rerolls if isinstance(rerolls, list) else [rerolls]):
            loc = ("reroll_while", n) if isinstance(rerolls, list) else ("reroll_while",)
            expr = reader.expr(text, loc)
            if expr:
                recipe.reroll_while.append(expr)
    if "index" in data:
        _index(recipe, data["index"], reader)
    if "checks" in data:
        _checks(recipe, data["checks"], reader)
    return recipe


def constant(value):
    """The recipe's data: texts that are whole numbers become numbers, mappings records."""
    if isinstance(value, dict):
        return Record({k: constant(v) for k, v in value.items()})
    if isinstance(value, list):
        return [constant(v) for v in value]
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("+-").isdigit() and not (len(text.lstrip("+-")) > 1 and
                                                 text.lstrip("+-").startswith("0")):
            return int(text)
        if text in ("true", "false"):
            return text == "true"
    return value


def same_keys(entries: dict) -> dict:
    """Every class's data with every key any class gives (none where it gives none), nested
    records too: `per_class.spellbook` is none for a class without a spellbook."""
    keys: dict = {}
    for entry in entries.values():
        for key, value in entry.items():
            keys.setdefault(key, []).append(value)
    out = {}
    for class_id, entry in entries.items():
        record = Record()
        for key, values in keys.items():
            value = entry.get(key)
            nested = [v for v in values if isinstance(v, dict)]
            if isinstance(value, dict) and nested:
                value = same_keys({"": value, **{str(n): v for n, v in enumerate(nested)}})[""]
            record[key] = value
        out[class_id] = record
    return out


def _sheet(recipe: Recipe, raw, reader: Reader) -> None:
    if raw is None:
        return
    if isinstance(raw, str):
        recipe.template = raw
        return
    if not isinstance(raw, dict):
        reader.problem(reader.where(("sheet",)), "sheet: a template's name, or a mapping "
                       "(template, stylesheets, layers, layout)")
        return
    reader.unknown_keys(raw, ("template", "stylesheets", "layers", "layout", "blank",
                              "blank_stylesheets"), ("sheet",), "sheet")
    if "blank" in raw:
        recipe.blank_template = reader.text(raw["blank"], ("sheet", "blank"))
    if "blank_stylesheets" in raw:
        sheets = raw["blank_stylesheets"]
        if isinstance(sheets, list) and all(isinstance(s, str) for s in sheets):
            recipe.blank_stylesheets = sheets
        else:
            reader.problem(reader.where(("sheet", "blank_stylesheets")), "blank_stylesheets: "
                           "a list of CSS files (in templates/)")
    if "template" in raw:
        recipe.template = reader.text(raw["template"], ("sheet", "template"))
    if "stylesheets" in raw:
        sheets = raw["stylesheets"]
        if not isinstance(sheets, list) or not all(isinstance(s, str) for s in sheets):
            reader.problem(reader.where(("sheet", "stylesheets")), "stylesheets: a list of "
                           "CSS files (in templates/)")
        else:
            recipe.stylesheets = sheets
    if "layers" in raw:
        recipe.layers = reader.flag(raw["layers"], ("sheet", "layers"))
    if "layout" in raw:
        from printshop.roll.recipe.layout import read_layout

        recipe.layout = read_layout(raw["layout"], reader)


def _classes(recipe: Recipe, raw, reader: Reader) -> None:
    if raw is None:
        return
    loc = ("classes",)
    if not isinstance(raw, dict) or "tables" not in raw:
        reader.problem(reader.where(loc), "classes: a mapping with tables: (name: table id, "
                       "the first the default) and, optionally, records: and name:")
        return
    reader.unknown_keys(raw, ("tables", "records", "name"), loc, "classes")
    tables = raw["tables"]
    if isinstance(tables, str):
        tables = {"default": tables}
    if not isinstance(tables, dict) or not tables or len(tables) > CLASS_TABLE_LIMIT:
        reader.problem(reader.where(loc + ("tables",)), "tables: a mapping of a name (for "
                       "--class-table) to a table id, e.g. {guide: class-roll}")
        return
    recipe.class_tables = {str(k): str(v) for k, v in tables.items()}
    if "records" in raw:
        recipe.class_records = reader.text(raw["records"], loc + ("records",))
    if "name" in raw:
        recipe.class_name = reader.expr(raw["name"], loc + ("name",))


def _json(raw, loc: tuple, reader: Reader):
    if isinstance(raw, dict):
        return {str(k): _json(v, loc + (k,), reader) for k, v in raw.items()}
    return reader.expr(raw, loc)


def _index(recipe: Recipe, raw, reader: Reader) -> None:
    if not isinstance(raw, dict):
        reader.problem(reader.where(("index",)), "index: a mapping of column heading: "
                       "expression (what the pack's index lists for each character)")
        return
    for label, text in raw.items():
        expr = reader.expr(text, ("index", label))
        if expr:
            recipe.index.append((str(label), expr))


RULES = ("one_of", "in", "is", "unique")


def _checks(recipe: Recipe, raw, reader: Reader) -> None:
    if not isinstance(raw, list):
        reader.problem(reader.where(("checks",)), "checks: a list of {table, column, and one "
                       f"of {', '.join(RULES)}}}")
        return
    for n, item in enumerate(raw):
        loc = ("checks", n)
        where = reader.where(loc)
        if not isinstance(item, dict) or "table" not in item or "column" not in item:
            reader.problem(where, "a check names a table (or tables) and a column, and one of "
                           f"{', '.join(RULES)}")
            continue
        reader.unknown_keys(item, ("table", "column", "why") + RULES, loc, "a check")
        rules = [r for r in RULES if r in item]
        if len(rules) != 1:
            reader.problem(where, f"a check takes exactly one of {', '.join(RULES)}")
            continue
        tables = item["table"]
        tables = tables if isinstance(tables, list) else [tables]
        recipe.checks.append(Check(where, [str(t) for t in tables], str(item["column"]),
                                   rules[0], item[rules[0]]))


def class_records(project, recipe: Recipe, reader: Reader, tables) -> dict[str, Record]:
    """Class id → its record: from tables/classes.yaml (`records: classes`), from a table's
    rows by their `id`, or (no records) nothing: the class is the row the roll lands on."""
    if not recipe.has_classes or recipe.class_records is None:
        return {}
    source = recipe.class_records
    where = reader.where(("classes", "records"))
    if source == "classes":
        classes = project.classes
        if classes is None:
            reader.problem(where, "records: classes reads tables/classes.yaml, which this "
                           "project does not have")
            return {}
        return {c.id: constant_model(c.model_dump()) for c in classes.classes}
    if source not in tables:
        reader.problem(where, f"records: no table '{source}' in tables/ (or 'classes' for "
                       "tables/classes.yaml)")
        return {}
    table = tables[source]
    if "id" not in {c.key for c in table.columns}:
        reader.problem(where, f"records: tables/{source}.yaml needs an 'id' column (the class "
                       "ids the class table rolls)")
        return {}
    from printshop.roll.recipe.functions import row_record

    return {row["id"]: row_record(table, row) for row in table.rows}


def constant_model(value):
    if isinstance(value, dict):
        return Record({k: constant_model(v) for k, v in value.items()})
    if isinstance(value, list):
        return [constant_model(v) for v in value]
    return value
