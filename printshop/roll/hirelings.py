"""Rolling hirelings: tier, profession, name, quirk and hit points, from the project's tables.

Every number comes from YAML: the tier table (`hireling-tiers`: cost, expertise, chance of
finding as `chance_in` in `chance_of`), the name, profession and quirk tables, and the
hireling deck's settings (`decks/hirelings.yaml`: the Hit Die, the hit points of a Tier 0
hireling, who has no Hit Dice, and the morale reminder). Hireling n of a seed is the same
whatever the count: each has its own generator.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path

from printshop.dice import item_rng, parse_dice
from printshop.errors import PrintshopError, Problems
from printshop.source.decks import HirelingSettings
from printshop.source.tables import Row, Table

KIND = "hireling"


@dataclass(frozen=True)
class Tier:
    tier: int
    cost: str
    expertise: int
    chance: str
    description: str
    weight: int     # chance of finding, scaled to whole numbers over all tiers
    line: int


@dataclass(frozen=True)
class Hireling:
    seed: str
    index: int                 # 1-based, within the seed (and forced tier)
    forced_tier: int | None    # rolled with --tier (its own sequence of hirelings)
    id: str                    # "SEED town #7", or "SEED town T2 #7" with a forced tier
    name: str
    profession: str
    good_at: str
    will_not: str
    tier: int
    standing: str              # the tier's description: Unskilled … the best there has been
    daily_cost: str
    expertise: int
    hit_dice: int
    hit_points: int
    hit_points_roll: str       # what was rolled: "3d6", or "1d4" for Tier 0
    quirk: str
    morale: str
    profession_line: int       # where the texts come from, for messages
    quirk_line: int

    def as_data(self) -> dict:
        """Plain data for templates and JSON (without the source lines)."""
        data = asdict(self)
        del data["profession_line"], data["quirk_line"]
        return data


@dataclass
class HirelingTables:
    tiers: list[Tier]
    tiers_table: Table
    professions: Table
    first_names: Table
    family_names: Table
    quirks: Table
    settings: HirelingSettings

    @property
    def tier_numbers(self) -> list[int]:
        return [t.tier for t in self.tiers]

    def tier(self, number: int) -> Tier:
        for tier in self.tiers:
            if tier.tier == number:
                return tier
        raise KeyError(number)


def hireling_tables(project_tables: dict[str, Table], settings: HirelingSettings,
                    deck_path: Path | None = None) -> HirelingTables:
    problems = Problems()
    where = deck_path or "decks/hirelings.yaml"
    named = {}
    for key in ("tiers", "professions", "first_names", "family_names", "quirks"):
        table_id = getattr(settings, key)
        if table_id not in project_tables:
            problems.add(where, f"hirelings.{key}: no table '{table_id}' in tables/")
        else:
            named[key] = project_tables[table_id]
    problems.raise_if_any()
    needs = {"tiers": ("tier", "cost", "expertise", "chance", "description", "chance_in",
                       "chance_of"),
             "professions": ("profession", "good_at", "will_not"),
             "first_names": ("name",), "family_names": ("name",), "quirks": ("quirk",)}
    for key, columns in needs.items():
        have = {c.key for c in named[key].columns}
        missing = [c for c in columns if c not in have]
        if missing:
            problems.add(named[key].path, f"the hireling roller needs column(s) "
                         f"{', '.join(missing)} here", 1)
    problems.raise_if_any()
    return HirelingTables(_tiers(named["tiers"]), named["tiers"], named["professions"],
                          named["first_names"], named["family_names"], named["quirks"],
                          settings)


def _tiers(table: Table) -> list[Tier]:
    """Each tier with a whole-number weight: the share of a town's hirelings it makes up.

    HAMMERCRAWL!'s Chance of Finding gives Tier 0 "100 in 100" (always there) and each other
    tier its own chance (1 in 10 … 1 in 10,000): looking for someone of that tier, that is
    the chance of finding one. So a hireling met (a card turned up) is of each uncertain
    tier with exactly its chance, and of the certain tier otherwise: Tier 1 is 1 in 10 of
    them, not 1 in 11.6. A table without exactly one certain tier, or whose chances add up
    to more than 1, deals its tiers in proportion to their chances instead.
    """
    problems = Problems()
    chances = []
    for row in table.rows:
        chance_in, chance_of = row["chance_in"], row["chance_of"]
        if not (isinstance(chance_in, int) and isinstance(chance_of, int)) or chance_of <= 0 \
                or not 0 <= chance_in <= chance_of:
            problems.add(table.path, f"tier {row['tier']}: chance_in/chance_of must be whole "
                         f"numbers with 0 ≤ chance_in ≤ chance_of (got {chance_in} in "
                         f"{chance_of})", row.line)
            continue
        chances.append((row, Fraction(chance_in, chance_of)))
    problems.raise_if_any()
    certain = [row for row, chance in chances if chance == 1]
    rest = sum((chance for _, chance in chances if chance != 1), Fraction(0))
    if len(certain) == 1 and rest < 1:
        shares = [(row, chance if chance != 1 else 1 - rest) for row, chance in chances]
    else:
        shares = chances
    scale = math.lcm(*(c.denominator for _, c in shares))
    tiers = [Tier(int(row["tier"]), str(row["cost"]), int(row["expertise"]),
                  str(row["chance"]), str(row["description"]), int(share * scale), row.line)
             for row, share in shares]
    if sum(t.weight for t in tiers) == 0:
        raise PrintshopError.at(table.path, "every tier has a chance of 0: no hireling could "
                                "ever be found")
    return tiers


def hireling_id(seed: str, index: int, tier: int | None = None) -> str:
    return f"SEED {seed} #{index}" if tier is None else f"SEED {seed} T{tier} #{index}"


def hireling_tier(tables: HirelingTables, seed: str, index: int) -> int:
    """The tier of hireling `index` of `seed` (the first draw of its generator): what
    `roll_hireling` gives it, without rolling the rest."""
    return _pick_tier(tables.tiers, item_rng(seed, KIND, index)).tier


def roll_hireling(tables: HirelingTables, seed: str, index: int,
                  tier: int | None = None) -> Hireling:
    """Hireling `index` (1-based) of `seed`; with `tier`, of that tier's own sequence."""
    kind = KIND if tier is None else f"{KIND}-tier-{tier}"
    rng = item_rng(seed, kind, index)
    if tier is None:
        chosen = _pick_tier(tables.tiers, rng)
    else:
        chosen = tables.tier(tier)
    profession = tables.professions.pick(rng)
    first = tables.first_names.pick(rng)
    family = tables.family_names.pick(rng)
    quirk = tables.quirks.pick(rng)
    settings = tables.settings
    if chosen.tier > 0:
        die = parse_dice(settings.hit_die)
        dice_text = f"{chosen.tier}d{die.sides}"
        hit_points = sum(die.roll(rng).total for _ in range(chosen.tier))
    else:
        dice = parse_dice(settings.zero_hd_hit_points)
        dice_text = dice.text
        hit_points = dice.roll(rng).total
    return Hireling(
        seed=seed, index=index, forced_tier=tier, id=hireling_id(seed, index, tier),
        name=_full_name(first, family), profession=str(profession["profession"]),
        good_at=str(profession["good_at"]), will_not=str(profession["will_not"]),
        tier=chosen.tier, standing=chosen.description, daily_cost=chosen.cost,
        expertise=chosen.expertise, hit_dice=chosen.tier, hit_points=max(1, hit_points),
        hit_points_roll=dice_text, quirk=str(quirk["quirk"]), morale=settings.morale,
        profession_line=profession.line, quirk_line=quirk.line)


def roll_hirelings(tables: HirelingTables, seed: str, count: int,
                   tier: int | None = None, first: int = 1) -> list[Hireling]:
    """Hirelings `first` … `first + count - 1` of `seed` (of `tier`'s own sequence)."""
    return [roll_hireling(tables, seed, i, tier) for i in range(first, first + count)]


def _pick_tier(tiers: list[Tier], rng) -> Tier:
    point = rng.randrange(sum(t.weight for t in tiers))
    for tier in tiers:
        point -= tier.weight
        if point < 0:
            return tier
    raise AssertionError("unreachable")


def _full_name(first: Row, family: Row) -> str:
    surname = str(family["name"])
    return f"{first['name']} {surname}"
