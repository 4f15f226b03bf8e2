"""The games' character recipes against their own rules (../shared/seeds/), over thousands of
rolled characters: each test states a rule in the seed's terms and checks every character.
The roller only (no PDFs; test_games_sheets.py looks at the sheets).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from printshop.project import Project
from printshop.roll.recipe import Roller, Wishes, load_recipe
from printshop.roll.recipe.wishes import parse_wishes

GAMES = Path(__file__).resolve().parent.parent / "games"
COUNT = 1500


def modifier(score: int) -> int:
    """The house rules' table: 3 −3, 4–5 −2, 6–8 −1, 9–12 0, 13–15 +1, 16–17 +2, 18 +3."""
    for low, high, mod in ((3, 3, -3), (4, 5, -2), (6, 8, -1), (9, 12, 0), (13, 15, 1),
                           (16, 17, 2), (18, 18, 3)):
        if low <= score <= high:
            return mod
    raise AssertionError(score)


def rolled(game: str, recipe: str | None = None, count: int = COUNT, seed: str = "rules",
           **wishes):
    project = Project.load(GAMES / game)
    loaded = load_recipe(project, recipe or "characters")
    roller = Roller(loaded, project.tables, Wishes(**wishes))
    return project, [roller.roll(seed, i) for i in range(1, count + 1)]


def rows(project, table: str) -> list[dict]:
    return [dict(r.values) for r in project.tables[table].rows]


# --- Chainmail-flavoured house rules -----------------------------------------------------------

@pytest.fixture(scope="module")
def chainmail():
    return rolled("chainmail")


def test_chainmail_six_attributes_3d6_in_order_with_the_modifier_table(chainmail):
    _, characters = chainmail
    scores = []
    for c in characters:
        assert list(c.attributes) == ["STR", "INT", "WIS", "DEX", "CON", "CHA"]
        assert all(3 <= v <= 18 for v in c.attributes.values())
        assert c.modifiers == {a: modifier(v) for a, v in c.attributes.items()}
        scores += list(c.attributes.values())
    assert 10.2 < sum(scores) / len(scores) < 10.8          # 3d6: 10.5 on average
    assert min(scores) == 3 or max(scores) == 18            # the ends come up in 9,000 rolls


def test_chainmail_one_hit_die_an_expertise_and_a_vow(chainmail):
    project, characters = chainmail
    backgrounds = {r["background"]: r for r in rows(project, "character-backgrounds")}
    vows = {r["vow"] for r in rows(project, "character-vows")}
    for c in characters:
        assert (c.level, c.hit_dice, c.xp) == (1, 1, 0)
        row = backgrounds[c.background["background"]]
        # "any one area of expertise can only relate to a single attribute"
        assert c.expertise == f"{row['expertise']} ({row['attribute']})"
        assert row["attribute"] in c.attributes
        assert c.vow in vows
        assert c.label == row["background"]
    assert len({c.background["background"] for c in characters}) == len(backgrounds)
    # a table of players never meets two alike: no past (36) or vow (12) twice in a round
    assert len({c.background["background"] for c in characters[:36]}) == 36
    assert len({c.vow for c in characters[:12]}) == 12


def test_chainmail_defence_value_hits_and_saves(chainmail):
    for c in chainmail[1]:
        shield = c.armour["shield"] == "yes"
        level = c.armour["level"]
        # "defence value is 6 + hit dice/2 + armour level"; a shield adds 1 to the level
        assert c.armour_level == level + shield
        assert c.defence == 6 + 1 // 2 + level + shield
        over = max(0, c.encumbrance - c.attributes["STR"])
        assert c.hit_roll == c.modifiers["STR"] + 1 // 2 - over
        assert c.shot_roll == c.modifiers["DEX"] + 1 // 2 - over
        # saves: CON mod + armour level; "shields do not provide this bonus to saves"
        assert c.save_roll == c.modifiers["CON"] + level - over


