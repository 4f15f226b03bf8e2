"""The character roller, rule by rule (issue 3, rules 1–12), over thousands of characters.

Each test states one rule of the Player's Guide in its own terms (the numbers of the guide,
not of the code) and checks every rolled character against it. The roller only: no PDFs.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from conftest import RULES_SRC
from printshop.project import Project
from printshop.roll.recipe import Roller, Wishes, load_recipe
from printshop.roll.recipe.steps import primes_first

STATS = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
SAVES = ("Area", "Body", "Death", "Luck", "Mind", "Rally")
COUNT = 1200


@pytest.fixture(scope="module")
def project():
    return Project.load(RULES_SRC)


@pytest.fixture(scope="module")
def recipe(project):
    return load_recipe(project)


@pytest.fixture(scope="module")
def roller(project, recipe):
    return Roller(recipe, project.tables)


@pytest.fixture(scope="module")
def pack(roller):
    """The guide's class odds: mostly humans."""
    return [roller.roll("property", i) for i in range(1, COUNT + 1)]


@pytest.fixture(scope="module")
def flat_pack(project, recipe):
    """Every class equally likely, so the rare ones are well represented too."""
    roller = Roller(recipe, project.tables, Wishes(class_table="flat"))
    return [roller.roll("property-flat", i) for i in range(1, COUNT + 1)]


def rolls(c) -> dict:
    """What was rolled, as the JSON export says it: class dice, the human's d4, six 3d6."""
    return c.to_json()["rolls"]


def assign_stats(rolled, primes) -> dict:
    return primes_first(list(rolled), list(STATS), primes)


@pytest.fixture(scope="module")
def everyone(pack, flat_pack):
    return pack + flat_pack


def table_rows(project, table_id):
    return project.tables[table_id].rows


def mod_of(score: int) -> int:
    """The guide's modifier table: 3 −3, 4-5 −2, 6-8 −1, 9-12 0, 13-15 +1, 16-17 +2, 18 +3."""
    for low, high, mod in ((3, 3, -3), (4, 5, -2), (6, 8, -1), (9, 12, 0), (13, 15, 1),
                           (16, 17, 2), (18, 18, 3)):
        if low <= score <= high:
            return mod
    raise AssertionError(score)


HIT_DIE = {"dwarf-defender": 8, "elf-exemplar": 8, "halfling-burglar": 6,
           "half-ogre-berserker": 10, "human-cleric": 6, "human-fighter": 8,
           "human-magic-user": 4, "human-thief": 6}
PRIMES = {"dwarf-defender": ("STR", "CON"), "elf-exemplar": ("DEX", "INT"),
          "halfling-burglar": ("DEX", "CHA"), "half-ogre-berserker": ("STR", "CON"),
          "human-cleric": ("WIS", "CHA"), "human-fighter": ("STR", "CON"),
          "human-magic-user": ("INT",), "human-thief": ("DEX", "INT")}
BONUS_LANGUAGE = {"dwarf-defender": "Dwarf", "elf-exemplar": "Elf", "halfling-burglar": "Halfling",
                  "half-ogre-berserker": "Ogre", "human-thief": "Thieves' Cant"}
THIEF_SKILLS = {"Deciphering", "Lockpicking", "Perception", "Stealth", "Thief-climbing",
                "Tracking", "Trap-finding", "Trap-breaking"}


def test_the_pack_has_every_class(pack, flat_pack):
    assert len(pack) >= 1000 and len(flat_pack) >= 1000
    assert set(c.class_id for c in flat_pack) == set(HIT_DIE)
    assert set(c.class_id for c in pack) == set(HIT_DIE)


# --- rule 1: class ---------------------------------------------------------------------------

def test_rule_1_class_is_3d6_then_1d4_for_humans(pack):
    non_human = [(3, 4, "elf-exemplar"), (5, 7, "dwarf-defender"), (14, 16, "halfling-burglar"),
                 (17, 18, "half-ogre-berserker")]
    human = {1: "human-cleric", 2: "human-fighter", 3: "human-magic-user", 4: "human-thief"}
    for c in pack:
        dice = rolls(c)["class"]
        assert len(dice) == 3 and all(1 <= d <= 6 for d in dice)
        total = sum(dice)
        if 8 <= total <= 13:
            assert rolls(c)["human"] in human and c.class_id == human[rolls(c)["human"]]
        else:
            assert rolls(c)["human"] is None
            assert c.class_id == next(cid for low, high, cid in non_human if low <= total <= high)


