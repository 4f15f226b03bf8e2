"""The blank character sheet: one page on Letter and on A4, nothing rolled, a fillable form
that a player can fill in and save (filled here with pypdf), and a print-only edition."""

from __future__ import annotations

import re

import pytest

from conftest import RULES_SRC, pdf_colours, pdf_reader, pdf_text
from printshop.builder import build_project
from printshop.errors import PrintshopError

# what the issue asks a player can fill in on screen
FIELDS = (["name", "class", "level", "alignment", "hp-max", "hp-current", "ac", "melee-attack",
           "melee-damage", "missile-attack", "attack-dice", "damage-die", "attack-rank",
           "armour", "shield", "weapons", "abilities", "skills", "languages", "spells", "kit",
           "notes", "xp", "xp-next"]
          + [s for stat in ("str", "dex", "con", "int", "wis", "cha")
             for s in (stat, f"{stat}-mod")]
          + [s for save in ("area", "body", "death", "luck", "mind", "rally")
             for s in (f"save-{save}", f"save-{save}-quality")])
MM = 72 / 25.4
# the sheet's colours as they always printed (ink, sheet-dim, blood, sheet-rule, sheet-faint,
# white): now the palette's, and unchanged on a home printer
SHEET_SRGB = {"#1d1a17", "#5e5345", "#7a1712", "#8c7d68", "#c9bba2", "#ffffff"}


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    out = tmp_path_factory.mktemp("blank")
    build_project(RULES_SRC, out, names=["blank-sheet"], strict=True, uncompressed=True)
    return {paper: (out / f"blank-sheet-{paper}.pdf").read_bytes() for paper in ("letter", "a4")}


@pytest.mark.parametrize("paper, size_mm", [("letter", (215.9, 279.4)), ("a4", (210, 297))])
def test_one_page_of_the_right_paper(sheets, paper, size_mm):
    reader = pdf_reader(sheets[paper])
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert float(box.width) == pytest.approx(size_mm[0] * MM, abs=1)
    assert float(box.height) == pytest.approx(size_mm[1] * MM, abs=1)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_space_is_an_empty_form_field(sheets, paper):
    fields = pdf_reader(sheets[paper]).get_fields()
    missing = [name for name in FIELDS if name not in fields]
    assert missing == []
    for role in ("party-leader", "mapper", "lootkeeper", "timekeeper"):  # tables/party-roles
        assert fields[f"role-{role}"]["/FT"] == "/Btn"
        assert fields[f"role-{role}"].get("/V") == "/Off"
    for name in FIELDS:
        assert fields[name]["/FT"] == "/Tx", name
        assert fields[name].get("/V", "") == "", f"{name} is not blank"
    # a viewer shows what each field is for
    assert fields["str-mod"]["/TU"] == "STR modifier"
    # the writing areas take several lines
    assert int(fields["notes"]["/Ff"]) & (1 << 12)
    # numbers sit centred in their boxes as on a pregen sheet, save bonuses to the right
    quadding = {str(a.get_object()["/T"]): a.get_object().get("/Q", 0)
                for a in pdf_reader(sheets[paper]).pages[0]["/Annots"]}
    assert (quadding["str"], quadding["ac"], quadding["save-body"], quadding["name"]) == \
        (1, 1, 2, 0)


def test_nothing_rolled_is_printed(sheets):
    text = pdf_text(sheets["letter"])
    for label in ("STR", "CHA", "Max HP", "Armour Class", "Saves", "Class abilities", "Skills",
                  "Languages", "Kit", "Notes", "XP", "Party Leader", "Who you were"):
        assert label.lower() in text.lower(), label
    # the only number on the sheet is the "print at 100 %" note: no score, HP, AC or seed
    assert re.findall(r"\d+", text) == ["100"]
    assert "#" not in text
    # the stat each save uses comes from tables/saving-throws.yaml, as on the pregens
    assert re.search(r"Area\s*DEX", text)