def test_chainmail_encumbrance_against_str(chainmail):
    for c in chainmail[1]:
        points = {i.name: i.points for i in c.equipment}
        kinds = Counter(i.kind for i in c.equipment)
        assert kinds["weapon"] == 1 and kinds["keepsake"] == 1
        # armour costs its level; a bag and all in it two; anything else at hand one
        if c.armour["level"]:
            assert points[c.armour["armour"]] == c.armour["level"]
        bag = [i for i in c.equipment if i.kind == "bag"]
        assert all(i.points == 2 and i.name.startswith("Bag: ") for i in bag)
        assert c.encumbrance == sum(points.values())
        penalty = max(0, c.encumbrance - c.attributes["STR"])
        assert c.carrying.startswith(f"{c.encumbrance} of STR {c.attributes['STR']}")
        assert ("to all rolls" in c.carrying) == bool(penalty)


def test_chainmail_a_kits_wish_rerolls_the_hopeless():
    project = Project.load(GAMES / "chainmail")
    wish = project.manifest.products["con-kit"]["reroll_while"]
    recipe = load_recipe(project)

    class Pack:   # what parse_wishes asks of a product: its recipe, where to complain
        def __init__(self):
            self.recipe = recipe

    roller = Roller(recipe, project.tables, Wishes(reroll_while=parse_wishes(Pack(), wish,
                                                                             "--reroll-while")))
    wished = [roller.roll("kit", i) for i in range(1, 400)]
    assert all(max(c.modifiers.values()) > 0 for c in wished)
    plain = rolled("chainmail", count=399, seed="kit")[1]
    assert any(max(c.modifiers.values()) <= 0 for c in plain)   # the wish did something


# --- dice & danger -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dice():
    return rolled("dice-and-danger")


def test_dd_attributes_are_3d_pools_against_dc_4_without_crits(dice):
    _, characters = dice
    counts = Counter()
    for c in characters:
        assert list(c.attributes) == ["STR", "REFL", "INT", "WILL", "CON"]
        assert all(0 <= v <= 3 for v in c.attributes.values())
        counts.update(c.attributes.values())
    total = sum(counts.values())
    # each die hits on 5 or 6 (above the DC): 0 hits 8/27, 1 12/27, 2 6/27, 3 1/27
    for hits, share in ((0, 8 / 27), (1, 12 / 27), (2, 6 / 27), (3, 1 / 27)):
        assert abs(counts[hits] / total - share) < 0.02, (hits, counts)
    assert any(c.switched for c in characters) and any(not c.switched for c in characters)


def test_dd_luck_from_the_low_attributes(dice):
    for c in dice[1]:
        values = list(c.attributes.values())
        exact = values.count(0) + values.count(1) / 2 + values.count(2) / 3
        assert c.luck == int(exact + 1e-9)


def test_dd_title_by_highest_attribute_and_luck(dice):
    project, characters = dice
    titles = {r["attribute"]: r for r in rows(project, "character-titles")}
    for c in characters:
        scores = {**c.attributes, "LUCK": c.luck}
        assert scores[c.highest] == max(scores.values())     # a tie: any of them
        assert c.title == titles[c.highest][f"luck{min(c.luck, 4)}"]
    assert {c.highest for c in characters} == set(titles)


def test_dd_armour_or_an_instrument_and_a_category_of_weapons(dice):
    project, characters = dice
    armour = {r["armour"]: r for r in rows(project, "character-armour")}
    arms = {r["item"]: r for r in rows(project, "character-weapons")}
    for c in characters:
        inventory = {i.name: i for i in c.inventory}
        if c.protection == "armour":
            assert not c.instrument
            suit = armour[c.armour.armour]
            assert c.armour.armour == "None" or inventory[suit["armour"]].slots == suit["slots"]
        else:
            assert c.armour.slots == 0 and c.instrument.tier in range(6)
            [instrument] = [i for i in c.inventory if i.kind == "instrument"]
            assert instrument.slots in (1, 2) and f"{c.instrument.tier} uses" in instrument.dice
        armed = [i for i in c.inventory if i.kind in ("weapon", "trick")]
        chosen = [i for i in armed if arms.get(i.name, {}).get("category") == c.category]
        fallback = [i for i in armed if i not in chosen]
        assert all(i.name in ("Dagger", "Club", "Whip", "Staff", "Darts (3)",
                              "Sling and stones (3)") for i in fallback)
        # "if you don't have any weapons, you can take one of…"
        has_weapon = any(i.kind == "weapon" for i in chosen)
        assert len(fallback) == (0 if has_weapon else 1)
        assert c.block == c.armour.block + sum(arms[i.name]["block"] * i.quantity
                                               for i in chosen)