def test_rule_1_the_guide_odds_favour_humans(pack):
    counts = Counter(c.class_id.startswith("human-") for c in pack)
    # 146 of 216 class rolls are human: 67.6 %
    assert 0.62 < counts[True] / len(pack) < 0.73


def test_flat_class_table_gives_every_class_an_equal_chance(flat_pack):
    counts = Counter(c.class_id for c in flat_pack)
    expected = len(flat_pack) / 8
    for class_id, n in counts.items():
        assert 0.7 * expected < n < 1.3 * expected, (class_id, n)
    assert all(len(rolls(c)["class"]) == 1 and rolls(c)["human"] is None for c in flat_pack)


# --- rule 2: stats ---------------------------------------------------------------------------

def follows_the_prime_rule(rolls, stats, primes) -> bool:
    """Some choice of roll positions P for the primes satisfies the guide's rule: the primes'
    rolls are the highest (ties: the earlier roll wins), in roll order into the primes in
    sheet order; the other rolls, in roll order, into the other stats in sheet order."""
    primes_in_sheet_order = [s for s in STATS if s in primes]
    others = [s for s in STATS if s not in primes]
    for chosen in combinations(range(6), len(primes)):
        rest = [i for i in range(6) if i not in chosen]
        if [rolls[i] for i in chosen] != [stats[s] for s in primes_in_sheet_order]:
            continue
        if [rolls[i] for i in rest] != [stats[s] for s in others]:
            continue
        if min(rolls[i] for i in chosen) < max(rolls[i] for i in rest):
            continue
        if any(rolls[i] == rolls[j] and j < i for i in chosen for j in rest):
            continue  # an equal, earlier roll was passed over
        return True
    return False


def test_rule_2_stats_are_six_3d6_with_the_highest_on_the_prime_stats(everyone):
    for c in everyone:
        stat_rolls = rolls(c)["stats"]
        assert len(stat_rolls) == 6 and all(3 <= r <= 18 for r in stat_rolls)
        assert tuple(c.prime_stats) == PRIMES[c.class_id]
        assert follows_the_prime_rule(stat_rolls, c.stats, c.prime_stats), \
            (c.id, stat_rolls, c.stats)


def test_rule_2_modifiers_follow_the_guide_table(everyone):
    for c in everyone:
        assert c.mods == {s: mod_of(c.stats[s]) for s in STATS}


def test_rule_2_the_guide_examples():
    # Mags the Thief (DEX, INT): 12, 7, 15, 9, 16, 10
    assert assign_stats([12, 7, 15, 9, 16, 10], ["DEX", "INT"]) == \
        {"STR": 12, "DEX": 15, "CON": 7, "INT": 16, "WIS": 9, "CHA": 10}
    # Darla the Fighter (STR, CON): 9, 14, 11, 10, 5, 17
    assert assign_stats([9, 14, 11, 10, 5, 17], ["STR", "CON"]) == \
        {"STR": 14, "DEX": 9, "CON": 17, "INT": 11, "WIS": 10, "CHA": 5}


def test_rule_2_on_a_tie_the_earlier_roll_is_the_prime():
    # a Magic-User rolls two 18s: the first goes to INT, the second stays in roll order
    assert assign_stats([10, 18, 5, 18, 7, 9], ["INT"]) == \
        {"STR": 10, "DEX": 5, "CON": 18, "INT": 18, "WIS": 7, "CHA": 9}
    # three 15s for a Fighter: the first two are STR and CON, the third fills INT
    assert assign_stats([15, 12, 15, 15, 9, 10], ["STR", "CON"]) == \
        {"STR": 15, "DEX": 12, "CON": 15, "INT": 15, "WIS": 9, "CHA": 10}
    # ties for the last prime slot: 16 is clear, the earlier of the two 14s joins it
    assert assign_stats([14, 8, 16, 14, 3, 11], ["DEX", "INT"]) == \
        {"STR": 8, "DEX": 14, "CON": 14, "INT": 16, "WIS": 3, "CHA": 11}


def test_rule_2_the_property_check_rejects_a_wrong_assignment():
    # the test's own check must fail on the wrong answer, or it proves nothing
    rolls = (10, 18, 5, 18, 7, 9)
    wrong = {"STR": 10, "DEX": 18, "CON": 5, "INT": 18, "WIS": 7, "CHA": 9}
    assert not follows_the_prime_rule(rolls, wrong, ("INT",))


# --- rule 3: alignment -----------------------------------------------------------------------

