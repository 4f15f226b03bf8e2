"""Manuscripts written for other tools, built as books (tests/fixtures/manuscripts): what a
reader of the printed book would notice."""

import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, pdf_reader, pdf_text
from printshop import system_check
from printshop.builder import build_project
from printshop.errors import PrintshopError

MANUSCRIPTS = FIXTURES / "manuscripts"
HAVE_SYSTEM_FONTS = Path(system_check.CJK_FONT).exists() and \
    Path(system_check.THAI_FONT).exists()   # `make test` stops first if they are missing


def build(source: Path, out: Path, **options):
    report = build_project(source, out, uncompressed=True, **options)
    pdf = next(out.glob("*.pdf"))
    return report, pdf_reader(pdf), pdf_text(pdf)


def starts(reader) -> dict[str, int]:
    """Top-level bookmark → page number (from 1)."""
    return {item.title: reader.get_destination_page_number(item) + 1
            for item in reader.outline if not isinstance(item, list)}


def copy(name, tmp_path) -> Path:
    target = tmp_path / name
    shutil.copytree(MANUSCRIPTS / name, target)
    return target


def test_kramdown_site_prints_as_a_book(tmp_path):
    report, reader, text = build(MANUSCRIPTS / "kramdown", tmp_path / "out", paper="a4")
    assert report.warnings == []
    first = reader.pages[0].extract_text()
    assert "The Lantern Road" in first and "TEST AUTHOR" in first  # title from front matter
    for debris in ("nav_order", "layout:", "{:", "no_toc", "DRAFT TEXT", "Unfinished"):
        assert debris not in text
    pages = starts(reader)
    assert list(pages) == ["Contents", "The Lantern Road", "Rules", "Spells", "Colophon"]
    # a new page for each chapter, but no blank left-hand page before a short one
    assert pages["Rules"] == pages["The Lantern Road"] + 1
    assert pages["Spells"] == pages["Rules"] + 1


def test_chapter_start_recto_is_asked_for(tmp_path):
    source = copy("kramdown", tmp_path)
    (source / "printshop.yaml").write_text("title: Recto Book\nchapter_start: recto\n")
    _, reader, _ = build(source, tmp_path / "out")
    pages = starts(reader)
    assert all(pages[t] % 2 == 1 for t in ("The Lantern Road", "Rules", "Spells"))
    assert reader.pages[0].extract_text().strip().startswith("Recto Book")  # manifest wins


def test_short_manuscript_manifest_sets_title_author_and_paper(tmp_path):
    source = copy("missing-image", tmp_path)
    (source / "printshop.yaml").write_text("title: Deep Delve\nauthor: A. Writer\npaper: a5\n")
    _, reader, _ = build(source, tmp_path / "out")
    assert abs(float(reader.pages[0].mediabox.width) * 25.4 / 72 - 148) < 0.5
    assert "Deep Delve" in reader.pages[0].extract_text()


def test_missing_image_prints_a_box_or_fails_under_strict(tmp_path):
    source = MANUSCRIPTS / "missing-image"
    report, reader, text = build(source, tmp_path / "out")
    messages = [(Path(w.path).name, w.line, w.message) for w in report.warnings]
    assert ("01-delve.md", 5, "image 'maps/level-1.png': file not found; a placeholder box "
            "is printed instead") in messages
    assert ("01-delve.md", 7, "link to '#nowhere': no heading has that id") in messages
    assert "Missing image: maps/level-1.png" in text and "After the map: see the rules." in text
    assert reader.pages[0].extract_text().strip() == "Delve"  # its only file's heading
    with pytest.raises(PrintshopError) as failed:
        build_project(source, tmp_path / "strict", strict=True)
    assert any(p.line == 5 and "--strict" in p.message for p in failed.value.problems)
    assert not (tmp_path / "strict").exists()


def test_obsidian_vault_and_pandoc_chapter(tmp_path):
    report, reader, text = build(MANUSCRIPTS / "obsidian", tmp_path / "obsidian")
    assert [w.line for w in report.warnings] == [19]  # [[Nowhere]]
    assert reader.pages[0].extract_text().strip() == "Obsidian"  # the folder's name
    assert "DEADLY" in text and "FOLDED TIP" in text and "[!" not in text
    assert "how to cast (p." in text.replace("\n", " ")
    report, _, text = build(MANUSCRIPTS / "pandoc", tmp_path / "pandoc")
    assert "The last paragraph must still print." in text and "alert" not in text


def test_a_twelve_column_table_spans_the_page_and_fits(tmp_path):
    report, reader, text = build(MANUSCRIPTS / "wide-table", tmp_path / "out")
    assert report.warnings == []  # nothing past a column or the page
    assert "Special abilities gained at this level" in text.replace("\n", " ")


def test_a_box_past_its_column_is_a_warning_at_its_line(tmp_path):
    source = tmp_path / "wide"
    source.mkdir()
    (source / "printshop.yaml").write_text("title: Wide\nhtml: trusted\n")
    (source / "01-a.md").write_text("# A\n\nFine.\n\n<div style=\"width: 150mm\">A block "
                                    "wider than any column.</div>\n")
    report, _, _ = build(source, tmp_path / "out")
    outside = [w for w in report.warnings if "past the right edge" in w.message]
    assert len(outside) == 1 and outside[0].line == 5 and outside[0].path.endswith("01-a.md")
    assert "its column" in outside[0].message
    with pytest.raises(PrintshopError):
        build_project(source, tmp_path / "strict", strict=True)