def test_dd_luck_rolls_on_the_d66_gear_and_the_fallbacks(dice):
    project, characters = dice
    gear = {r["item"]: r for r in rows(project, "character-gear")}
    for c in characters:
        rolled_gear = [i for i in c.inventory if i.kind == "gear" and i.name in gear]
        assert sum(i.quantity for i in rolled_gear) == c.luck
        light = any(gear[i.name].get("light") for i in rolled_gear)
        food = any(gear[i.name].get("food") for i in rolled_gear)
        names = {i.name for i in c.inventory}
        assert ("Torches (3)" in names) == (not light)
        assert ("Soft rations (3)" in names) == (not food)


def test_dd_readied_slots_and_encumbrance(dice):
    project, characters = dice
    speeds = rows(project, "character-speed")
    for c in characters:
        assert c.ready == 6 + c.attributes["CON"]
        assert c.slots_used == sum(i.slots * i.quantity for i in c.inventory)
        heavy = c.armour.slots + max(0, c.slots_used - c.ready)
        band = next(r for r in speeds if r["least"] <= heavy and
                    (r.get("most") is None or heavy <= r["most"]))
        assert c.encumbrance.startswith(f"{heavy}: {band['speed']}")


# --- The Red Hack's retainers ------------------------------------------------------------------

@pytest.fixture(scope="module")
def retainers():
    return rolled("red-hack", "retainers")


def test_retainers_3d6_in_order_or_the_array(retainers):
    methods = Counter()
    for c in retainers[1]:
        assert list(c.attributes) == ["STR", "DEX", "CON", "INT", "WIS", "CHA"]
        values = list(c.attributes.values())
        methods[c.method] += 1
        if c.method == "the array":
            assert sorted(values) == [7, 9, 10, 11, 12, 14]
        else:
            assert c.method == "3d6 in order" and all(3 <= v <= 18 for v in values)
    assert methods["the array"] > 600 and methods["3d6 in order"] > 600


def test_retainer_slots_by_relationship_and_morale_against_them(retainers):
    slots = {"Close": 1, "Friend": 2, "Associate": 3, "Acquaintance": 4, "Stranger": 5}
    seen = Counter()
    for c in retainers[1]:
        assert c.slots == slots[c.relationship]
        # "a test on their PC's CHA … the difficulty of the test is the number of slots"
        assert "PC's CHA" in c.morale and f"difficulty {c.slots} " in c.morale
        seen[c.relationship] += 1
    assert set(seen) == set(slots)
    names = [c.name for c in retainers[1][:40]]
    assert len(set(names)) == 40                  # 40 names: none twice in a pack of 40


# --- every game --------------------------------------------------------------------------------

@pytest.mark.parametrize("game, recipe", [("chainmail", None), ("dice-and-danger", None),
                                          ("red-hack", "retainers")])
def test_character_n_depends_only_on_the_seed_and_n(game, recipe):
    _, small = rolled(game, recipe, count=3, seed="same")
    _, big = rolled(game, recipe, count=12, seed="same")
    assert [c.to_json() for c in small] == [c.to_json() for c in big[:3]]
    text = json.dumps([c.to_json() for c in big], ensure_ascii=False)
    assert text == json.dumps([c.to_json() for c in rolled(game, recipe, 12, "same")[1]],
                              ensure_ascii=False)
    assert rolled(game, recipe, 1, "other")[1][0].to_json() != small[0].to_json()
