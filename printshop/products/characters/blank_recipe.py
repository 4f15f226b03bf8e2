"""The blank sheet of a game with a recipe (products/characters/blank_sheet.py): which
template and stylesheets (the recipe's `sheet.blank`, else its sheet drawn with nothing
rolled), and what that template reads of a pack with nobody in it. A game without a recipe
keeps HAMMERCRAWL!'s blank-sheet.html.j2."""

from __future__ import annotations

from printshop import __version__

LEGACY_TEMPLATE = "blank-sheet.html.j2"   # HAMMERCRAWL!'s: labels from its tables
LEGACY_STYLESHEETS = ["css/fonts.css", "css/pregens.css", "css/blank-sheet.css"]


def recipe_of(sheet):
    """The game's recipe, or None for a project without recipes/."""
    if not hasattr(sheet, "_recipe"):
        from printshop.roll.recipe import load_recipe, recipe_ids
        from printshop.roll.recipe.load import default_recipe

        if sheet.options.recipe is None and not recipe_ids(sheet.project):
            sheet._recipe = None
        else:
            sheet._recipe = load_recipe(sheet.project, sheet.options.recipe or
                                       default_recipe(sheet.project))
    return sheet._recipe


def template_of(sheet) -> str:
    from printshop.roll.recipe.load import DEFAULT_TEMPLATE

    if sheet.options.template:
        return sheet.options.template
    recipe = recipe_of(sheet)
    if recipe is None:
        return LEGACY_TEMPLATE
    return recipe.blank_template or recipe.template or DEFAULT_TEMPLATE


def stylesheets_of(sheet) -> list[str]:
    from printshop.roll.recipe.load import DEFAULT_STYLESHEETS

    if sheet.options.stylesheets is not None:
        return list(sheet.options.stylesheets)
    recipe = recipe_of(sheet)
    if template_of(sheet) == LEGACY_TEMPLATE:
        return list(recipe.blank_stylesheets or LEGACY_STYLESHEETS) if recipe else \
            list(LEGACY_STYLESHEETS)
    return list(recipe.blank_stylesheets or recipe.stylesheets or DEFAULT_STYLESHEETS)


def blank_pack(sheet, paper: str) -> dict:
    """What a recipe's sheet template reads of its pack, for a sheet with no one on it."""
    from printshop.roll.recipe.layout import sheet_layout

    recipe = recipe_of(sheet)
    return {"title": sheet.options.title, "game": sheet.project.manifest.title,
            "seed": None, "count": 0, "recipe": recipe.id, "noun": recipe.noun,
            "nouns": recipe.nouns, "name_line": recipe.name_line,
            "layout": sheet_layout(recipe), "index_columns": [], "index_rows": {},
            "paper": paper, "backs": False, "version": __version__, "mix": [],
            "reprint": "", "class_roll": None, "restricted_to": [],
            "rerolled_while": []}


def blank_info(sheet, paper: str, fillable: bool, footer: str | None) -> dict:
    return {"fillable": fillable, "paper": paper, "title": sheet.options.title,
            "footer": footer or (
                "Print at 100 % for a pencil, or fill it in on screen and save it."
                if fillable else "Print at 100 % and fill it in by pencil.")}