@pytest.mark.skipif(not HAVE_SYSTEM_FONTS, reason="needs fonts-noto-cjk and fonts-thai-tlwg")
def test_japanese_korean_thai_print_with_system_fonts_named_in_the_colophon(tmp_path):
    report, reader, text = build(MANUSCRIPTS / "scripts", tmp_path / "out")
    assert report.warnings == []  # no character without a font
    colophon = " ".join(reader.pages[-1].extract_text().split())
    named = colophon.split(" in ", 1)[1].split(". ")[0].rstrip(".")   # (its sentence)
    families = [f.strip() for f in named.replace(" and ", ", ").split(",")]
    squash = lambda name: "".join(c for c in name.casefold() if c.isalnum())  # noqa: E731
    used = {str(f.get_object()["/BaseFont"]).split("+")[-1]
            for page in reader.pages for f in (page["/Resources"].get("/Font") or {}).values()}
    for name in used:  # every font in the PDF is named in the colophon
        assert any(squash(name).startswith(squash(family)) for family in families), \
            (name, families)
    assert any("CJK" in family for family in families)  # Japanese and Korean
    others = [f for f in families if "CJK" not in f and f not in (
        "Vollkorn", "Roboto Condensed", "Pirata One", "DejaVu Sans Mono")]
    assert others, families  # and a Thai font


def test_characters_no_font_has_are_reported_once_per_script(tmp_path):
    source = copy("scripts", tmp_path)
    (source / "printshop.yaml").write_text("title: Boxes\nsystem_fonts: false\n")
    report, _, _ = build(source, tmp_path / "out")
    messages = sorted(w.message for w in report.warnings)
    assert len(messages) == 3, messages
    hangul, cjk, thai = messages
    assert thai.startswith("73 Thai characters (36 different")
    assert "install fonts-thai-tlwg" in thai and "fonts/" in thai
    assert cjk.startswith("52 CJK characters") and "fonts-noto-cjk" in cjk
    assert hangul.startswith("49 Hangul characters") and "fonts-noto-cjk" in hangul
    # each at the first place its script appears, as the author's file has it
    where = {w.message.split()[1]: (Path(w.path).name, w.line, w.column)
             for w in report.warnings}
    assert where == {"CJK": ("01-languages.md", 3, 4), "Hangul": ("01-languages.md", 7, 4),
                     "Thai": ("01-languages.md", 11, 4)}


def test_one_character_no_font_has_is_named_at_its_line(tmp_path, monkeypatch):
    source = tmp_path / "p"
    source.mkdir()
    (source / "printshop.yaml").write_text("title: Boxes\nsystem_fonts: false\n")
    (source / "a.md").write_text("# Beasts\n\nThe wyrm\n\nA dragon 🐉 sleeps.\n")
    monkeypatch.chdir(tmp_path)
    report = build_project(source, tmp_path / "out")
    emoji, = report.warnings
    assert str(emoji).startswith("p/a.md:5:10: 1 Emoji character (🐉 U+1F409) has no font")
    assert "add an Emoji font" in emoji.message


def test_a_character_only_a_table_prints_is_named_at_the_chapter(tmp_path):
    from printshop.products.common import first_place

    chapter = tmp_path / "a.md"
    chapter.write_text("# Loot\n\n::table[loot]\n")
    assert first_place(str(chapter), {"🐉"}) is None      # not in the chapter's text
    assert first_place(str(chapter), {"L", "t"}) == (1, 3)  # the first of any of them
    assert first_place(str(tmp_path / "cards.csv"), {"L"}) is None   # rows, not lines
    assert first_place(str(tmp_path / "missing.md"), {"L"}) is None


@pytest.mark.skipif(not HAVE_SYSTEM_FONTS, reason="needs fonts-thai-tlwg")
def test_a_project_font_fills_in_without_system_fonts(tmp_path):
    source = tmp_path / "thai"
    (source / "fonts").mkdir(parents=True)
    shutil.copy("/usr/share/fonts/truetype/tlwg/Loma.ttf", source / "fonts" / "Loma.ttf")
    (source / "printshop.yaml").write_text("title: Thai\nsystem_fonts: false\n"
                                           "fonts: [fonts/Loma.ttf]\n")
    (source / "a.md").write_text("# Thai\n\nนักผจญภัยเดินลึกเข้าไป\n")
    report, reader, _ = build(source, tmp_path / "out")
    assert report.warnings == []
    assert "Loma" in reader.pages[-1].extract_text()


def test_fonts_outside_the_project_are_refused(tmp_path):
    source = tmp_path / "p"
    source.mkdir()
    (source / "printshop.yaml").write_text("title: X\nfonts: [/usr/share/fonts/x.ttf, a.md]\n")
    (source / "a.md").write_text("# A\n")
    with pytest.raises(PrintshopError) as failed:
        build_project(source, tmp_path / "out")
    assert [p.line for p in failed.value.problems] == [2, 2]


def test_the_fix_says_what_to_do_with_and_without_system_fonts():
    from collections import Counter

    from printshop.render.fonts import describe_missing

    allowed = describe_missing("Thai", Counter("กขข"), system=True)
    assert "install fonts-thai-tlwg, or add a Thai font to fonts/" in allowed
    refused = describe_missing("Thai", Counter("กขข"), system=False)
    assert "install fonts-thai-tlwg and allow system_fonts: true in printshop.yaml" in refused
