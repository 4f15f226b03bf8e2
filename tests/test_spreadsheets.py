"""A deck's rows from a spreadsheet (CSV, XLSX, ODS): read as a designer keeps them, checked
as YAML rows are, every problem named by its cell; the same deck from a CSV and from an XLSX
prints the same PDF; an edited spreadsheet rebuilds what uses it."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from conftest import pdf_text
from printshop.builder import build_project
from printshop.errors import PrintshopError, column_letters
from printshop.project import Project
from printshop.source.decks import load_deck
from printshop.source.spreadsheets import read_spreadsheet
from spreadsheet_files import write_csv, write_ods, write_xlsx

DECK = """\
title: Sheet Deck
code: SD
colour: "#1f4a8a"
accent: "#ddccaa"
back: {title: Sheets, emblem: torch}
face: {title: name, text: [effect], corner: bonus}
columns:
  - {key: name, label: Name}
  - {key: effect, label: What happens}
  - {key: bonus, label: Bonus, type: int, optional: true}
rows: ROWS
"""

HEADER = ["Name", "What happens", "Bonus", "copies", "# designer's notes"]
ROWS = [
    ["Lantern", "Light for six turns.\nThen it gutters.", 0, None, "keep"],
    ["Rope", "Fifty feet of it.", 2, 3, None],
    ["Chalk", "Mark the way back.", None, None, None],
    [None, None, None, None, None],            # the empty rows a spreadsheet keeps
    [None, None, None, None, None],
]


def make(tmp_path: Path, rows_file: str, deck: str = DECK, name: str = "sheet") -> Project:
    """A project whose deck `name` takes its rows from decks/`rows_file`."""
    root = tmp_path / "project"
    (root / "decks").mkdir(parents=True, exist_ok=True)
    (root / "decks" / f"{name}.yaml").write_text(deck.replace("ROWS", rows_file))
    (root / "printshop.yaml").write_text(
        f"title: Test\nproducts:\n  {name}: {{kind: cards, decks: [{name}]}}\n")
    return Project.load(root)


def problems_of(project: Project, deck: str = "sheet") -> list[str]:
    with pytest.raises(PrintshopError) as info:
        load_deck(project, deck)
    # named from the project folder, as `printshop build` run there names them
    return [str(p).replace(f"{project.root}/", "") for p in info.value.problems]


def test_column_letters_name_cells_as_spreadsheets_do():
    assert [column_letters(n) for n in (1, 2, 26, 27, 52, 703)] == \
        ["A", "B", "Z", "AA", "AZ", "AAA"]


@pytest.mark.parametrize("kind", ["csv", "xlsx", "ods"])
def test_cells_read_as_the_designer_typed_them(tmp_path, kind):
    rows = [HEADER, *ROWS]
    path = tmp_path / f"cards.{kind}"
    if kind == "csv":
        write_csv(path, rows)
    elif kind == "xlsx":
        write_xlsx(path, {"Cards": rows})
    else:
        write_ods(path, {"Cards": rows})
    sheet = read_spreadsheet(path)
    assert sheet.cells[0][:4] == ["Name", "What happens", "Bonus", "copies"]
    assert sheet.cells[1][:3] == ["Lantern", "Light for six turns.\nThen it gutters.", "0"]
    assert sheet.cells[2][2:4] == ["2", "3"]
    assert sheet.cells[3][2] is None


def test_a_deck_from_csv_deals_copies_keeps_lines_and_skips_empty_rows(tmp_path):
    (tmp_path / "project" / "decks").mkdir(parents=True)
    write_csv(tmp_path / "project" / "decks" / "cards.csv", [HEADER, *ROWS])
    deck = load_deck(make(tmp_path, "cards.csv"), "sheet")
    names = [c.data["fields"]["name"] for c in deck.cards]
    assert names == ["Lantern", "Rope", "Rope", "Rope", "Chalk"]
    assert [c.id for c in deck.cards] == [f"SD-0{n}" for n in range(1, 6)]
    lantern = deck.cards[0]
    assert lantern.data["fields"]["bonus"] == 0
    assert lantern.data["fields"]["effect"] == "Light for six turns.\\\nThen it gutters."
    assert (Path(lantern.path), lantern.line) == (
        (tmp_path / "project" / "decks" / "cards.csv").resolve(), 2)
    assert deck.cards[2].label == "row 3: Rope, copy 2 of 3"


def test_bad_cells_are_named_by_their_cell(tmp_path):
    folder = tmp_path / "project" / "decks"
    folder.mkdir(parents=True)
    write_xlsx(folder / "cards.xlsx", {"Cards": [
        ["Name", "What happen", "Bonus"],
        ["Lantern", "Light.", "lots"],
    ]})
    problems = problems_of(make(tmp_path, "cards.xlsx"))
    assert problems == [
        "decks/cards.xlsx, row 1: no column 'What happens' (or 'effect') in the header row",
        "decks/cards.xlsx!B1: unknown column 'What happen' (did you mean 'What happens'?); "
        "the deck's columns: name, effect, bonus (keys or labels), and roll, copies, weight, "
        "then; start a header with # to keep a column of notes",
    ]
    write_xlsx(folder / "cards.xlsx", {"Cards": [
        ["Name", "What happens", "Bonus"], ["Lantern", "Light.", "lots"], ["Rope", None, 1]]})
    problems = problems_of(make(tmp_path, "cards.xlsx"))
    assert "decks/cards.xlsx!C2: bonus: expected a whole number, got 'lots'" in problems
    assert "decks/cards.xlsx!B3: effect: has no value" in problems


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_a_dice_range_the_spreadsheet_made_a_date_is_named_with_its_date(tmp_path, kind):
    folder = tmp_path / "project" / "decks"
    folder.mkdir(parents=True)
    rows = [["roll", "Name", "What happens"], ["1-2", "Lantern", "Light."],
            [datetime.date(2025, 3, 4), "Rope", "Rope."], ["5-6", "Chalk", "Chalk."]]
    (write_xlsx if kind == "xlsx" else write_ods)(folder / f"cards.{kind}", {"Cards": rows})
    deck = DECK.replace("columns:", "dice: 1d6\ncolumns:").replace(", corner: bonus", "")
    problems = problems_of(make(tmp_path, f"cards.{kind}", deck))
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"decks/cards.{kind}!A3: the spreadsheet turned this cell "
                                  "into a date (4 March 2025), not text")
    assert "3-4 or 4-3" in problems[0] and "Format the column as Text" in problems[0]


def test_a_csv_saved_after_the_spreadsheet_made_a_date(tmp_path):
    folder = tmp_path / "project" / "decks"
    folder.mkdir(parents=True)
    write_csv(folder / "cards.csv", [["roll", "Name", "What happens"], ["1-2", "A", "a"],
                                     ["4-Mar", "B", "b"], ["5-6", "C", "c"]])
    deck = DECK.replace("columns:", "dice: 1d6\ncolumns:").replace(", corner: bonus", "")
    problems = problems_of(make(tmp_path, "cards.csv", deck))
    assert problems[0].startswith("decks/cards.csv!A3: '4-Mar' looks like a date a "
                                  "spreadsheet made of a dice range")


def test_header_row_sheet_and_an_unknown_sheet(tmp_path):
    folder = tmp_path / "project" / "decks"
    folder.mkdir(parents=True)
    write_xlsx(folder / "book.xlsx", {"Notes": [["ignore me"]],
                                      "Cards": [["The Sheet Deck, by row"], HEADER, *ROWS]})
    deck = DECK.replace("rows: ROWS", "rows: ROWS\nsheet: Cards\nheader_row: 2")
    loaded = load_deck(make(tmp_path, "book.xlsx", deck), "sheet")
    assert [c.data["fields"]["name"] for c in loaded.cards][:2] == ["Lantern", "Rope"]
    assert loaded.cards[0].line == 3
    problems = problems_of(make(tmp_path, "book.xlsx", deck.replace("sheet: Cards",
                                                                    "sheet: Card")))
    assert problems == ["decks/book.xlsx: sheet: no sheet 'Card' in the workbook (did you "
                        "mean 'Cards'?); sheets: Notes, Cards"]


def test_a_spreadsheet_outside_the_project_is_refused(tmp_path):
    (tmp_path / "secret.csv").write_text("Name\nx\n")
    (tmp_path / "project" / "decks").mkdir(parents=True)
    problems = problems_of(make(tmp_path, "../../secret.csv"))
    assert len(problems) == 1 and "is outside the project" in problems[0]
    assert problems[0].startswith("decks/sheet.yaml:11:")


@pytest.fixture(scope="module")
def two_decks(tmp_path_factory):
    """The same deck from a CSV and from an XLSX, built in one strict build."""
    tmp = tmp_path_factory.mktemp("sheets")
    folder = tmp / "project" / "decks"
    folder.mkdir(parents=True)
    write_csv(folder / "cards.csv", [HEADER, *ROWS])
    write_xlsx(folder / "cards.xlsx", {"Cards": [HEADER, *ROWS]})
    (folder / "from-csv.yaml").write_text(DECK.replace("ROWS", "cards.csv"))
    (folder / "from-xlsx.yaml").write_text(DECK.replace("ROWS", "cards.xlsx"))
    (tmp / "project" / "printshop.yaml").write_text(
        "title: Test\nproducts:\n  from-csv: {kind: cards, decks: [from-csv]}\n"
        "  from-xlsx: {kind: cards, decks: [from-xlsx]}\n")
    out = tmp / "build"
    report = build_project(tmp / "project", out, strict=True)
    return tmp / "project", out, report


def test_the_same_deck_from_csv_and_xlsx_prints_the_same_pdf(two_decks):
    _, out, _ = two_decks
    csv_pdf = (out / "from-csv.pdf").read_bytes()
    assert csv_pdf == (out / "from-xlsx.pdf").read_bytes()
    text = pdf_text(csv_pdf)
    # the multi-line cell prints as two lines; the 0 bonus prints; three ropes
    assert "Light for six turns.\nThen it gutters." in text
    assert text.count("Fifty feet of it.") == 3
    assert "SD-05" in text


def test_an_edited_spreadsheet_rebuilds_its_deck(two_decks):
    project, out, _ = two_decks
    again = build_project(project, out, strict=True)
    assert again.built == []
    write_xlsx(project / "decks" / "cards.xlsx",
               {"Cards": [HEADER, *ROWS[:2], ["Torch", "Burns an hour.", 1, None, None]]})
    report = build_project(project, out, strict=True)
    assert report.built == ["from-xlsx"]
    assert "Burns an hour." in pdf_text(out / "from-xlsx.pdf")


def test_a_guide_table_from_an_ods_is_read_and_recorded(tmp_path):
    from printshop import deps

    root = tmp_path / "project"
    (root / "tables").mkdir(parents=True)
    write_ods(root / "tables" / "weather.ods", {"Weather": [
        ["d6", "Weather"], ["1-3", "Fair"], ["4-5", "Rain"], ["6", "Storm\nand hail"]]})
    (root / "tables" / "weather.yaml").write_text(
        "title: Weather\ndice: d6\ncolumns:\n  - {key: weather, label: Weather}\n"
        "rows: weather.ods\n")
    (root / "printshop.yaml").write_text("title: T\nproducts: {}\n")
    project = Project.load(root)
    recorder = deps.Recorder()
    with deps.recording(recorder):
        table = project.tables["weather"]
    assert [(r.roll, r["weather"]) for r in table.rows] == [
        ((1, 3), "Fair"), ((4, 5), "Rain"), ((6, 6), "Storm\\\nand hail")]
    assert str(root / "tables" / "weather.ods") in recorder.files   # its edits rebuild
    write_ods(root / "tables" / "weather.ods", {"Weather": [
        ["d6", "Weather"], ["1-3", "Fair"], ["4-5", "Rain"]]})
    with pytest.raises(PrintshopError) as info:
        Project.load(root).tables  # noqa: B018
    assert str(info.value).startswith(f"{root}/tables/weather.yaml:5: no row for 6 on 1d6: "
                                      "every result needs exactly one row")
