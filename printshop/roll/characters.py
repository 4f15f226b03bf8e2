"""Rolling HAMMERCRAWL! characters exactly by the Player's Guide's character creation steps.

`roll_character(rules, pack_seed, index)` is a pure function: the same seed and index give
the same character whatever else is in the pack (one generator per character, from
`dice.item_rng`). Every number comes from the project's tables (`CharacterRules`); this
module holds only the procedure. The result is plain data: sheets, cards and the JSON export
all read the same `Character`.
"""

from __future__ import annotations

import random
import re

from printshop.dice import DiceRoll, item_rng, parse_dice
from printshop.errors import PrintshopError, Problem
from printshop.roll.character_data import (AbilityNote, Armour, Character, Item, Rolls, Shield,
                                           Skill, Spell, ThiefSkill, Weapon)
from printshop.roll.character_rules import (MAX_THEN_DEPTH, NO_STAT, CharacterRules,
                                            spell_failure_percent)
from printshop.source.classes import SAVES, STATS, CharacterClass
from printshop.source.tables import Row, Table

ITEM_KIND = "character"  # the `kind` of item_rng: characters have their own stream
MAX_CLASS_REROLLS = 10_000  # with --class, reroll until an allowed class comes up
_AMMO_RE = re.compile(r"^(\d+)\s+(.+)$")


def assign_stats(rolls: list[int] | tuple[int, ...], prime_stats) -> dict[str, int]:
    """Step 4: the highest rolls, kept in roll order, go to the prime stats in sheet order;
    on a tie the earlier roll counts as higher. The rest go, in roll order, to the rest."""
    primes = [s for s in STATS if s in prime_stats]
    by_height = sorted(range(len(rolls)), key=lambda i: (-rolls[i], i))
    prime_rolls = sorted(by_height[:len(primes)])
    other_rolls = [i for i in range(len(rolls)) if i not in prime_rolls]
    others = [s for s in STATS if s not in primes]
    stats = {stat: rolls[i] for stat, i in zip(primes, prime_rolls)}
    stats.update({stat: rolls[i] for stat, i in zip(others, other_rolls)})
    return {stat: stats[stat] for stat in STATS}


def roll_class(rules: CharacterRules, rng: random.Random,
               allowed: frozenset[str] | None = None) -> tuple[CharacterClass, Rolls]:
    """Step 1: roll on the class table (and on where it sends you). With `allowed`, roll
    again until an allowed class comes up, which keeps the table's odds between them."""
    for _ in range(MAX_CLASS_REROLLS):
        first, row = rules.class_table.roll(rng)
        follow_up = None
        depth = 0
        while row.then and depth < MAX_THEN_DEPTH:
            result, row = rules.table(row.then).roll(rng)
            follow_up = result.total
            depth += 1
        if allowed is None or row["id"] in allowed:
            return rules.classes[row["id"]], Rolls(first.faces, follow_up, ())
    raise PrintshopError(Problem(str(rules.class_table.path), "no allowed class came up in "
                                 f"{MAX_CLASS_REROLLS} rolls"))


def _mod(rules: CharacterRules, score: int) -> int:
    return rules.table("stat-modifiers").row_for(score)["mod"]


def _level_bonus(divisor: int, level: int) -> int:
    return 0 if divisor == 0 else level // divisor


def _pick(table: Table, rng: random.Random, exclude=()) -> Row:
    if table.dice is not None:
        while True:
            _, row = table.roll(rng)
            if row not in exclude:
                return row
    return table.pick(rng, exclude=exclude)


def _number(rules: CharacterRules, sub_stat: str, field_name: str = "base") -> int:
    return rules.sub_stats[sub_stat][field_name]


def _counted(rules: CharacterRules, sub_stat: str, mod: int) -> int:
    return max(_number(rules, sub_stat, "minimum"), _number(rules, sub_stat) + mod)


