import pytest

from conftest import RULES_SRC
from printshop.dice import item_rng
from printshop.errors import PrintshopError
from printshop.source.tables import load_table, load_tables

HEADER = "title: T\n"


def table(tmp_path, body, name="t.yaml"):
    path = tmp_path / name
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def problems_of(path):
    with pytest.raises(PrintshopError) as exc:
        load_table(path)
    return [(p.line, p.message) for p in exc.value.problems]


DICE_COLUMNS = "dice: 1d6\ncolumns:\n  - {key: what, label: What}\nrows:\n"


def test_dice_table_covering_every_result_loads(tmp_path):
    path = table(tmp_path, DICE_COLUMNS + "  - {roll: 1-2, what: a}\n  - {roll: 3, what: b}\n"
                 "  - {roll: 4-6, what: c}\n")
    loaded = load_table(path)
    assert [r.roll for r in loaded.rows] == [(1, 2), (3, 3), (4, 6)]
    assert loaded.row_for(5)["what"] == "c"


def test_gap_is_reported(tmp_path):
    path = table(tmp_path, DICE_COLUMNS + "  - {roll: 1-2, what: a}\n  - {roll: 5-6, what: c}\n")
    assert any("no row for 3–4 on 1d6" in m for _, m in problems_of(path))


def test_overlap_names_both_rows(tmp_path):
    path = table(tmp_path, "dice: 3d6\ncolumns:\n  - {key: what, label: What}\nrows:\n"
                 "  - {roll: 3-5, what: a}\n  - {roll: 5-7, what: b}\n  - {roll: 8-18, what: c}\n")
    assert problems_of(path) == [(7, "roll 5–7 overlaps the row on line 6 (both cover 5)")]


def test_range_outside_the_dice(tmp_path):
    path = table(tmp_path, DICE_COLUMNS + "  - {roll: 1-6, what: a}\n  - {roll: 7, what: b}\n")
    assert problems_of(path) == [(7, "roll 7 is outside what 1d6 can roll (1–6)")]


def test_wrong_type_and_misspelt_column_are_all_reported(tmp_path):
    path = table(tmp_path, "columns:\n  - {key: name, label: Name}\n"
                 "  - {key: bonus, label: Bonus, type: int}\nrows:\n"
                 "  - {name: Padded, bonus: high}\n  - {name: Chain, bonus: 5, rarrity: x}\n")
    found = problems_of(path)
    assert (6, "rows[0].bonus: expected a whole number, got 'high'") in found
    assert any(line == 7 and "rows[1].rarrity: unknown column 'rarrity'" in m for line, m in found)


def test_misspelt_top_level_field_suggests_the_right_one(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("title: T\ncolumns: [{key: a, label: A}]\nrows: [{a: x}]\nnotse: []\n")
    assert problems_of(path) == [(4, "unknown field 'notse' (did you mean 'notes'?)")]


def test_missing_column_in_row(tmp_path):
    path = table(tmp_path, "columns:\n  - {key: a, label: A}\n  - {key: b, label: B}\nrows:\n"
                 "  - {a: x}\n")
    assert problems_of(path) == [(6, "rows[0]: row is missing column 'b'")]


def test_no_rows_and_zero_weight_are_clear_errors(tmp_path):
    assert any("must not be empty" in m for _, m in
               problems_of(table(tmp_path, "columns: [{key: a, label: A}]\nrows: []\n")))
    zero = table(tmp_path, "columns: [{key: a, label: A}]\nrows:\n  - {a: x, weight: 0}\n",
                 name="z.yaml")
    assert any("weights add up to zero" in m for _, m in problems_of(zero))


def test_weighted_pick_follows_weights(tmp_path):
    path = table(tmp_path, "columns: [{key: a, label: A}]\nrows:\n  - {a: common, weight: 9}\n"
                 "  - {a: rare, weight: 1}\n")
    loaded = load_table(path)
    rng = item_rng("weights", "test", 0)
    picks = [loaded.pick(rng)["a"] for _ in range(5000)]
    assert 0.87 < picks.count("common") / 5000 < 0.93


def test_sample_gives_distinct_rows(tmp_path):
    path = table(tmp_path, "columns: [{key: a, label: A}]\nrows:\n" +
                 "".join(f"  - {{a: v{i}}}\n" for i in range(10)))
    loaded = load_table(path)
    rows = loaded.sample(item_rng("s", "t", 0), 10)
    assert len({r["a"] for r in rows}) == 10
    assert len(loaded.sample(item_rng("s", "t", 1), 50)) == 10


def test_signed_column_accepts_unicode_minus(tmp_path):
    path = table(tmp_path, "columns: [{key: mod, label: Mod, type: signed}]\nrows:\n"
                 "  - {mod: −2}\n  - {mod: '+1'}\n")
    assert [r["mod"] for r in load_table(path).rows] == [-2, 1]


def test_then_must_name_an_existing_table(tmp_path):
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "a.yaml").write_text("title: A\ndice: 1d2\ncolumns: [{key: x, label: X}]\n"
                                   "rows:\n  - {roll: 1, x: y}\n  - {roll: 2, x: z, then: b}\n")
    with pytest.raises(PrintshopError) as exc:
        load_tables(folder)
    assert exc.value.problems[0].line == 6 and "no table 'b'" in exc.value.problems[0].message


def test_every_project_table_loads_and_rolls_within_range():
    tables = load_tables(RULES_SRC / "tables")
    assert len(tables) > 30
    for table_id, loaded in tables.items():
        if loaded.dice:
            rng = item_rng("coverage", table_id, 0)
            for _ in range(50):
                result, row = loaded.roll(rng)
                assert row.roll[0] <= result.total <= row.roll[1]


def test_the_guides_class_table_matches_the_rules():
    tables = load_tables(RULES_SRC / "tables")
    expected = {3: "elf-exemplar", 4: "elf-exemplar", 5: "dwarf-defender", 7: "dwarf-defender",
                8: "human", 13: "human", 14: "halfling-burglar", 16: "halfling-burglar",
                17: "half-ogre-berserker", 18: "half-ogre-berserker"}
    for roll, class_id in expected.items():
        assert tables["class-roll"].row_for(roll)["id"] == class_id
    assert tables["class-roll"].row_for(10).then == "human-class"
    mods = {3: -3, 4: -2, 5: -2, 6: -1, 8: -1, 9: 0, 12: 0, 13: 1, 15: 1, 16: 2, 17: 2, 18: 3}
    for score, mod in mods.items():
        assert tables["stat-modifiers"].row_for(score)["mod"] == mod


def test_a_table_read_again_is_parsed_again_only_if_its_text_changed(tmp_path):
    # `serve` loads the project for every save: an unchanged file gives the Table it gave,
    # an edited one (even at the same size, date kept) is parsed again
    import os

    body = "columns:\n  - {key: what, label: What}\nrows:\n  - {what: abc}\n"
    path = table(tmp_path, body)
    first = load_table(path)
    assert load_table(path) is first
    stat = path.stat()
    path.write_text(HEADER + body.replace("abc", "xyz"), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert load_table(path).rows[0]["what"] == "xyz"
    path.write_text(HEADER + body.replace("abc", "{oops"), encoding="utf-8")
    assert problems_of(path)                     # a broken edit is reported, every time
    assert problems_of(path)
    path.write_text(HEADER + body, encoding="utf-8")
    assert load_table(path).rows[0]["what"] == "abc"
