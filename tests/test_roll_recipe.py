"""Recipes (printshop/roll/recipe/): the expression language, the dice, each kind of step,
and a recipe's mistakes reported at their lines, all of them in one run. Small projects
written here; the games' recipes are checked against their rules in test_games_characters.py.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from fractions import Fraction

import pytest

from printshop.errors import PrintshopError
from printshop.project import Project
from printshop.roll.recipe import Roller, Wishes, load_recipe
from printshop.roll.recipe.dice_ops import dice_spec, roll_pool
from printshop.roll.recipe.evaluate import CTX, EvalError, compile_node
from printshop.roll.recipe.expr import ExprError, parse
from printshop.roll.recipe.functions import FUNCTIONS, Context
from printshop.roll.recipe.values import Record

# --- expressions -------------------------------------------------------------------------------


def run(text, **values):
    return compile_node(parse(text), FUNCTIONS)({CTX: Context({}), **values})


@pytest.mark.parametrize("text, expected", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("7 // 2", 3), ("-3 + 1", -2), ("7 % 4", 3),
    ("1 / 2 + 1 / 3", Fraction(5, 6)), ("floor(2 + 1 / 2 + 2 / 3)", 3), ("6 / 3", 2),
    ("'a' + 'b'", "ab"), ("[1, 2] + [3]", [1, 2, 3]), ("max(1, 5, 3)", 5), ("min([4, 2])", 2),
    ("1 < 2 <= 2", True), ("3 in [1, 2]", False), ("'x' not in 'abc'", True),
    ("1 if true else 2", 1), ("none or 4", 4), ("not 0", True),
    ("[x * 2 for x in [1, 2, 3] if x != 2]", [2, 6]),
    ("{s: len(s) for s in ['ab', 'c']}", {"ab": 2, "c": 1}),
    ("{name: 'Sword', bonus: 1}.bonus", 1), ("count([0, 1, 0], 0)", 2),
    ("highest({A: 2, B: 3, C: 3})", "B"), ("capitalize(without_number('20 arrows'))", "Arrows"),
    ("number_in('20 arrows')", 20), ("percent('25%')", 25), ("percent('—')", 0),
    ("percent('Not allowed')", None), ("dice_max('d8')", 8), ("str(3) + 'd6'", "3d6"),
    ("[a for a, v in {X: 1, Y: 0} if v]", ["X"]), ("join(['a', 'b'], ' · ')", "a · b"),
])
def test_expressions(text, expected):
    assert run(text) == expected


def test_reading_a_part_of_none_gives_none():
    # `armour.bonus if armour else 0` needs no guard, nor `spellbook.table` without one
    assert run("armour.bonus", armour=None) is None
    assert run("book.table", book=None) is None
    assert run("things[2]", things=[1, 2]) is None   # past the end: nothing there


@pytest.mark.parametrize("text, message, offset", [
    ("1 +", "expected a value, found the end", 3),
    ("max(1, 2", "expected ')' to close max(", 8),
    ("a.b(1)", "there are no methods", 2),
    ("1 $ 2", "'$' is not part of an expression", 2),
    ("{a: 1, a: 2}", "key 'a' given twice", 0),
    ("1 2", "unexpected '2'", 2),
])
def test_syntax_errors_say_where(text, message, offset):
    with pytest.raises(ExprError) as caught:
        parse(text)
    assert message in caught.value.message and caught.value.offset == offset


def test_no_python_reaches_an_expression():
    # names are values of the recipe, never Python's: there is nothing to import or call
    with pytest.raises(EvalError, match="'__import__' has no value"):
        run("__import__")
    with pytest.raises(ExprError):
        parse("x.__class__.__mro__()")
    with pytest.raises(EvalError, match="'.__class__' of the number 1"):
        run("x.__class__", x=1)


def test_type_mistakes_name_the_values():
    with pytest.raises(EvalError, match="'\\+' needs two numbers .* not the text 'a' and the "
                                        "number 1"):
        run("'a' + 1")
    with pytest.raises(EvalError, match="has no 'bonsu' \\(it has name, bonus\\)"):
        run("r.bonsu", r=Record(name="Shield", bonus=1))


# --- dice --------------------------------------------------------------------------------------

def test_keep_drop_and_reroll():
    rng = random.Random(1)
    for _ in range(300):
        roll = dice_spec("4d6", keep="highest 3").roll(rng)
        assert len(roll.faces) == 4 and sorted(roll.kept) == sorted(roll.faces)[1:]
        assert roll == sum(roll.kept)
        low = dice_spec("2d20", keep="lowest 1").roll(rng)
        assert low == min(low.faces)
        dropped = dice_spec("4d6", drop="lowest 1").roll(rng)
        assert dropped == sum(sorted(dropped.faces)[1:])
        rerolled = dice_spec("1d6", reroll="1-2").roll(rng)
        assert len(rerolled.faces) == 1
    # a reroll of 1s: a 1 now comes up only when it comes up twice (1 in 36, not 1 in 6)
    ones = Counter(dice_spec("1d6", reroll=[1]).roll(rng) for _ in range(6000))[1]
    assert ones < 6000 / 18
    assert dice_spec("d66").outcomes() == (11, 66)
    with pytest.raises(ValueError, match="throws only 3 dice"):
        dice_spec("3d6", keep="highest 4")
    with pytest.raises(ValueError, match="every face"):
        dice_spec("1d6", reroll="1-6")


def test_pools_count_hits_above_the_dc_and_crits_explode():
    rng = random.Random(7)
    for _ in range(500):
        pool = roll_pool(rng, 3, 4, crits=False)
        assert len(pool.faces) == 3 and pool == sum(f > 4 for f in pool.faces)
        exploding = roll_pool(rng, 2, 4)
        sixes = sum(f == 6 for f in exploding.faces)
        assert len(exploding.faces) == 2 + sixes       # each 6 threw one more die
        assert exploding == sum(f > 4 for f in exploding.faces)
        small = roll_pool(rng, 0, 4, crits=False)     # a pool of 0: 2 dice, the lowest counts
        assert len(small.faces) == 2 and small == (min(small.faces) > 4)


# --- a small project ---------------------------------------------------------------------------

TABLES = {
    "mods": """title: Modifiers