def roll_character(rules: CharacterRules, pack_seed: str, index: int,
                   allowed: frozenset[str] | None = None) -> Character:
    """Character `index` (1-based) of the pack `pack_seed`."""
    rng = item_rng(pack_seed, ITEM_KIND, index)
    cls, class_rolls = roll_class(rules, rng, allowed)

    stat_dice = rules.table("stat-modifiers").dice
    stat_rolls = tuple(stat_dice.roll(rng).total for _ in STATS)
    stats = assign_stats(stat_rolls, cls.prime_stats)
    mods = {stat: _mod(rules, score) for stat, score in stats.items()}

    alignments = rules.table("alignments")
    barred = [r for r in alignments.rows if r["alignment"] in cls.forbidden_alignments]
    alignment = alignments.pick(rng, exclude=barred)["alignment"]

    skill_rows = rules.table("skills").sample(rng, _counted(rules, "skills", mods["INT"]))
    skills = tuple(Skill(r["skill"], r["stat"]) for r in skill_rows)

    languages = list(rules.sub_stats["languages"].get("always") or [])
    if cls.bonus_language and cls.bonus_language not in languages:
        languages.append(cls.bonus_language)
    language_table = rules.table("languages")
    known = [r for r in language_table.rows if r["language"] in languages]
    extra = language_table.sample(rng, _counted(rules, "languages", mods["INT"]), exclude=known)
    languages += [r["language"] for r in extra]

    spells: tuple[Spell, ...] = ()
    spell_list = None
    if cls.spellbook:
        book = cls.spellbook
        table = rules.table(book.table)
        always = [r for name in book.always for r in table.rows if r["spell"] == name]
        rolled = table.sample(rng, max(0, book.count + mods[book.stat]), exclude=always)
        spells = tuple(Spell(r["spell"], r["summary"]) for r in always + rolled)
        spell_list = table.title

    bailiwick = failing = None
    thief_skills: tuple[ThiefSkill, ...] = ()
    if cls.thief_skills:
        table = rules.table(cls.thief_skills.table)
        if cls.thief_skills.bailiwick:
            best = _pick(table, rng)
            worst = _pick(table, rng, exclude=[best])
            bailiwick, failing = best["skill"], worst["skill"]
        edges = {bailiwick: "advantage", failing: "disadvantage"}
        thief_skills = tuple(
            ThiefSkill(r["skill"], r["stat"],
                       edges.get(r["skill"]) or _edge(r.get("edge")))
            for r in table.rows)

    kit = _roll_kit(rules, cls, rng)

    armour, shield = kit["armour"], kit["shield"]
    dex_to_ac = mods["DEX"]
    if armour is not None and armour.type in cls.armour_ignores_negative_dex:
        dex_to_ac = max(0, dex_to_ac)
    ac = _number(rules, "ac") + dex_to_ac + (armour.bonus if armour else 0) + \
        (shield.bonus if shield else 0)

    level = _number(rules, "level")
    rank_row = next(r for r in rules.table("attack-ranks").rows if r["rank"] == cls.attack_rank)
    attack_bonus = _level_bonus(rank_row["divisor"], level)
    divisors = {r["quality"].lower(): r["divisor"] for r in rules.table("save-qualities").rows}
    save_rows = {r["save"]: r for r in rules.table("saving-throws").rows}
    saves, qualities, save_stats = {}, {}, {}
    for save in SAVES:
        quality = cls.saves.quality_of(save)
        stat = save_rows[save]["stat"]
        stat = None if stat in NO_STAT else stat
        saves[save] = _level_bonus(divisors[quality], level) + (mods[stat] if stat else 0)
        qualities[save] = quality.title()
        save_stats[save] = stat

    failure_rows = {r["class"]: r for r in rules.table("armour-spell-failure").rows}
    spell_failure = None
    if cls.id in failure_rows:
        spell_failure = spell_failure_percent(failure_rows[cls.id],
                                              armour.type if armour else None)

    abilities = tuple(
        AbilityNote(a.name, a.reminder,
                    a.tracker.uses if a.tracker else 0,
                    a.tracker.resets if a.tracker else None,
                    tuple(a.steps))
        for a in cls.abilities)

    background = rules.table("backgrounds").pick(rng)["background"]
    personality = rules.table("personality-traits").pick(rng)["trait"]
    appearance = rules.table("appearances").pick(rng)["appearance"]

    return Character(
        pack_seed=pack_seed, index=index, class_id=cls.id, class_name=cls.name,
        role=cls.role,
        rolls=Rolls(class_rolls.class_dice, class_rolls.follow_up, stat_rolls),
        stats=stats, mods=mods, prime_stats=tuple(s for s in STATS if s in cls.prime_stats),
        level=level, tier=_number(rules, "tier"), xp=_number(rules, "xp"),
        xp_next=_number(rules, "xp-next"), hit_die=cls.hit_die,
        hp=max(_number(rules, "hp", "minimum"), cls.hit_die_size + mods["CON"]),
        ac=ac, armour=armour, shield=shield, attack_rank=cls.attack_rank,
        attack_bonus=attack_bonus, attack_dice=cls.attack_dice,
        melee_attack=mods["STR"] + attack_bonus, melee_damage=mods["STR"],
        missile_attack=mods["DEX"] + attack_bonus, movement=cls.movement,
        saves=saves, save_qualities=qualities, save_stats=save_stats, alignment=alignment,
        skills=skills, languages=tuple(languages), spells=spells, spell_list=spell_list,
        spell_failure=spell_failure, bailiwick=bailiwick, failing=failing,
        class_thief_skills=thief_skills, abilities=abilities, weapons=kit["weapons"],
        equipment=kit["items"], background=background, personality=personality,
        appearance=appearance, gear_limits=cls.gear,
        extra_attack_dice_at=tuple(cls.extra_attack_dice_at))


