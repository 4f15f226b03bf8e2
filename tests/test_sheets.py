"""Sheet layout files (sheets/ID.yaml): schema, positions and references."""

from __future__ import annotations

import pytest

from conftest import RULES_SRC
from printshop.errors import PrintshopError
from printshop.project import Project
from printshop.source.sheets import load_sheet


def write(tmp_path, text: str):
    path = tmp_path / "sheet.yaml"
    path.write_text(text)
    return path


GOOD = """\
title: Test Sheet
pages:
  - title: Front
    columns:
      - blocks:
          - title: Saves
            items:
              - text: Roll **1d20**.
              - table: save-targets
                description: false
      - width: 2
        blocks:
          - items:
              - table: tiers
"""


def test_a_layout_lists_its_blocks_and_tables_with_their_lines(tmp_path):
    sheet = load_sheet(write(tmp_path, GOOD))
    assert sheet.id == "sheet" and not sheet.is_cards
    places = [(place.page, place.column, place.index, place.line, block.title)
              for place, block in sheet.blocks()]
    assert places == [(1, 1, 1, 6, "Saves"), (1, 2, 1, 13, None)]
    assert [(t, line) for t, line, _ in sheet.table_refs()] == [("save-targets", 9),
                                                                 ("tiers", 14)]
    assert sheet.layout.pages[0].columns[1].width == 2
    assert sheet.layout.pages[0].columns[0].blocks[0].items[1].description is False


def test_unknown_tables_are_reported_together_at_their_lines(tmp_path):
    sheet = load_sheet(write(tmp_path, GOOD.replace("save-targets", "save-targetz")
                             .replace("table: tiers", "table: tears")))
    tables = Project.load(RULES_SRC).tables
    with pytest.raises(PrintshopError) as caught:
        sheet.check_references(tables, None)
    messages = [(p.line, p.message) for p in caught.value.problems]
    assert messages == [
        (9, "no table 'save-targetz' in tables/ (did you mean 'save-targets'?)"),
        (14, "no table 'tears' in tables/ (did you mean 'tiers'?)")]


def test_an_item_is_a_table_or_a_text_not_both(tmp_path):
    path = write(tmp_path, GOOD.replace("              - text: Roll **1d20**.\n",
                                        "              - text: Roll.\n"
                                        "                table: tiers\n"))
    with pytest.raises(PrintshopError) as caught:
        load_sheet(path)
    problem = caught.value.problems[0]
    assert problem.line == 8
    assert "either `table: ID` or `text: …`" in problem.message


def test_a_misspelt_key_is_pointed_at(tmp_path):
    with pytest.raises(PrintshopError) as caught:
        load_sheet(write(tmp_path, GOOD.replace("description: false", "descripton: false")))
    problem = caught.value.problems[0]
    assert problem.line == 10 and "did you mean 'description'" in problem.message


@pytest.mark.parametrize("size", ["6", "7.5"])
def test_type_size_below_eight_points_is_refused(tmp_path, size):
    with pytest.raises(PrintshopError) as caught:
        load_sheet(write(tmp_path, GOOD.replace("title: Test Sheet\n",
                                                f"title: Test Sheet\ntype_size: {size}\n")))
    assert caught.value.problems[0].line == 2


def test_class_cards_need_known_classes_and_a_known_grid(tmp_path):
    classes = Project.load(RULES_SRC).classes
    ids = [c.id for c in classes.classes]
    sheet = load_sheet(write(tmp_path, "title: Cards\ncards:\n  per_page: 4\n"))
    assert sheet.is_cards and sheet.card_class_ids(ids) == ids
    picked = load_sheet(write(tmp_path, "title: Cards\ncards:\n  classes: [human-thief, "
                                        "dwarf-defender]\n"))
    assert picked.card_class_ids(ids) == ["human-thief", "dwarf-defender"]
    wrong = load_sheet(write(tmp_path, "title: Cards\ncards:\n  classes:\n    - human-theif\n"))
    with pytest.raises(PrintshopError) as caught:
        wrong.check_references({}, ids)
    assert (caught.value.problems[0].line, caught.value.problems[0].message) == (
        4, "no class 'human-theif' in tables/classes.yaml (did you mean 'human-thief'?)")
    with pytest.raises(PrintshopError) as caught:
        load_sheet(write(tmp_path, "title: Cards\ncards:\n  per_page: 3\n"))
    assert "per_page is 1, 2 or 4" in caught.value.problems[0].message


def test_a_sheet_has_pages_or_cards(tmp_path):
    with pytest.raises(PrintshopError) as caught:
        load_sheet(write(tmp_path, "title: Nothing\n"))
    assert "either `pages:` or `cards:`" in caught.value.problems[0].message


def test_the_projects_layouts_load_and_name_only_real_tables():
    project = Project.load(RULES_SRC)
    ids = [c.id for c in project.classes.classes]
    for path in sorted((RULES_SRC / "sheets").glob("*.yaml")):
        load_sheet(path).check_references(project.tables, ids)