def test_rule_3_alignment(everyone):
    seen = Counter()
    for c in everyone:
        assert c.alignment in {"Chaotic", "Evil", "Good", "Lawful", "Neutral"}
        if c.class_id == "human-cleric":
            assert c.alignment != "Neutral"
        if c.class_id == "half-ogre-berserker":
            assert c.alignment != "Lawful"
        seen[c.alignment] += 1
    assert len(seen) == 5


# --- rule 4: skills --------------------------------------------------------------------------

def test_rule_4_skills_are_4_plus_int_mod_all_different(project, everyone):
    table = {r["skill"]: r["stat"] for r in table_rows(project, "skills")}
    assert len(table) >= 100
    for c in everyone:
        names = [s.name for s in c.skills]
        assert len(names) == max(0, 4 + c.mods["INT"])
        assert len(set(names)) == len(names)
        assert all(table[s.name] == s.stat for s in c.skills)
    assert max(len(c.skills) for c in everyone) == 7


# --- rule 5: languages -----------------------------------------------------------------------

def test_rule_5_languages_bonus_plus_one_per_positive_int_mod(project, everyone):
    table = {r["language"] for r in table_rows(project, "languages")}
    for c in everyone:
        bonus = [BONUS_LANGUAGE[c.class_id]] if c.class_id in BONUS_LANGUAGE else []
        assert list(c.languages[:1 + len(bonus)]) == ["Common"] + bonus
        extra = c.languages[1 + len(bonus):]
        assert len(extra) == max(0, c.mods["INT"])
        assert len(set(extra)) == len(extra) and set(extra) <= table


# --- rule 6: sub-stats -----------------------------------------------------------------------

def test_rule_6_level_tier_and_xp(everyone):
    for c in everyone:
        assert (c.level, c.tier, c.xp, c.xp_next) == (1, 1, 0, 20)


def test_rule_6_hit_points_are_the_top_of_the_hit_die_plus_con(everyone):
    for c in everyone:
        assert c.hit_die == f"d{HIT_DIE[c.class_id]}" and c.damage_die == c.hit_die
        assert c.hp == max(1, HIT_DIE[c.class_id] + c.mods["CON"])


def test_rule_6_armour_class(project, everyone):
    armour = {r["name"]: (r["type"], r["bonus"]) for r in table_rows(project, "armour")}
    shields = {r["name"]: r["bonus"] for r in table_rows(project, "shields")}
    dwarf_ignored_penalty = 0
    for c in everyone:
        dex = c.mods["DEX"]
        if c.class_id == "dwarf-defender" and c.armour and c.armour.type != "Light":
            if dex < 0:
                dwarf_ignored_penalty += 1
            dex = max(0, dex)
        bonus = armour[c.armour.name][1] if c.armour else 0
        bonus += shields[c.shield.name] if c.shield else 0
        assert c.ac == 10 + dex + bonus, c.id
    assert dwarf_ignored_penalty > 0  # the Dwarf rule was exercised


def test_rule_6_attacks_and_movement(everyone):
    two_dice = {"dwarf-defender", "elf-exemplar", "half-ogre-berserker", "human-fighter"}
    movement = {"dwarf-defender": 25, "halfling-burglar": 20}
    for c in everyone:
        rank_bonus = 1 if c.attack_rank == "A" else 0
        assert c.attack_rank in "ABCD"
        assert c.melee_attack == c.mods["STR"] + rank_bonus
        assert c.melee_damage == c.mods["STR"]
        assert c.missile_attack == c.mods["DEX"] + rank_bonus
        assert c.attack_dice == (2 if c.class_id in two_dice else 1)
        assert c.movement == movement.get(c.class_id, 30)


# --- rule 7: saves ---------------------------------------------------------------------------

def test_rule_7_saves_are_quality_bonus_plus_stat_mod(project, everyone):
    classes = {cls.id: cls for cls in project.classes.classes}
    stat_of = {"Area": "DEX", "Body": "CON", "Mind": "WIS", "Rally": "CHA"}
    for c in everyone:
        assert tuple(c.saves) == SAVES
        for save in SAVES:
            quality = classes[c.class_id].saves.quality_of(save).title()
            assert c.save_qualities[save] == quality
            level_bonus = 1 if quality == "Good" else 0
            stat_mod = c.mods[stat_of[save]] if save in stat_of else 0
            assert c.saves[save] == level_bonus + stat_mod


# --- rule 8: class abilities -----------------------------------------------------------------

def test_rule_8_every_ability_has_a_short_reminder(project, everyone):
    classes = {cls.id: cls for cls in project.classes.classes}
    for c in everyone:
        assert [a.name for a in c.abilities] == [a.name for a in classes[c.class_id].abilities]
        assert all(0 < len(a.reminder) <= 100 for a in c.abilities)


