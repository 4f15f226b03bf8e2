"""The reference sheets, class cards and the Hammersmith's screen (product `reference`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import RULES_SRC, folder_snapshot, pdf_reader, run_cli
from printshop.builder import build_project
from printshop.products.common import signed
from printshop.project import Project
from printshop.source.sheets import load_sheet

FILES = {"reference": ["player-reference", "hammersmith-reference", "class-cards"],
         "screen": ["hammersmith-screen"]}
MM_PER_PT = 25.4 / 72


def squash(text: str) -> str:
    """Text as a PDF's text layer gives it back: no whitespace, typographic quotes plain."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"') \
        .replace("\u201d", '"')
    return re.sub(r"\s+", "", text)


def cell_text(table, row, column) -> str | None:
    value = row.get(column.key)
    if value is None:
        return None
    if column.type == "signed":
        return signed(value)
    if column.type == "list":
        return ", ".join(value)
    return re.sub(r"\*+", "", str(value))  # inline Markdown emphasis prints no asterisks


def sheet_pages(pdf_path: Path) -> dict[str, list[str]]:
    """Page texts of each sheet in a merged PDF, found by its bookmark."""
    reader = pdf_reader(pdf_path)
    starts = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]
    texts = [page.extract_text() or "" for page in reader.pages]
    out = {}
    for i, (title, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(texts)
        out[title] = texts[start:end]
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("reference-build")
    report = build_project(RULES_SRC, out, ["reference"], strict=True, uncompressed=True)
    assert report.warnings == []   # strict: a WeasyPrint warning would have failed the build
    return out


@pytest.fixture(scope="module")
def project() -> Project:
    return Project.load(RULES_SRC)


def test_writes_reference_and_screen(built):
    assert sorted(p.name for p in built.iterdir() if not p.name.startswith(".")) == [
        "reference.pdf", "screen.pdf"]


def test_each_sheet_prints_exactly_its_pages(built, project):
    for stem, ids in FILES.items():
        pages = sheet_pages(built / f"{stem}.pdf")
        for sheet_id in ids:
            sheet = load_sheet(RULES_SRC / "sheets" / f"{sheet_id}.yaml")
            if sheet.is_cards:
                count = len(sheet.card_class_ids([c.id for c in project.classes.classes]))
                expected = -(-count // sheet.layout.cards.per_page)
            else:
                expected = len(sheet.layout.pages)
            assert len(pages[sheet.layout.title]) == expected, sheet_id
    assert len(pdf_reader(built / "reference.pdf").pages) == 2 + 2 + 2
    assert len(pdf_reader(built / "screen.pdf").pages) == 2


def test_page_sizes_letter_portrait_and_screen_landscape(built):
    page = pdf_reader(built / "reference.pdf").pages[0]
    assert round(float(page.mediabox.width) * MM_PER_PT, 1) == 215.9
    assert round(float(page.mediabox.height) * MM_PER_PT, 1) == 279.4
    screen = pdf_reader(built / "screen.pdf").pages[0]
    assert float(screen.mediabox.width) > float(screen.mediabox.height)


@pytest.mark.parametrize("stem,sheet_id", [(stem, i) for stem, ids in FILES.items()
                                           for i in ids if i != "class-cards"])
def test_every_table_on_a_sheet_prints_all_its_values(built, project, stem, sheet_id):
    sheet = load_sheet(RULES_SRC / "sheets" / f"{sheet_id}.yaml")
    text = squash("".join(sheet_pages(built / f"{stem}.pdf")[sheet.layout.title]))
    refs = sheet.table_refs()
    assert len(refs) >= 8
    missing = []
    for table_id, line, _ in refs:
        table = project.tables[table_id]
        for row in table.rows:
            if table.dice:
                if squash(row.roll_text) not in text:
                    missing.append(f"{table_id}: roll {row.roll_text}")
            for column in table.printed_columns:
                value = cell_text(table, row, column)
                if value is not None and squash(value) not in text:
                    missing.append(f"{table_id} (line {line}): {value!r}")
    assert missing == []


def test_nothing_on_the_sheets_or_the_screen_is_smaller_than_8_pt(built):
    """Read at arm's length across a table: every character of both files, footers too."""
    from print_sizes import smaller_than

    for name in ("reference.pdf", "screen.pdf"):
        assert smaller_than(built / name, 8) == [], name


def test_player_reference_and_screen_have_what_the_table_needs(built):
    pages = sheet_pages(built / "reference.pdf")
    player = squash("".join(pages["Player Reference"]))
    for needed in ("1d10 + DEX mod + WIS mod", "Natural 20", "Fumble!", "Lay Down and Call",
                   "Fight On!", "Defensive Action", "Shield Bash", "Return", "Levelling Up"):
        assert squash(needed).lower() in player.lower(), needed
    hammersmith = squash("".join(pages["Hammersmith Reference"])).lower()
    for needed in ("6 or more", "1 in 6", "Minor threat", "Hopeless: everyone run",
                   "The Event Die", "If running heedlessly", "Hireling Morale"):
        assert squash(needed).lower() in hammersmith, needed


def test_class_cards_print_every_class_with_its_reminders(built, project):
    text = squash("".join(sheet_pages(built / "reference.pdf")["Class Cards"]))
    for cls in project.classes.classes:
        assert squash(cls.name) in text
        assert squash(cls.gear) in text
        assert squash(f"{cls.prime_stats[0]}, ") in text or len(cls.prime_stats) == 1
        for ability in cls.abilities:
            assert squash(ability.reminder.replace("*", "")) in text, ability.name


def test_screen_faces_the_hammersmith_then_the_players(built):
    reader = pdf_reader(built / "screen.pdf")
    inside, outside = (page.extract_text() for page in reader.pages)
    assert "Facing the Hammersmith" in inside and "SAVE TARGETS" in inside
    assert "Facing the Players" in outside and "COMBAT PHASES" in outside
    assert inside.count("fold") + inside.count("FOLD") >= 2   # the two fold lines, labelled


def test_a_value_changed_in_yaml_changes_every_sheet(project_copy, tmp_path):
    morale = project_copy / "tables" / "morale-targets.yaml"
    morale.write_text(morale.read_text().replace("{threat: Major threat, target: 15}",
                                                 "{threat: Major threat, target: 77}"))
    camp = project_copy / "tables" / "camp-actions.yaml"
    camp.write_text(camp.read_text().replace("Make 2d4 arrows or bolts",
                                             "Fletch 3d4 quarrels"))
    out = tmp_path / "out"
    build_project(project_copy, out, ["reference"], strict=True, uncompressed=True)
    pages = sheet_pages(out / "reference.pdf")
    hammersmith = squash("".join(pages["Hammersmith Reference"]))
    assert "Majorthreat77" in hammersmith and "Majorthreat15" not in hammersmith
    assert "Majorthreat77" in squash(pdf_reader(out / "screen.pdf").pages[0].extract_text())
    player = squash("".join(pages["Player Reference"]))
    assert "Fletch3d4quarrels" in player and "Make2d4arrows" not in player


def test_a4_lays_out_the_same_sheets_on_a4(tmp_path):
    out = tmp_path / "a4"
    build_project(RULES_SRC, out, ["reference"], paper="a4", strict=True)
    reader = pdf_reader(out / "reference.pdf")
    assert len(reader.pages) == 6
    assert round(float(reader.pages[0].mediabox.width) * MM_PER_PT) == 210
    screen = pdf_reader(out / "screen.pdf").pages[1]
    assert round(float(screen.mediabox.width) * MM_PER_PT) == 297


def test_paper_the_sheets_are_not_laid_out_for_prints_them_on_letter_and_says_so(tmp_path):
    """`build --paper a5` of a whole manifest: the A5 products on A5, the sheets on their
    own paper with a warning (as a pack of characters), never a build that stops."""
    out = tmp_path / "out"
    result = run_cli("build", "reference", "--source", RULES_SRC, "--out", out, "--paper", "a5")
    assert result.exit_code == 0, result.output
    assert result.output.count("laid out for letter or a4 paper, not a5; they print on "
                               "letter") == 1
    page = pdf_reader(out / "reference.pdf").pages[0]
    assert round(float(page.mediabox.width) * MM_PER_PT) == 216   # Letter, 8.5 in
    strict = run_cli("build", "reference", "--source", RULES_SRC, "--out", tmp_path / "strict",
                     "--paper", "a5", "--strict")
    assert strict.exit_code == 2
    assert "reference: error: the reference sheets are laid out for letter or a4" \
        in strict.output
    assert not (tmp_path / "strict").exists()


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_unknown_table_in_a_layout_is_one_clear_error(project_copy, tmp_path):
    layout = project_copy / "sheets" / "player-reference.yaml"
    layout.write_text(layout.read_text().replace("table: save-targets\n",
                                                 "table: save-targetz\n"))
    line = _line_of(layout, "save-targetz")
    out = tmp_path / "out"
    out.mkdir()
    (out / "reference.pdf").write_bytes(b"previous build")
    before = folder_snapshot(out)
    result = run_cli("build", "reference", "--source", project_copy, "--out", out, "--strict")
    assert result.exit_code == 2
    assert f"player-reference.yaml:{line}:" in result.output
    assert "no table 'save-targetz' in tables/ (did you mean 'save-targets'?)" in result.output
    assert "Traceback" not in result.output
    assert folder_snapshot(out) == before


def test_unknown_table_in_a_template_is_one_clear_error(project_copy, tmp_path):
    own = project_copy / "templates" / "sheets"
    own.mkdir(parents=True)
    builtin = Path(__file__).resolve().parent.parent / "templates" / "sheets" / "sheet.html.j2"
    text = builtin.read_text().replace("<body", '{{ table("hireling-moral") }}\n<body', 1)
    (own / "sheet.html.j2").write_text(text)
    line = _line_of(own / "sheet.html.j2", "hireling-moral")
    out = tmp_path / "out"
    result = run_cli("build", "reference", "--source", project_copy, "--out", out)
    assert result.exit_code == 2
    assert f"sheet.html.j2:{line}: error: table(\"hireling-moral\"): no table 'hireling-moral'" \
        in result.output
    assert "did you mean 'hireling-morale'?" in result.output
    assert not out.exists()


def test_a_block_that_does_not_fit_names_sheet_and_block(project_copy, tmp_path):
    layout = project_copy / "sheets" / "hammersmith-reference.yaml"
    text = layout.read_text()
    crowd = "              - table: camp-actions\n" * 4
    marker = "          - title: Morale\n"
    assert marker in text
    layout.write_text(text.replace(marker, "          - title: Crowded\n            items:\n"
                                   + crowd + marker))
    line = _line_of(layout, "title: Crowded")
    out = tmp_path / "out"
    result = run_cli("build", "reference", "--source", project_copy, "--out", out)
    assert result.exit_code == 2, result.output
    assert f"hammersmith-reference.yaml:{line}: error: block 'Crowded' (page 1, column 2) does " \
           "not fit: it runs" in result.output
    assert "past the bottom of its column 2" in result.output
    assert "block 'Morale' (page 1, column 2) does not fit" in result.output
    assert not out.exists()


def test_a_class_card_that_does_not_fit_names_the_class(project_copy, tmp_path):
    classes = project_copy / "tables" / "classes.yaml"
    extra = "".join(f"      - name: Extra {i}\n        rule: More.\n"
                    f"        reminder: {'A long reminder that fills the card up. ' * 2}\n"
                    for i in range(8))
    classes.write_text(_append_abilities(classes.read_text(), "dwarf-defender", extra))
    result = run_cli("build", "reference", "--source", project_copy, "--out", tmp_path / "o")
    assert result.exit_code == 2, result.output
    assert "class-cards.yaml:" in result.output
    assert "class card 'Dwarf Defender' does not fit" in result.output
    assert "print fewer cards a page" in result.output
    assert "Elf Exemplar" not in result.output


def _append_abilities(text: str, class_id: str, extra: str) -> str:
    start = text.index(f"  - id: {class_id}\n")
    end = text.find("\n  - id: ", start + 1)
    end = len(text) if end < 0 else end + 1
    block = text[start:end].rstrip("\n") + "\n" + extra + "\n"
    return text[:start] + block + text[end:]


def test_same_inputs_give_the_same_bytes(built, tmp_path):
    again = tmp_path / "again"
    build_project(RULES_SRC, again, ["reference"], strict=True, uncompressed=True)
    for name in ("reference.pdf", "screen.pdf"):
        assert (again / name).read_bytes() == (built / name).read_bytes()


def _only_sheets(project: Path, files: str) -> None:
    """Make the copy's reference product print just `files` (YAML flow mapping)."""
    manifest = project / "printshop.yaml"
    text = manifest.read_text()
    start = text.index("    files:\n")
    manifest.write_text(text[:start] + f"    files: {files}\n")


def test_a_table_that_sends_you_to_another_prints_without_a_dead_link(project_copy, tmp_path):
    (project_copy / "sheets" / "class-roll.yaml").write_text(
        "title: Rolling a Class\npages:\n  - title: One\n    columns:\n      - blocks:\n"
        "          - items:\n              - table: class-roll\n")
    _only_sheets(project_copy, "{classes: [class-roll]}")
    out = tmp_path / "out"
    report = build_project(project_copy, out, ["reference"], strict=True, uncompressed=True)
    assert report.warnings == []
    assert "→ roll on Human Class" in pdf_reader(out / "classes.pdf").pages[0].extract_text()


def test_a_sheet_id_is_a_name_not_a_path(project_copy, tmp_path):
    _only_sheets(project_copy, "{reference: [../printshop]}")
    result = run_cli("build", "reference", "--source", project_copy, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "printshop.yaml:" in result.output and "should match pattern" in result.output


def test_a_missing_sheet_layout_is_named_with_a_suggestion(project_copy, tmp_path):
    _only_sheets(project_copy, "{reference: [player-refrence]}")
    result = run_cli("check", "--source", project_copy)
    assert result.exit_code == 2
    assert "no sheet layout" in result.output and "player-refrence.yaml" in result.output
    assert "did you mean 'player-reference'?" in result.output


def test_a_table_id_computed_in_a_template_is_checked_when_composing(project_copy, tmp_path):
    own = project_copy / "templates" / "sheets"
    own.mkdir(parents=True)
    builtin = Path(__file__).resolve().parent.parent / "templates" / "sheets" / "sheet.html.j2"
    text = builtin.read_text().replace(
        "<body", '{% set wanted = "morale-" ~ "target" %}{{ table(wanted) }}\n<body', 1)
    (own / "sheet.html.j2").write_text(text)
    line = _line_of(own / "sheet.html.j2", "morale-")
    result = run_cli("build", "reference", "--source", project_copy, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert f"sheet.html.j2:{line}: error: table(\"morale-target\"): no table 'morale-target'" \
        in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()