def _edge(text) -> str | None:
    if text is None or str(text).strip() in NO_STAT:
        return None
    return str(text).strip()


def _quantity(text, rng: random.Random) -> int:
    text = str(text).strip()
    if text.isdigit():
        return int(text)
    roll: DiceRoll = parse_dice(text).roll(rng)
    return roll.total


def _roll_kit(rules: CharacterRules, cls: CharacterClass, rng: random.Random) -> dict:
    """Step 8: the class's kit roll, then the basics, a light and an oddment."""
    _, kit = rules.table(cls.starting_kit).roll(rng)
    weapon_rows = {r["weapon"]: r for r in rules.table("weapons").rows}
    items: list[Item] = []

    def add(name: str, quantity: int, kind: str) -> None:
        for i, item in enumerate(items):
            if item.name == name and item.kind == kind:
                items[i] = Item(name, item.quantity + quantity, kind)
                return
        items.append(Item(name, quantity, kind))

    weapons = []
    for name in kit["weapons"]:
        row = weapon_rows[name]
        if name not in [w.name for w in weapons]:
            weapons.append(Weapon(name, row["size"], row["use"], row.get("note"),
                                  "no-damage" not in (row.get("tags") or [])))
        add(name, 1, "weapon")
    for name in kit["weapons"]:
        ammo = weapon_rows[name].get("ammo")
        if ammo:
            match = _AMMO_RE.match(str(ammo))
            if match:
                add(match[2][:1].upper() + match[2][1:], int(match[1]), "ammo")
            else:
                add(str(ammo), 1, "ammo")
    armour = shield = None
    if kit.get("armour") is not None:
        row = next(r for r in rules.table("armour").rows if r["name"] == kit["armour"])
        armour = Armour(row["name"], row["type"], row["bonus"])
        add(armour.name, 1, "armour")
    if kit.get("shield") is not None:
        row = next(r for r in rules.table("shields").rows if r["name"] == kit["shield"])
        shield = Shield(row["name"], row["bonus"])
        add(shield.name, 1, "shield")
    _, light = rules.table("kit-light").roll(rng)
    add(light["item"], light["quantity"], "light")
    for row in rules.table("kit-basics").rows:
        if not row.get("classes") or cls.id in row["classes"]:
            add(row["item"], _quantity(row["quantity"], rng), "gear")
    _, oddment = rules.table("kit-oddments").roll(rng)
    add(oddment["item"], 1, "gear")
    return {"weapons": tuple(weapons), "items": tuple(items), "armour": armour,
            "shield": shield}


def roll_pack(rules: CharacterRules, pack_seed: str, count: int,
              allowed: frozenset[str] | None = None, start: int = 1) -> list[Character]:
    return [roll_character(rules, pack_seed, index, allowed)
            for index in range(start, start + count)]