dice: 3d6
columns: [{key: mod, label: Mod, type: signed}]
rows:
  - {roll: 3-8, mod: "-1"}
  - {roll: 9-12, mod: "0"}
  - {roll: 13-18, mod: "+1"}
""",
    "jobs": """title: Jobs
columns: [{key: job, label: Job}, {key: stat, label: Stat}, {key: slots, label: Slots, type: int}]
rows:
  - {job: Miner, stat: STR, slots: "2"}
  - {job: Scribe, stat: INT, slots: "1"}
  - {job: Thief, stat: DEX, slots: "1", weight: 3}
  - {job: Nobody, stat: CHA, slots: "1", weight: 0}
""",
    "loot": """title: Loot
dice: d66
columns: [{key: item, label: Item}]
rows:
""" + "".join(f"  - {{roll: {t}{u}, item: Thing {t}{u}}}\n" for t in range(1, 7)
              for u in range(1, 7)),
    "grid": """title: Grid
columns: [{key: row_key, label: Key}, {key: c0, label: "0"}, {key: c1, label: "1"}]
rows:
  - {row_key: A, c0: Apple, c1: Anvil}
  - {row_key: B, c0: Bread, c1: Bell}
""",
}


@pytest.fixture
def make(tmp_path):
    """A project with the tables above and `recipes/characters.yaml` as given."""
    def make(recipe: str, **more_tables) -> Project:
        root = tmp_path / "game"
        (root / "tables").mkdir(parents=True, exist_ok=True)
        (root / "recipes").mkdir(exist_ok=True)
        (root / "printshop.yaml").write_text("title: Test\nproducts:\n  pack: {kind: pregens, "
                                             "seed: s, count: 2}\n")
        for name, text in {**TABLES, **more_tables}.items():
            (root / "tables" / f"{name}.yaml").write_text(text)
        (root / "recipes" / "characters.yaml").write_text(recipe)
        return Project.load(root)
    return make


def roll(project, n=200, seed="t", **wishes):
    roller = Roller(load_recipe(project), project.tables, Wishes(**wishes))
    return [roller.roll(seed, i) for i in range(1, n + 1)]


GOOD = """\
title: Testers
data:
  names: [STR, INT, DEX]
steps:
  _rolls: {roll: 3d6, times: "3"}
  stats: {place: _rolls, into: names}
  mods: "{s: lookup('mods', stats[s]).mod for s in stats}"
  job: {pick: jobs, where: "row.stat in names"}
  jobs: {pick: jobs, count: "2", value: row.job}
  slots: {fill: "3", from: jobs, size: row.slots, value: row.job}
  loot: {table: loot, times: "2", value: row.item}
  word: {lookup: grid, row: {row_key: "'A' if mods.STR > 0 else 'B'"}, column: "'c' + str(min(1, max(0, mods.INT)))"}
  pack:
    inventory:
      - {item: "'Torch'", quantity: "2", kind: light}
      - {each: loot, item: it, kind: loot}
      - {item: "'Torch'", kind: light}