def test_rule_8_trackers_for_counted_uses(everyone):
    expected = {"human-fighter": ("Not Today!", 1, "never"),
                "human-cleric": ("Turn Away the Unholy", 1, "day"),
                "human-thief": ("Thiefy Expertise", 1, "adventure")}
    for c in everyone:
        tracked = [(a.name, a.tracker_uses, a.tracker_resets) for a in c.abilities
                   if a.tracker_uses]
        assert tracked == ([expected[c.class_id]] if c.class_id in expected else [])


def test_rule_8_berserker_rage_chain(everyone):
    for c in everyone:
        if c.class_id == "half-ogre-berserker":
            rage = next(a for a in c.abilities if a.name == "Murderous Rage")
            assert len(rage.steps) == 5
            assert "Mind save 15" in rage.steps[-1]


def test_rule_8_halfling_backup_thief_skills(everyone):
    for c in everyone:
        if c.class_id == "halfling-burglar":
            skills = {t.name: t.edge for t in c.class_thief_skills}
            assert skills == {"Lockpicking": None, "Perception": None, "Stealth": "advantage",
                              "Thief-climbing": None, "Trap-finding": "disadvantage"}


def test_rule_8_spell_failure_by_armour(everyone):
    elf = {None: 0, "Light": 0, "Medium": 25, "Heavy": 50, "Plate": 75}
    mage = {None: 0, "Light": 50, "Medium": 75}
    for c in everyone:
        worn = c.armour.type if c.armour else None
        if c.class_id == "elf-exemplar":
            assert c.spell_failure == elf[worn]
        elif c.class_id == "human-magic-user":
            assert c.spell_failure == mage[worn]
        elif c.class_id == "human-cleric":
            assert c.spell_failure == 0
        else:
            assert c.spell_failure is None


# --- rule 9: thief ---------------------------------------------------------------------------

def test_rule_9_thief_bailiwick_and_a_different_failing(everyone):
    bailiwicks = Counter()
    for c in everyone:
        if c.class_id == "human-thief":
            assert c.bailiwick in THIEF_SKILLS and c.failing in THIEF_SKILLS
            assert c.bailiwick != c.failing
            assert {t.name for t in c.class_thief_skills} == THIEF_SKILLS
            marked = {t.name: t.edge for t in c.class_thief_skills if t.edge}
            assert marked == {c.bailiwick: "advantage", c.failing: "disadvantage"}
            bailiwicks[c.bailiwick] += 1
        else:
            assert c.bailiwick is None and c.failing is None
    assert set(bailiwicks) == THIEF_SKILLS


# --- rule 10: spells -------------------------------------------------------------------------

def test_rule_10_spells(project, everyone):
    mage_list = {r["spell"] for r in table_rows(project, "spells-magic-user-1")}
    cleric_list = {r["spell"] for r in table_rows(project, "spells-cleric-1")}
    most = Counter()
    for c in everyone:
        names = [s.name for s in c.spells]
        assert len(set(names)) == len(names)
        if c.class_id in ("elf-exemplar", "human-magic-user"):
            base = 1 if c.class_id == "elf-exemplar" else 2
            assert names[0] == "Read Magic"
            assert len(names) == 1 + max(0, base + c.mods["INT"])
            assert set(names) <= mage_list
        elif c.class_id == "human-cleric":
            assert len(names) == max(0, 2 + c.mods["WIS"])
            assert set(names) <= cleric_list
        else:
            assert names == []
        most[c.class_id] = max(most[c.class_id], len(names))
    assert most["human-magic-user"] == 6  # INT 18: Read Magic + 5


# --- rule 11: equipment ----------------------------------------------------------------------

def test_rule_11_equipment_respects_gear_limits(project, everyone):
    weapons = {r["weapon"]: r for r in table_rows(project, "weapons")}
    armour = {r["name"]: r for r in table_rows(project, "armour")}
    shields = {r["name"]: r for r in table_rows(project, "shields")}
    for c in everyone:
        held = [weapons[w.name] for w in c.weapons]
        tags = {t for w in held for t in (w.get("tags") or [])}
        if c.armour:
            assert armour[c.armour.name]["type"] == c.armour.type
            assert armour[c.armour.name]["bonus"] == c.armour.bonus
        if c.shield:
            assert shields[c.shield.name]["bonus"] == c.shield.bonus
        if c.class_id == "human-magic-user":
            assert c.shield is None
            assert c.armour is None or c.armour.type not in ("Heavy", "Plate")
            assert all(w["size"] != "Large" or w["weapon"] == "Staff" for w in held)
        else:
            assert "mage" not in tags, c.id      # wand and staff are the Magic-User's alone
        if c.class_id == "halfling-burglar":
            assert all(w["size"] != "Large" for w in held)
            assert not tags & {"polearm", "longbow", "heavy-crossbow"}
        if c.class_id == "dwarf-defender":
            assert "longbow" not in tags
        if c.class_id == "half-ogre-berserker":
            assert c.armour is None             # made to measure: none to start with
        if c.class_id == "human-thief":
            assert c.shield is None and (c.armour is None or c.armour.type == "Light")


