"""The dice a recipe throws: plain dice (`3d6`, `d66`, `1d4+1`), kept or dropped dice
(`4d6` keep highest 3), rerolls (`reroll: 1`), and pools counted as hits against a DC.

Plain dice go through `printshop.dice` exactly as the tables' own rolls do, so a recipe
draws the same numbers from a character's generator as the code it replaced.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from printshop.dice import Dice, parse_dice
from printshop.roll.recipe.values import Pool, Roll

_KEEP_RE = re.compile(r"^\s*(highest|lowest)\s+(\d+)\s*$", re.IGNORECASE)
_FACES_RE = re.compile(r"^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$")
MAX_EXPLOSIONS = 100   # a pool's crits that roll again, at most (a d2 "pool" would not stop)


@dataclass(frozen=True)
class DiceSpec:
    dice: Dice
    keep: tuple[str, int] | None = None     # ("highest", 3): keep the 3 highest
    drop: tuple[str, int] | None = None     # ("lowest", 1)
    reroll: frozenset[int] = frozenset()    # faces rolled again, once

    @property
    def text(self) -> str:
        text = self.dice.text
        if self.keep:
            text += f" keep {self.keep[0]} {self.keep[1]}"
        if self.drop:
            text += f" drop {self.drop[0]} {self.drop[1]}"
        if self.reroll:
            text += f" reroll {','.join(map(str, sorted(self.reroll)))}"
        return text

    def outcomes(self, count: int | None = None) -> tuple[int, int]:
        """The lowest and highest total."""
        dice = self.dice
        if dice.d66:
            return 11, 66
        n = dice.count if count is None else count
        kept = n
        if self.keep:
            kept = min(n, self.keep[1])
        if self.drop:
            kept = max(0, kept - self.drop[1])
        return kept + dice.modifier, kept * dice.sides + dice.modifier

    def roll(self, rng: random.Random, count: int | None = None) -> Roll:
        dice = self.dice
        if count is not None and not dice.d66:
            dice = Dice(max(0, count), dice.sides, dice.modifier)
        if not (self.keep or self.drop or self.reroll):
            rolled = dice.roll(rng)
            return Roll(rolled.total, rolled.faces, dice=self.text)
        faces = []
        for _ in range(dice.count):
            face = rng.randrange(1, dice.sides + 1)
            if face in self.reroll:
                face = rng.randrange(1, dice.sides + 1)
            faces.append(face)
        kept = list(faces)
        order = sorted(range(len(kept)), key=lambda i: kept[i])   # lowest first, stable
        chosen = list(range(len(kept)))
        if self.keep:
            how, n = self.keep
            chosen = order[:n] if how == "lowest" else order[len(order) - n:] if n else []
        if self.drop:
            how, n = self.drop
            remaining = [i for i in order if i in chosen]
            gone = remaining[:n] if how == "lowest" else remaining[len(remaining) - n:] if n \
                else []
            chosen = [i for i in chosen if i not in gone]
        kept = [faces[i] for i in sorted(chosen)]
        return Roll(sum(kept) + dice.modifier, faces, kept, dice=self.text)


def dice_spec(text, keep=None, drop=None, reroll=None) -> DiceSpec:
    """ValueError says what is wrong with any part."""
    dice = parse_dice(text)
    parts = {}
    for name, given in (("keep", keep), ("drop", drop)):
        if given is None:
            continue
        match = _KEEP_RE.match(str(given))
        if not match:
            raise ValueError(f"{name}: '{given}' should read like 'highest 3' or 'lowest 1'")
        if dice.d66:
            raise ValueError(f"{name}: d66 is read as two digits; nothing to {name}")
        n = int(match[2])
        if n > dice.count:
            raise ValueError(f"{name}: {dice.text} throws only {dice.count} dice")
        parts[name] = (match[1].lower(), n)
    faces: set[int] = set()
    if reroll is not None:
        for item in reroll if isinstance(reroll, list) else str(reroll).split(","):
            match = _FACES_RE.match(str(item))
            if not match:
                raise ValueError(f"reroll: '{item}' is not a face or a range of faces (1, 1-2)")
            low = int(match[1])
            high = int(match[2]) if match[2] else low
            if not 1 <= low <= high <= dice.sides:
                raise ValueError(f"reroll: a d{dice.sides} has no face {item}")
            faces.update(range(low, high + 1))
        if len(faces) >= dice.sides:
            raise ValueError("reroll: every face would be rolled again")
    return DiceSpec(dice, parts.get("keep"), parts.get("drop"), frozenset(faces))


def roll_pool(rng: random.Random, size: int, dc: int, sides: int = 6, crits: bool = True,
              keep_lowest_under_one: bool = True) -> Pool:
    """A pool of `size` dice: a die above `dc` hits; with `crits`, a die showing its top face
    hits and throws one more die (which may do the same). A pool below one die throws
    2 − size dice and keeps the lowest (dice & danger's small pools), or none."""
    faces: list[int] = []
    if size < 1:
        if not keep_lowest_under_one:
            return Pool(0, (), 0, dc)
        thrown = [rng.randrange(1, sides + 1) for _ in range(2 - size)]
        faces.extend(thrown)
        counted = [min(thrown)]
    else:
        counted = [rng.randrange(1, sides + 1) for _ in range(size)]
        faces.extend(counted)
    hits = crits_seen = 0
    waiting = list(counted)
    explosions = 0
    while waiting:
        face = waiting.pop(0)
        if crits and face == sides:
            hits += 1
            crits_seen += 1
            if explosions < MAX_EXPLOSIONS:
                explosions += 1
                extra = rng.randrange(1, sides + 1)
                faces.append(extra)
                waiting.append(extra)
        elif face > dc:
            hits += 1
    return Pool(hits, faces, crits_seen, dc)


def pool_range(size_low: int, size_high: int, dc: int, sides: int, crits: bool) \
        -> tuple[int, int | None]:
    """Fewest and most hits a pool can give (None: no limit, crits explode)."""
    low = 0
    if crits:
        return low, None
    return low, max(1, size_high) if dc < sides else 0
