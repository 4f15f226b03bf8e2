"""Dice notation and seeded rolling.

Every random thing printshop makes comes from `item_rng(seed, kind, index)`: one generator
per item, so item n is the same whatever else is in the pack.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

_DICE_RE = re.compile(r"^\s*(\d*)\s*d\s*(\d+|%)\s*(?:([+-])\s*(\d+))?\s*$", re.IGNORECASE)
MAX_DICE = 100
MAX_SIDES = 1000


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int
    modifier: int = 0
    d66: bool = False  # two d6 read as tens and units, not summed

    @property
    def text(self) -> str:
        if self.d66:
            return "d66"
        base = f"{self.count}d{self.sides}"
        if self.modifier:
            base += f"{'+' if self.modifier > 0 else '-'}{abs(self.modifier)}"
        return base

    def outcomes(self) -> list[int]:
        """Every total these dice can give, in order."""
        if self.d66:
            return [10 * t + u for t in range(1, 7) for u in range(1, 7)]
        low = self.count + self.modifier
        high = self.count * self.sides + self.modifier
        return list(range(low, high + 1))

    def roll(self, rng: random.Random) -> "DiceRoll":
        if self.d66:
            tens, units = rng.randrange(1, 7), rng.randrange(1, 7)
            return DiceRoll(self, (tens, units), 10 * tens + units)
        faces = tuple(rng.randrange(1, self.sides + 1) for _ in range(self.count))
        return DiceRoll(self, faces, sum(faces) + self.modifier)


@dataclass(frozen=True)
class DiceRoll:
    dice: Dice
    faces: tuple[int, ...]
    total: int


def parse_dice(text) -> Dice:
    """`d6`, `1d4`, `3d6`, `1d6+1`, `2d4-1`, `d100`, `d%`, `d66`. ValueError says what is wrong."""
    source = str(text).strip()
    if source.lower() == "d66":
        return Dice(2, 6, 0, d66=True)
    match = _DICE_RE.match(source)
    if not match:
        raise ValueError(f"'{source}' is not dice notation (examples: 1d6, 3d6, 2d4+1, d66)")
    count = int(match[1]) if match[1] else 1
    sides = 100 if match[2] == "%" else int(match[2])
    modifier = int(match[4]) * (-1 if match[3] == "-" else 1) if match[3] else 0
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"'{source}': between 1 and {MAX_DICE} dice, please")
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"'{source}': a die needs 2 to {MAX_SIDES} sides")
    return Dice(count, sides, modifier)


def item_seed(pack_seed: str, kind: str, index: int) -> int:
    digest = hashlib.sha256(f"{pack_seed}/{kind}/{index}".encode("utf-8")).digest()
    return int.from_bytes(digest[:16], "big")


def item_rng(pack_seed: str, kind: str, index: int) -> random.Random:
    """The generator for item `index` of a pack: independent of every other item."""
    return random.Random(item_seed(pack_seed, kind, index))


def new_pack_seed() -> str:
    """A fresh, readable seed when the user gives none (it is printed on everything)."""
    words = ("ash", "bone", "crow", "dusk", "ember", "fang", "grim", "hex", "iron", "jinx",
             "keg", "lich", "moss", "newt", "ooze", "pike", "quill", "rot", "skull", "tomb",
             "urn", "vex", "wyrm", "yew")
    rng = random.SystemRandom()
    return f"{rng.choice(words)}-{rng.choice(words)}-{rng.randrange(100, 1000)}"