def test_rule_11_always_a_light_rations_and_a_usable_weapon(everyone):
    for c in everyone:
        kinds = Counter(i.kind for i in c.equipment)
        assert kinds["light"] >= 1
        assert any(i.name == "Rations" and i.quantity >= 1 for i in c.equipment)
        assert any(w.deals_damage for w in c.weapons)
        for w in c.weapons:
            assert any(i.name == w.name and i.kind == "weapon" for i in c.equipment)


def test_rule_11_missile_weapons_come_with_ammunition(project, everyone):
    ammo = {r["weapon"]: r.get("ammo") for r in table_rows(project, "weapons")}
    for c in everyone:
        for w in c.weapons:
            if ammo[w.name]:
                count, name = ammo[w.name].split(" ", 1)
                assert any(i.kind == "ammo" and i.name.lower() == name.lower()
                           and i.quantity >= int(count) for i in c.equipment)


# --- rule 12: flavour ------------------------------------------------------------------------

def test_rule_12_background_trait_appearance_from_the_tables(project, everyone):
    backgrounds = {r["background"] for r in table_rows(project, "backgrounds")}
    traits = {r["trait"] for r in table_rows(project, "personality-traits")}
    looks = {r["appearance"] for r in table_rows(project, "appearances")}
    for c in everyone:
        assert c.background in backgrounds and c.personality in traits
        assert c.appearance in looks
        assert not hasattr(c, "name")  # named by the player on your left, not by us
    # "sized so that a stack of 50 characters rarely repeats an entry"


def test_rule_12_a_pack_repeats_no_flavour_until_the_list_runs_out(project, pack):
    """Issue 29: no background, trait or look comes twice before the list runs out, and
    character n is the same whatever the pack's size (pack is characters 1-1200 of one
    seed)."""
    for table, key in (("backgrounds", "background"), ("personality-traits", "personality"),
                       ("appearances", "appearance")):
        size = len(table_rows(project, table))
        for start in (0, size, 3 * size):
            run = [getattr(c, key) for c in pack[start:start + size]]
            assert len(set(run)) == size, (table, start)
        # a round is every row once: the next round starts the list again, in a new order
        assert [getattr(c, key) for c in pack[size:2 * size]] != \
            [getattr(c, key) for c in pack[:size]]


# --- determinism -----------------------------------------------------------------------------

def test_the_same_seed_and_index_give_the_same_character(roller):
    assert roller.roll("again", 7) == roller.roll("again", 7)
    assert roller.roll("again", 7) != roller.roll("again", 8)
    assert roller.roll("again", 7) != roller.roll("other", 7)


def test_restricting_classes_only_rolls_those(project, recipe):
    allowed = frozenset({"human-fighter", "human-thief"})
    roller = Roller(recipe, project.tables, Wishes(classes=allowed))
    rolled = [roller.roll("only", i) for i in range(1, 201)]
    assert {c.class_id for c in rolled} == allowed


def test_to_json_has_the_documented_keys(pack):
    keys = {"id", "index", "class", "rolls", "stats", "mods", "level", "tier", "xp", "hit_die",
            "hp", "ac", "armour", "shield", "attack_rank", "attack_dice", "melee_attack",
            "melee_damage", "missile_attack", "movement", "saves", "alignment", "skills",
            "languages", "spells", "thief_skills", "equipment"}
    for c in pack[:50]:
        data = c.to_json()
        assert keys <= set(data)
        assert set(data["rolls"]) == {"class", "human", "stats"}
        assert set(data["stats"]) == set(data["mods"]) == set(STATS)
        assert set(data["saves"]) == set(SAVES)
        assert data["armour"] is None or set(data["armour"]) == {"name", "type", "bonus"}
        assert data["shield"] is None or set(data["shield"]) == {"name", "bonus"}
        assert data["thief_skills"] is None or set(data["thief_skills"]) == {"bailiwick",
                                                                             "failing"}
