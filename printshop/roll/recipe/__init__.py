"""Recipes: how a game's characters are made, written as data (`recipes/NAME.yaml`) and
rolled by printshop. docs/recipes.md is the reference; `load_recipe` reads and checks one,
`Roller` rolls characters from it."""

from printshop.roll.recipe.load import DEFAULT_RECIPE, load_recipe, recipe_ids
from printshop.roll.recipe.model import Recipe
from printshop.roll.recipe.roll import ITEM_KIND, Roller, Wishes
from printshop.roll.recipe.values import Character, Record, Roll

__all__ = ["DEFAULT_RECIPE", "ITEM_KIND", "Character", "Recipe", "Record", "Roll", "Roller",
           "Wishes", "load_recipe", "recipe_ids"]
