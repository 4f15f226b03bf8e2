"""Books built as booklets and pocketmod zines (products/layouts.py): the reading-order
PDF made first, then imposed. What a person folding the sheets would notice: every page
where the fold puts it, read back from the PDFs with pdfium; the instructions; the quick
start's eight pages holding the rules tables' rows; clear errors."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from printshop.builder import build_project
from printshop.errors import PrintshopError
from tests.conftest import RULES_SRC, run_cli

CHAPTER = "# {title}\n\n" + ("The {title} chapter goes on at some length here. " * 30 + "\n\n") * 3


def manuscript(folder: Path, chapters: int) -> Path:
    folder.mkdir(parents=True)
    for number in range(1, chapters + 1):
        (folder / f"{number:02d}-part.md").write_text(
            CHAPTER.format(title=f"Part {number}"))
    return folder


def page_texts(pdf: Path) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    texts = [" ".join(page.get_textpage().get_text_range().split()) for page in document]
    document.close()
    return texts


def half_texts(pdf: Path) -> list[tuple[str, str]]:
    document = pdfium.PdfDocument(pdf)
    out = []
    for page in document:
        width, height = page.get_size()
        text = page.get_textpage()
        out.append(tuple(" ".join(text.get_text_bounded(x0, 0, x1, height).split())
                         for x0, x1 in ((0, width / 2), (width / 2, width))))
    document.close()
    return out


@pytest.fixture(scope="module", params=[("a4", "a5", (148, 210)),
                                        ("letter", "digest", (139.7, 215.9))],
                ids=["a5-on-a4", "digest-on-letter"])
def booklet(request, tmp_path_factory):
    paper, page_paper, page_mm = request.param
    folder = tmp_path_factory.mktemp(f"booklet-{paper}")
    source = manuscript(folder / "tales", 3)
    build_project(source, folder / "out", paper=paper, strict=True,
                  context_options={"layout": "booklet"})
    return paper, page_mm, folder / "out" / "tales.pdf", folder / "out" / "tales-booklet.pdf"


def test_the_booklet_reads_in_page_order_when_folded(booklet):
    paper, page_mm, reading, imposed = booklet
    pages = page_texts(reading)
    count = len(pages)
    total = -(-count // 4) * 4
    assert total > count      # blanks are needed: where they go is part of the test
    # the booklet's page n is the document's page n, except that the blanks that make a
    # multiple of four go just before the last page (the back cover)
    booklet_page = {n: pages[n - 1] for n in range(1, count)}
    booklet_page[total] = pages[-1]
    sides = half_texts(imposed)[:-1]            # the last page: the instructions
    assert len(sides) == total // 2
    for sheet in range(total // 4):             # written out, not from render/pdf/booklet
        front, back = sides[2 * sheet], sides[2 * sheet + 1]
        assert front == (booklet_page.get(total - 2 * sheet, ""),
                         booklet_page.get(1 + 2 * sheet, "")), f"sheet {sheet + 1} front"
        assert back == (booklet_page.get(2 + 2 * sheet, ""),
                        booklet_page.get(total - 1 - 2 * sheet, "")), f"sheet {sheet + 1} back"
    # page 1 (the title) opposite the last page, on the outside of the first sheet
    assert sides[0][1].startswith("Tales") and sides[0][0] == pages[-1]


def test_the_folios_printed_on_the_sheets_follow_the_saddle_stitch_order(booklet):
    paper, page_mm, reading, imposed = booklet
    count = len(page_texts(reading))
    total = -(-count // 4) * 4
    for number, (left, right) in enumerate(half_texts(imposed)[:-1]):
        sheet, back = divmod(number, 2)
        want = ((2 + 2 * sheet, total - 1 - 2 * sheet) if back
                else (total - 2 * sheet, 1 + 2 * sheet))
        for text, folio in zip((left, right), want):
            printed = re.findall(r"(?<!\S)(\d{1,3})(?!\S)", text)
            if printed and folio < count:    # a blank or an unnumbered page prints none
                assert str(folio) in printed, (number, text[:60])


def test_the_pages_are_half_the_sheet_and_the_instructions_come_last(booklet):
    paper, page_mm, reading, imposed = booklet
    document = pdfium.PdfDocument(reading)
    width, height = document[0].get_size()
    assert (width * 25.4 / 72, height * 25.4 / 72) == pytest.approx(page_mm, abs=0.2)
    document.close()
    sides = len(page_texts(imposed)) - 1
    last = page_texts(imposed)[-1]
    assert "Printing and folding this booklet" in last
    assert f"pages 1–{sides}" in last and "flip on the short edge" in last
    assert "100 %" in last


def test_the_quick_start_is_eight_pages_of_the_rules_tables_rows(tmp_path):
    from printshop.source.tables import load_table

    out = tmp_path / "out"
    build_project(RULES_SRC, out, ["quickstart"], strict=True, uncompressed=True)
    pages = page_texts(out / "quickstart.pdf")
    assert len(pages) == 8
    text = " ".join(pages)
    # the tables come from rules-src/tables/, so the handout cannot drift from them
    for table_id in ("class-roll", "human-class", "stat-modifiers", "saving-throws",
                     "save-targets", "combat-phases", "zero-hp-options",
                     "skill-test-targets"):
        table = load_table(RULES_SRC / "tables" / f"{table_id}.yaml")
        for row in table.rows:
            for column in table.printed_columns:
                value = row.get(column.key)
                if isinstance(value, str):
                    first = value.replace("*", "").split()[0]
                    assert first in text, (table_id, value)
    # nothing smaller than 8 pt (folios included)
    document = pdfium.PdfDocument(out / "quickstart.pdf")
    import pypdfium2.raw as raw
    for page in document:
        textpage = page.get_textpage()
        sizes = {round(raw.FPDFText_GetFontSize(textpage.raw, i), 1)
                 for i in range(textpage.count_chars())
                 if textpage.get_text_range(i, 1).strip()}
        assert min(sizes) >= 7.95, sizes
    document.close()
    # the zine: the sheet, then how to fold it
    sheets = page_texts(out / "quickstart-pocketmod.pdf")
    assert len(sheets) == 2 and "Folding this zine" in sheets[1]
    assert "cut along the dashed line" in sheets[1]


def test_a_pocketmod_of_more_than_eight_pages_names_the_product_and_its_pages(tmp_path):
    source = manuscript(tmp_path / "long", 2)   # many pages at a zine's size
    with pytest.raises(PrintshopError) as caught:
        build_project(source, tmp_path / "out", context_options={"layout": "pocketmod"})
    message = str(caught.value)
    assert "products.long" in message and re.search(r"long\.pdf has \d+", message)
    assert "holds 8 pages" in message
    assert not (tmp_path / "out" / "long.pdf").exists()   # nothing written


def test_a_layout_for_cards_or_a_press_is_refused_before_rendering(tmp_path):
    result = run_cli("build", "event-deck", "--layout", "booklet", "--source", RULES_SRC,
                     "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "products.event-deck: the booklet layout is for books and reference sheets" in \
        result.output and "home, foldover, printshop" in result.output
    result = run_cli("build", "quickstart", "--profile", "dtrpg-book", "--source",
                     RULES_SRC, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "is for a press" in result.output