"""  # noqa: E501


def test_the_steps_do_what_they_say(make):
    project = make(GOOD)
    for c in roll(project):
        assert list(c.stats) == ["STR", "INT", "DEX"] and all(3 <= v <= 18 for v in
                                                              c.stats.values())
        assert c.mods == {s: -1 if v <= 8 else 0 if v <= 12 else 1 for s, v in c.stats.items()}
        assert c.job.job in ("Miner", "Scribe", "Thief")          # where: CHA is not a name
        assert len(set(c.jobs)) == 2 and "Nobody" not in c.jobs  # weight 0: never
        sizes = {"Miner": 2, "Scribe": 1, "Thief": 1}
        assert sum(sizes[j] for j in c.slots) == 3                # filled exactly
        assert len(c.loot) == 2 and all(t.startswith("Thing ") for t in c.loot)
        row = "A" if c.mods["STR"] > 0 else "B"
        column = min(1, max(0, c.mods["INT"]))
        assert c.word == {"A": ["Apple", "Anvil"], "B": ["Bread", "Bell"]}[row][column]
        torches = [i for i in c.pack if i.name == "Torch"]
        assert len(torches) == 1 and torches[0].quantity == 3      # the same item, added up


def test_weights_and_characters_independent_of_the_pack(make):
    project = make(GOOD)
    rolled = roll(project, 600)
    counts = Counter(c.job.job for c in rolled)
    assert counts["Thief"] > 2 * counts["Miner"]       # weight 3 against 1
    again = roll(project, 5)
    assert [c.to_json() for c in again] == [c.to_json() for c in rolled[:5]]
    assert roll(project, 1, seed="other")[0].to_json() != rolled[0].to_json()


def test_place_by_primes_shuffle_and_swap(make):
    project = make("""\
data: {names: [A, B, C, D], array: [14, 12, 10, 7]}
steps:
  primes: {place: "[9, 15, 9, 15]", into: names, primes: "['C', 'D']"}
  shuffled: {place: array, into: names, shuffle: "true"}
  swapped: {place: array, into: names, swap: ["'A'", "'D'"]}
""")
    seen = set()
    for c in roll(project):
        # the highest go to the primes in sheet order; ties: the earlier roll is higher
        assert c.primes == {"A": 9, "B": 9, "C": 15, "D": 15}
        assert sorted(c.shuffled.values()) == [7, 10, 12, 14]
        seen.add(tuple(c.shuffled.values()))
        assert c.swapped == {"A": 7, "B": 12, "C": 10, "D": 14}
    assert len(seen) > 10


def test_reroll_while_and_class_filter(make):
    project = make("""\
classes:
  tables: {even: cls}
steps:
  score: {roll: 1d6}
reroll_while: "score == 1"
""", cls="""title: Classes
dice: 1d4
columns: [{key: id, label: Id}, {key: name, label: Name}]
rows:
  - {roll: 1, id: knight, name: Knight}
  - {roll: 2, id: monk, name: Monk}
  - {roll: 3-4, id: cook, name: Cook}
""")
    rolled = roll(project, 300, classes=frozenset({"monk", "knight"}))
    assert {c.kind for c in rolled} == {"monk", "knight"} and all(c.score != 1 for c in rolled)
    assert rolled[0].label in ("Monk", "Knight")
    wished = roll(project, 300, reroll_while=[])
    assert Counter(c.kind for c in wished)["cook"] > 100


# --- mistakes, located -------------------------------------------------------------------------

def problems_of(project) -> list[str]:
    with pytest.raises(PrintshopError) as caught:
        load_recipe(project)
    return [str(p) for p in caught.value.problems]


def line_of(project, text: str) -> int:
    lines = (project.root / "recipes" / "characters.yaml").read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_every_mistake_at_its_line_in_one_run(make):
    project = make("""\
steps:
  stats: {roll: 3d6, times: "3"}
  hp: "max(1, stat + 2)"
  job: {pick: jobz}
  work: {pick: jobs, value: row.jbo}
  twice: "lenn(stats)"
  three: "max()"
  _d: {roll: 1d6}
  loot: {lookup: loot, by: "_d * 3"}
  mod: "lookup('mods', roll('2d6'))"
  many: {pick: jobs, count: "5"}
  mood: {roll: 1d6, kepp: highest 1}
