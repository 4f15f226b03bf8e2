"""`tables/classes.yaml`: the character classes, printed by the book and the sheets and read
by the character recipe (`records: classes`)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from printshop.errors import PrintshopError
from printshop.source.schema import Strict, validate
from printshop.source.yamlfile import load_yaml

STATS = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
SAVES = ("Area", "Body", "Death", "Luck", "Mind", "Rally")
Stat = Literal["STR", "DEX", "CON", "INT", "WIS", "CHA"]
Save = Literal["Area", "Body", "Death", "Luck", "Mind", "Rally"]


class Tracker(Strict):
    """Uses a sheet ticks off: `uses` at 1st level, coming back each day, each adventure or
    never."""

    uses: int = Field(ge=1, le=20)
    resets: Literal["day", "adventure", "never"]


class Ability(Strict):
    name: str = Field(min_length=1)
    rule: str = Field(min_length=1)
    reminder: str = Field(min_length=1, max_length=100)
    tracker: Tracker | None = None
    # A procedure a sheet lists step by step (the Berserker's rage), one short line each.
    steps: list[str] = Field(default=[], max_length=8)

    @model_validator(mode="after")
    def short_steps(self):
        long = [s for s in self.steps if len(s) > 100]
        if long:
            raise ValueError(f"steps: each step is one line of at most 100 characters "
                             f"('{long[0][:40]}…' is {len(long[0])})")
        return self


class SaveQualities(Strict):
    good: list[Save] = []
    okay: list[Save] = []
    bad: list[Save] = []

    @model_validator(mode="after")
    def each_save_once(self):
        given = self.good + self.okay + self.bad
        missing = [s for s in SAVES if s not in given]
        doubled = sorted({s for s in given if given.count(s) > 1})
        if missing or doubled:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if doubled:
                parts.append(f"given twice: {', '.join(doubled)}")
            raise ValueError("every save needs exactly one quality: " + "; ".join(parts))
        return self

    def quality_of(self, save: str) -> str:
        for quality in ("good", "okay", "bad"):
            if save in getattr(self, quality):
                return quality
        raise KeyError(save)


class CharacterClass(Strict):
    id: str = Field(pattern=r"^[a-z][a-z-]*$")
    name: str
    role: str
    prime_stats: list[Stat] = Field(min_length=1, max_length=6)
    hit_die: str = Field(pattern=r"^d(4|6|8|10|12)$")
    attack_rank: Literal["A", "B", "C", "D"]
    attack_dice: int = Field(ge=1, le=6)
    extra_attack_dice_at: list[int] = []
    movement: int = Field(ge=0)
    saves: SaveQualities
    gear: str
    bonus_language: str | None = None
    forbidden_alignments: list[str] = []
    abilities: list[Ability] = Field(min_length=1)
    # printed beside the class's name (pregen sheets, class cards): icons/NAME.svg of the
    # project or a bundled icon
    icon: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]*$")
    # (what the character roller needs besides: the recipe's per_class data,
    # recipes/characters.yaml)

    @property
    def hit_die_size(self) -> int:
        return int(self.hit_die[1:])


class ClassesFile(Strict):
    title: str
    description: str | None = None
    classes: list[CharacterClass] = Field(min_length=1)


def load_classes(path: Path) -> ClassesFile:
    doc = load_yaml(path)
    classes = validate(doc, ClassesFile)
    ids = [c.id for c in classes.classes]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        raise PrintshopError.at(path, f"class id given twice: {', '.join(doubled)}")
    from printshop.errors import Problems
    from printshop.source.icons import UnknownIcon, icon_set

    problems = Problems()
    root = path.parent.parent     # tables/classes.yaml: the project is two folders up
    for index, cls in enumerate(classes.classes):
        if cls.icon is None:
            continue
        try:
            icon_set(root).find(cls.icon)
        except UnknownIcon as exc:
            problems.at(doc.where(("classes", index, "icon")), f"icon: {exc}")
    problems.raise_if_any()
    return classes
