"""Dice on every list: parted lists (a die for the part, a die for the row), "roll again"
results, the loader's proof that each part covers its dice exactly once, and HAMMERCRAWL!'s
guide, whose every list a player is told to roll on prints its dice."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest

from conftest import RULES_SRC
from printshop.errors import PrintshopError
from printshop.products.common import jinja_environment
from printshop.project import Project
from printshop.render.jinja import render_template
from printshop.source.tables import load_table


@pytest.fixture(scope="module")
def project() -> Project:
    return Project.load(RULES_SRC)


def write(tmp_path, text: str):
    path = tmp_path / "t.yaml"
    path.write_text("title: T\n" + text, encoding="utf-8")
    return path


def problems_of(path) -> list[tuple[int, str]]:
    with pytest.raises(PrintshopError) as exc:
        load_table(path)
    return [(p.line, p.message) for p in exc.value.problems]


def chances(table) -> Counter:
    """How many of the equally likely (part die, dice) outcomes land on each row, leaving
    out the ones that say roll again: exact, not sampled."""
    part_faces = table.part_die.outcomes() if table.part_die else [None]
    hits: Counter = Counter()
    for face, result in itertools.product(part_faces, table.dice.outcomes()):
        part = None
        if table.part_die is not None:
            part = next(i for i, p in enumerate(table.parts)
                        if p.results[0] <= face <= p.results[1])
        last = part is None or part == len(table.parts) - 1
        if last and table.reroll and table.reroll[0] <= result <= table.reroll[1]:
            continue
        row = table.row_for(result, part)
        hits[row.line] += 1
    return hits


PARTED = """\
dice: 1d6
part_die: 1d6
parts: [1-3, 4-6]
reroll: 5-6
columns:
  - {key: name, label: Name}
rows:
  - {roll: 1, name: a}
  - {roll: 2, name: b}
  - {roll: 3, name: c}
  - {roll: 4, name: d}
  - {roll: 5, name: e}
  - {roll: 6, name: f}
  - {roll: 1, name: g}
  - {roll: 2, name: h}
  - {roll: 3, name: i}
  - {roll: 4, name: j}
