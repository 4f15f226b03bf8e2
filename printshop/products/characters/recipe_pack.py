"""What a pregen pack takes from the game's recipe (`roll/recipe/`): the recipe itself, its
sheet template and stylesheets, the convention's wishes (a class table, classes, conditions
to reroll), the roller, what the cover says of the pack, and the command that reprints a
character. A mixin of `Pregens` (products/characters/pregens.py)."""

from __future__ import annotations

import difflib
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

from printshop import __version__
from printshop.commands import Command, source_flag
from printshop.products.characters.classes import class_names, class_words, match_class, slug
from printshop.roll.recipe import Character, Recipe, Roller, Wishes, load_recipe

if TYPE_CHECKING:
    from printshop.errors import PrintshopError
    from printshop.project import Project


class RecipePack:
    """Needs `project`, `options` (PregensOptions), `cli_flags` and `_problem_at`."""

    # what the product it is mixed into gives it (products/characters/pregens.py)
    project: Project
    options: Any
    cli_flags: dict[str, str] | None
    _problem_at: Callable[[str, str], PrintshopError]

    _recipe: Recipe | None = None
    _roller: Roller | None = None

    @property
    def recipe(self) -> Recipe:
        """The recipe (loaded and checked once)."""
        if self._recipe is None:
            where = None
            if self.cli_flags is not None:
                where = (self.cli_flags.get("recipe", "--recipe"), None)
            from printshop.roll.recipe.load import default_recipe

            self._recipe = load_recipe(self.project, self.options.recipe or
                                       default_recipe(self.project), where=where)
        return self._recipe

    @property
    def template(self) -> str:
        from printshop.roll.recipe.load import DEFAULT_TEMPLATE

        return self.options.template or self.recipe.template or DEFAULT_TEMPLATE

    @property
    def stylesheets(self) -> list[str]:
        from printshop.roll.recipe.load import DEFAULT_STYLESHEETS

        if self.options.stylesheets is not None:
            return list(self.options.stylesheets)
        if self.recipe.stylesheets is not None:
            return list(self.recipe.stylesheets)
        return list(DEFAULT_STYLESHEETS)

    @property
    def title(self) -> str:
        return self.options.title or self.recipe.title

    def class_table_key(self) -> str | None:
        """The recipe's class table this pack rolls on (None: a game without classes)."""
        recipe = self.recipe
        key = self.options.class_table
        if not recipe.has_classes:
            if key is not None:
                raise self._problem_at("class_table", f"recipes/{recipe.id}.yaml has no "
                                       "classes, so no class table to choose")
            return None
        if key is None:
            return next(iter(recipe.class_tables))
        if key not in recipe.class_tables:
            raise self._problem_at("class_table", f"'{key}' is not a class table of "
                                   f"recipes/{recipe.id}.yaml (choose "
                                   f"{' or '.join(recipe.class_tables)})")
        return key

    @property
    def roller(self) -> Roller:
        if self._roller is None:
            self._roller = Roller(self.recipe, self.project.tables, Wishes(
                class_table=self.class_table_key(), classes=self.allowed_classes(),
                reroll_while=self.reroll_wishes()))
        return self._roller

    def reroll_wishes(self) -> list:
        """The `reroll_while` expressions, parsed and checked against the recipe."""
        if not self.options.reroll_while:
            return []
        from printshop.roll.recipe.wishes import parse_wishes

        where = self.cli_flags.get("reroll_while", "--reroll-while") \
            if self.cli_flags is not None else None
        return parse_wishes(self, list(self.options.reroll_while), where)

    def allowed_classes(self) -> frozenset[str] | None:
        """The classes named by `classes` (ids, names or words of them), or None for all."""
        if not self.options.classes:
            return None
        recipe = self.recipe
        if not recipe.has_classes:
            raise self._problem_at("classes", f"recipes/{recipe.id}.yaml has no classes to "
                                   "choose from")
        from printshop.roll.recipe.step_checks import class_ids

        names = class_names(recipe, self.project.tables)
        ids = list(names)
        chosen: set[str] = set()
        for given in self.options.classes:
            matches = match_class(given, names)
            if not matches:
                close = difflib.get_close_matches(slug(given), ids + class_words(ids), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise self._problem_at("classes", f"no class '{given}'{hint}; the classes are "
                                       f"{', '.join(ids)}")
            chosen |= matches
        key = self.class_table_key()
        assert key is not None    # (a recipe with classes has a class table)
        reachable = set(class_ids(recipe, self.project.tables, recipe.class_tables[key]))
        if not chosen & reachable:
            raise self._problem_at("classes", f"the {key} class table never rolls "
                                   f"{', '.join(sorted(chosen))}")
        return frozenset(chosen & reachable)

    def pack_info(self, characters: list[Character], paper: str) -> dict:
        recipe = self.recipe
        mix = Counter(c.kind if recipe.has_classes else c.label for c in characters)
        if recipe.has_classes:
            names = class_names(recipe, self.project.tables)
            allowed = self.allowed_classes() or ()
            mix_rows = [{"name": names[cid], "count": mix[cid]} for cid in names if mix[cid]]
            key = self.class_table_key()
            assert key is not None    # (a recipe with classes has a class table)
            table = self.project.tables[recipe.class_tables[key]]
            class_roll = f"{table.title} table ({table.dice.text if table.dice else ''})"
            restricted = [names[cid] for cid in names if cid in allowed]
        else:
            mix_rows = [{"name": label, "count": n} for label, n in sorted(
                mix.items(), key=lambda item: (-item[1], item[0]))]
            class_roll, restricted = None, []
        from printshop.roll.recipe.layout import index_cells, index_columns, sheet_layout

        return {
            "title": self.title,
            "game": self.project.manifest.title,
            "seed": self.options.seed,
            "count": len(characters),
            "recipe": recipe.id,
            "class_table": self.class_table_key(),
            "class_roll": class_roll,
            "restricted_to": restricted,
            "rerolled_while": list(self.options.reroll_while),
            "mix": mix_rows,
            "paper": paper,
            "backs": self.options.backs,
            "noun": recipe.noun,
            "name_line": recipe.name_line,
            "nouns": recipe.nouns,
            "layout": sheet_layout(recipe),
            "index_columns": index_columns(recipe),
            "index_rows": {c.index: index_cells(recipe, c, self.project.tables)
                           for c in characters},
            "reprint": self.reprint_command(paper).html(),
            "version": __version__,
        }

    def reprint_command(self, paper: str, first: str = "n") -> Command:
        """`printshop roll characters` printing sheet `first` (a number, or the placeholder
        the cover explains) exactly as this pack or kit prints it: every option that
        changes the sheet (the recipe and the convention's wishes among them), and only
        that sheet (and its back), with the kit's table and seat above its seed."""
        from printshop.roll.recipe.load import default_recipe

        o = self.options
        options: list[tuple[str, str | None]] = []
        source = source_flag(self.project.root)
        if source:
            options.append(("--source", source))
        options.append(("--seed", o.seed))
        if self.recipe.id != default_recipe(self.project):
            options.append(("--recipe", self.recipe.id))
        if o.classes:
            options.append(("--class", ",".join(o.classes)))
        if o.class_table is not None and o.class_table != self.class_table_key_default():
            options.append(("--class-table", o.class_table))
        options += [("--reroll-while", wish) for wish in o.reroll_while]
        options.append(("--paper", paper))
        if o.backs:
            options.append(("--backs", None))
        if o.seats and o.characters_per_seat:
            options += [("--seats", str(o.seats)),
                        ("--per-seat", str(o.characters_per_seat))]
        options += [("--no-cover", None), ("--first", first), ("--count", "1")]
        return Command(("printshop", "roll", "characters"), tuple(options))

    def class_table_key_default(self) -> str | None:
        recipe = self.recipe
        return next(iter(recipe.class_tables)) if recipe.has_classes else None