""")
    found = problems_of(project)
    assert found == sorted(found, key=lambda p: (int(p.split(":")[1]), int(p.split(":")[2])))
    where = "recipes/characters.yaml"

    def has(text, message):
        line = line_of(project, text)
        assert any(re.search(rf"{where}:{line}:\d+: .*{message}", p) for p in found), \
            (message, found)

    has("hp:", r"steps\.hp: no value 'stat' here \(did you mean 'stats'\?\)")
    has("job:", r"no table 'jobz' in tables/ \(did you mean 'jobs'\?\)")
    has("work:", r"tables/jobs\.yaml has no column 'jbo' \(did you mean 'job'\? its columns: "
                 r"job, stat, slots\)")
    has("twice:", r"no function 'lenn' \(did you mean len\?\)")
    has("three:", r"max\(\) takes 1 or more arguments, not 0")
    # three times a d6: 3–18, most of which no d66 row can be
    has("loot:", r"this can be 3–18, but tables/loot\.yaml has no row for 3–10, 17–18")
    # 2d6 against a 3d6 table: no row for 2, and as rolled it can reach every row (3-8 …)
    has("mod:", r"this can be 2–12, but tables/mods\.yaml has no row for 2 \(its rows "
                r"cover 3–18\)")
    has("many:", r"this can ask for 5 different rows, but tables/jobs\.yaml has only 4")
    has("mood:", r"unknown key 'kepp' in a roll step \(did you mean 'keep'\?")
    assert len(found) == 9, found


def test_a_die_that_cannot_reach_a_tables_rows(make):
    project = make("""\
steps:
  _r: {roll: 2d6}
  thing: {lookup: loot, by: _r}
""")
    [problem] = [p for p in problems_of(project) if "never reach" in p]
    assert f"characters.yaml:{line_of(project, 'thing:')}:" in problem
    assert "a roll of 2–12 can never reach the rows for 13, 14" in problem
    assert "roll d66 for it, or fix the ranges" in problem


def test_checks_report_each_bad_cell_at_its_table_line(make):
    project = make("""\
data: {stats: [STR, DEX]}
steps:
  job: {pick: jobs}
checks:
  - {table: jobs, column: stat, one_of: stats}
  - {table: jobs, column: job, in: grid.c0}
""")
    found = problems_of(project)
    jobs = "tables/jobs.yaml"
    assert f"{jobs}:5: stat 'INT' is not one of STR, DEX" in " ".join(found)
    assert f"{jobs}:7: stat 'CHA' is not one of STR, DEX" in " ".join(found)
    assert f"{jobs}:4: job 'Miner' is not in tables/grid.yaml" in " ".join(found)
    assert len(found) == 6


def test_a_rolling_mistake_names_the_step_and_the_character(make):
    project = make("""\
steps:
  n: {roll: 1d6}
  word: "'x' + n"
""")
    roller = Roller(load_recipe(project), project.tables)
    with pytest.raises(PrintshopError) as caught:
        roller.roll("oops", 3)
    message = str(caught.value)
    assert f"characters.yaml:{line_of(project, 'word:')}:" in message
    assert "steps.word: '+' needs two numbers" in message and "(rolling oops #3)" in message


def test_a_missing_recipe_lists_those_there_are(make):
    project = make(GOOD)
    with pytest.raises(PrintshopError, match="no recipe 'charaters' in recipes/ \\(did you "
                                             "mean 'characters'\\?\\); recipes: characters"):
        load_recipe(project, "charaters")


def test_picks_across_the_pack_repeat_nothing_until_the_table_runs_out(make):
    names = "".join(f"  - {{name: Name {n}}}\n" for n in range(1, 21))
    project = make("""\
steps:
  before: {roll: 1d100}
  name: {pick: names, across_pack: true, value: row.name}
  pair: {pick: names, across_pack: true, count: "2", value: row.name}
  after: {roll: 1d100}
""", names=f"title: Names\ncolumns: [{{key: name, label: Name}}]\nrows:\n{names}")
    pack = roll(project, 40, seed="crowd")
    firsts = [c.name for c in pack[:20]]
    assert sorted(firsts) == sorted(f"Name {n}" for n in range(1, 21))   # every one, once
    assert sorted(c.name for c in pack[20:]) == sorted(firsts)            # then again
    pairs = [n for c in pack[:10] for n in c.pair]
    assert len(set(pairs)) == 20                                          # 10 × 2, no repeat
    # character n is the same in a pack of any size, and from any first number
    roller = Roller(load_recipe(project), project.tables)
    assert roller.roll("crowd", 17).to_json() == pack[16].to_json()
    # and it draws nothing from the character's own dice: the rolls around it are those a
    # recipe without it makes
    plain = make("steps:\n  before: {roll: 1d100}\n  after: {roll: 1d100}\n")
    assert [(c.before, c.after) for c in roll(plain, 40, seed="crowd")] == \
        [(c.before, c.after) for c in pack]