"""


def test_a_parted_list_knows_its_parts_and_gives_every_row_the_same_chance(tmp_path):
    table = load_table(write(tmp_path, PARTED))
    assert [r.part for r in table.rows] == [0] * 6 + [1] * 4
    assert table.dice_text == "1d6, then 1d6" and table.reroll_text == "5–6"
    assert table.row_for(2, 1)["name"] == "h" and table.row_for(2, 0)["name"] == "b"
    assert set(chances(table).values()) == {3}      # ten rows, three ways each
    rng = random.Random(7)
    rolled = Counter(table.roll(rng)[1]["name"] for _ in range(20_000))
    assert set(rolled) == set("abcdefghij")          # 5-6 in the last part rolls again
    assert all(1_700 < n < 2_300 for n in rolled.values()), rolled


def test_a_gap_in_a_part_is_reported_at_the_parts_first_row(tmp_path):
    path = write(tmp_path, PARTED.replace("reroll: 5-6\n", ""))
    assert problems_of(path) == [(14, "no row for 5–6 on 1d6 in part 2 (1d6 4–6): every "
                                      "result needs exactly one row (or say reroll: for the "
                                      "last part)")]


def test_a_reroll_that_overlaps_a_row_names_the_row(tmp_path):
    path = write(tmp_path, PARTED.replace("reroll: 5-6", "reroll: 4-6"))
    assert problems_of(path) == [(18, "roll 4 in part 2 (1d6 4–6) overlaps the row on line 5 "
                                      "(both cover 4)")]


def test_parts_that_do_not_match_the_rows_or_the_part_die_are_reported(tmp_path):
    three = write(tmp_path, PARTED.replace("parts: [1-3, 4-6]", "parts: [1-2, 3-4, 5-6]"))
    assert problems_of(three) == [(4, "parts: 3 parts, but the rows make 2 (a part starts "
                                      "where a row's roll starts again at 1)")]
    gap = write(tmp_path, PARTED.replace("parts: [1-3, 4-6]", "parts: [1-3, 5-6]"))
    assert problems_of(gap) == [(4, "parts: no part for 4 on 1d6: every result of the part "
                                    "die needs a part")]
    alone = write(tmp_path, PARTED.replace("parts: [1-3, 4-6]\n", ""))
    assert any("needs both part_die" in m for _, m in problems_of(alone))
    outside = write(tmp_path, PARTED.replace("reroll: 5-6", "reroll: 5-7"))
    assert problems_of(outside) == [(5, "reroll: 5–7 is outside what 1d6 can roll (1–6)")]


# --- HAMMERCRAWL!: the lists the guide tells players to roll on -----------------------------

ROLLED_LISTS = ("skills", "backgrounds", "personality-traits", "appearances", "languages",
                "spells-magic-user-1", "spells-cleric-1", "hireling-professions",
                "hireling-first-names", "hireling-family-names", "hireling-quirks")


@pytest.mark.parametrize("table_id", ROLLED_LISTS)
def test_every_list_rolled_on_gives_each_entry_the_same_chance_as_the_roller(project,
                                                                            table_id):
    """The printed dice (part die, row die, roll again) give every entry exactly the same
    chance, which is how the pregen and hireling rollers pick (uniformly, by weight 1)."""
    table = project.tables[table_id]
    assert table.dice is not None, f"{table_id} has no dice"
    hits = chances(table)
    assert sorted(hits) == sorted(r.line for r in table.rows)   # every row can come up
    assert len(set(hits.values())) == 1, hits
    assert {r.weight for r in table.rows} == {1}


def roll_sentences(markdown: str):
    """(sentence, [[links]]) for each sentence of a chapter that tells someone to roll on
    something it links to ("Roll them on the [[Skill List]]")."""
    text = re.sub(r"\s+", " ", markdown)
    for sentence in re.split(r"(?<=[.;])\s", text):
        links = re.findall(r"\[\[([^\]|#]+)", sentence)
        if links and re.search(r"\broll\w*\b[^.]*?\bon\b[^.]*?\[\[", sentence, re.I):
            yield sentence, links


def tables_by_section(project: Project) -> dict[str, list[str]]:
    """Section title (and {#id}) → the ::table[...] directives printed in that section."""
    found: dict[str, list[str]] = {}
    for path in sorted((project.root / "guide").glob("*.md")):
        current: list[str] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            heading = re.match(r"^#{1,4} (.+?)(?: \{#([a-z0-9-]+)\})?\s*$", line)
            if heading:
                current = []
                found[heading[1].casefold()] = current
                if heading[2]:
                    found[heading[2]] = current
            table = re.match(r"^::table\[([a-z0-9-]+)\]", line)
            if table:
                current.append(table[1])
    return found


def test_the_guide_prints_dice_with_every_list_it_tells_players_to_roll_on(project):
    sections = tables_by_section(project)
    rolled_on = set()
    for path in sorted((project.root / "guide").glob("*.md")):
        for sentence, links in roll_sentences(path.read_text(encoding="utf-8")):
            for link in links:
                listed = sections.get(link.strip().casefold(), [])
                if not listed:
                    continue          # a link to a rule, not to a list
                # the list rolled on has dice (a section may also hold a lookup table)
                rolled = [t for t in listed if project.tables[t].dice is not None]
                assert rolled, (path.name, sentence, listed)
                rolled_on.update(rolled)
                # and the instruction says which
                assert re.search(r"\b\d*d\d+", sentence), (path.name, sentence)
    assert set(ROLLED_LISTS) - {"hireling-first-names", "hireling-family-names",
                                "hireling-quirks"} <= rolled_on, rolled_on
    env = jinja_environment(project)
    for table_id in ROLLED_LISTS:
        table = project.tables[table_id]
        html = render_template(env, "partials/table.html.j2", table=table,
                               tables=project.tables, anchor=None)
        text = re.sub(r"<[^>]+>", " ", html)
        assert table.dice_text in text, table_id                 # the caption says which
        for row in table.rows:                                   # each entry its roll
            assert re.search(rf"(?<![\d–]){re.escape(row.roll_text)}(?![\d–])", text), \
                (table_id, row.roll_text)
        if table.reroll:
            assert table.reroll_text in text and re.search("roll again", text, re.I)


def test_the_index_of_tables_says_pick_for_nothing(project):
    index = [{"id": t.id, "title": t.title, "dice": t.dice_text, "rows": len(t.rows),
              "printed": False, "file": ""} for t in project.tables.values()]
    html = render_template(jinja_environment(project), "partials/table-index.html.j2",
                           index=index)
    assert "pick" not in html
    for table_id in ROLLED_LISTS:
        assert project.tables[table_id].dice_text in html


def test_the_guide_credits_the_red_hack_for_what_it_takes(project):
    welcome = (project.root / "guide" / "01-welcome.md").read_text(encoding="utf-8")
    credits = welcome[welcome.index("## Credits"):]
    for borrowed in ("The Red Hack", "Event Die", "Who Saw Whom First", "Reactions"):
        assert borrowed in credits
    for chapter, box in (("06-playing.md", "optional Reactions"),
                         ("06-playing.md", "optional Rolling the Event Die"),
                         ("07-combat.md", "optional Who Saw Whom First")):
        text = (project.root / "guide" / chapter).read_text(encoding="utf-8")
        start = text.index(box)
        assert "The Red Hack" in text[start:text.index(":::", start + len(box))], box
