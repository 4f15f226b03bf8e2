"""Naming classes for a pregen pack (`classes:` in the manifest, `--class` on the command
line): an id, a name, or a run of whole words of one (`human` names all four humans)."""

from __future__ import annotations

import re

from printshop.roll.character_rules import CharacterRules


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def class_words(ids: list[str]) -> list[str]:
    return sorted({word for cid in ids for word in cid.split("-")})


def match_class(given: str, rules: CharacterRules) -> set[str]:
    """`fighter`, `Human Fighter`, `human-fighter`, `half-ogre`, `human` (all four humans):
    a class matches when the name is its id or a run of whole words of it."""
    wanted = slug(given)
    if not wanted:
        return set()
    found = set()
    for cid, cls in rules.classes.items():
        words = cid.split("-")
        want = wanted.split("-")
        if wanted in (cid, slug(cls.name)) or any(
                words[i:i + len(want)] == want for i in range(len(words) - len(want) + 1)):
            found.add(cid)
    return found
