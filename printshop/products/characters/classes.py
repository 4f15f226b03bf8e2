"""Naming classes for a pregen pack (`classes:` in the manifest, `--class` on the command
line): an id, a name, or a run of whole words of one (`human` names all four humans)."""

from __future__ import annotations

import re

from printshop.roll.recipe import Recipe


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def class_words(ids: list[str]) -> list[str]:
    return sorted({word for cid in ids for word in cid.split("-")})


def class_names(recipe: Recipe, tables) -> dict[str, str]:
    """Class id → its name, for every class the recipe's class tables can roll, in the order
    of the records (tables/classes.yaml), else of the tables."""
    from printshop.roll.recipe.step_checks import class_ids, final_rows

    ids = class_ids(recipe, tables)
    if recipe.records:
        order = [cid for cid in recipe.records if cid in ids]
        return {cid: str(recipe.records[cid].get("name") or cid) for cid in order}
    names: dict[str, str] = {}
    for table_id in recipe.class_tables.values():
        for _owner, row in final_rows(table_id, tables):
            cid = row.values.get("id")
            if cid is not None and cid not in names:
                names[cid] = str(row.values.get("name") or row.values.get("class") or cid)
    return names


def match_class(given: str, names: dict[str, str]) -> set[str]:
    """`fighter`, `Human Fighter`, `human-fighter`, `half-ogre`, `human` (all four humans):
    a class matches when the name is its id or a run of whole words of it."""
    wanted = slug(given)
    if not wanted:
        return set()
    found = set()
    for cid, name in names.items():
        words = cid.split("-")
        want = wanted.split("-")
        if wanted in (cid, slug(name)) or any(
                words[i:i + len(want)] == want for i in range(len(words) - len(want) + 1)):
            found.add(cid)
    return found