def test_a_player_fills_it_in_on_screen_and_saves_it(sheets, tmp_path):
    from pypdf import PdfWriter

    writer = PdfWriter(clone_from=pdf_reader(sheets["a4"]))
    values = {"name": "Grimble Ashfoot", "class": "Dwarf Defender", "str": "15", "str-mod": "+1",
              "hp-max": "9", "ac": "16", "save-body": "+2", "skills": "Mining, Brewing",
              "kit": "Hand axe, rope, 3 torches", "xp": "0"}
    writer.update_page_form_field_values(writer.pages[0], values, auto_regenerate=False)
    writer.set_need_appearances_writer(True)
    saved = tmp_path / "grimble.pdf"
    with open(saved, "wb") as f:
        writer.write(f)
    fields = pdf_reader(saved).get_fields()
    for name, value in values.items():
        assert fields[name]["/V"] == value
    assert fields["notes"].get("/V", "") == ""


def test_the_print_only_edition_has_no_form(project_copy, tmp_path):
    manifest = project_copy / "printshop.yaml"
    manifest.write_text(manifest.read_text().replace(
        "    kind: blank-sheet\n",
        "    kind: blank-sheet\n    fillable: false\n    papers: [a4]\n"))
    build_project(project_copy, tmp_path, names=["blank-sheet"], strict=True)
    assert not (tmp_path / "blank-sheet-letter.pdf").exists()
    pdf = (tmp_path / "blank-sheet-a4.pdf").read_bytes()
    reader = pdf_reader(pdf)
    assert not reader.get_fields()
    assert "CLASS ABILITIES" in reader.pages[0].extract_text()   # (h2s are upper case)
    # its ruled lines are drawn as lines, not as a gradient (which cannot be printed in CMYK;
    # this edition is the one at the back of the press editions of the book)
    assert pdf_colours(pdf) == SHEET_SRGB
    assert not reader.pages[0]["/Resources"].get("/Pattern")
    assert not reader.pages[0]["/Resources"].get("/Shading")


def test_home_colours_are_the_palettes_srgb_values(sheets):
    for paper in ("letter", "a4"):
        assert pdf_colours(sheets[paper]) == SHEET_SRGB


def test_a_projects_palette_recolours_the_sheet(project_copy, tmp_path):
    (project_copy / "palette.yaml").write_text(
        'colours:\n  sheet-rule: {srgb: "#2a6f3c", cmyk: "62 0 46 56"}\n'
        '  sheet-dim: {srgb: "#3c3c3c", cmyk: "0 0 0 85"}\n')
    build_project(project_copy, tmp_path, names=["blank-sheet"], paper="letter", strict=True)
    colours = pdf_colours((tmp_path / "blank-sheet-letter.pdf").read_bytes())
    assert {"#2a6f3c", "#3c3c3c"} <= colours
    assert not {"#8c7d68", "#5e5345"} & colours


def test_a_broken_palette_is_a_located_error(project_copy, tmp_path):
    (project_copy / "palette.yaml").write_text(
        'colours:\n  sheet-rule: {srgb: "#2a6f3c", cmyk: "62 0 46"}\n')
    with pytest.raises(PrintshopError) as failed:
        build_project(project_copy, tmp_path / "out", names=["blank-sheet"], strict=True)
    message = str(failed.value).replace("\\", "/")
    assert "palette.yaml:2" in message and "give four per cents" in message
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_paper_on_the_command_line_builds_that_paper_only(tmp_path):
    build_project(RULES_SRC, tmp_path, names=["blank-sheet"], paper="a4", strict=True)
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["blank-sheet-a4.pdf"]


def test_a_sheet_drawn_smaller_on_a_book_page_is_the_same_bytes_every_build():
    # the A5 book's last page (and a press edition's): the sheet placed as a form, under a
    # name of its own, never a random one
    import io

    import pikepdf

    from printshop.products.characters.book_sheet import _add_page_like, _place

    def placed() -> bytes:
        sheet_file = pikepdf.new()
        sheet_file.add_blank_page(page_size=(612, 792))
        book = pikepdf.new()
        book.add_blank_page(page_size=(420, 595))
        last = book.pages[-1]
        _place(book, _add_page_like(book, last), sheet_file.pages[0], last, None)
        out = io.BytesIO()
        book.save(out, deterministic_id=True)
        return out.getvalue()

    first = placed()
    with pikepdf.open(io.BytesIO(first)) as book:
        assert list(book.pages[-1].Resources.XObject.keys()) == ["/Sheet"]
    assert placed() == first
