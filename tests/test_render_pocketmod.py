"""The one-sheet pocketmod zine (render/pdf/pocketmod.py): each page in its panel, the top
row turned 180°, the cut across the middle two panels. Read back with pdfium from a small
PDF made here whose pages print their number near their top left corner."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium
import pytest

from printshop.render.pdf.pocketmod import impose_pocketmod, panel_size_mm
from tests.test_render_booklet import PT, numbered_pdf

LETTER = (215.9, 279.4)
A4 = (210.0, 297.0)
# what a folded pocketmod needs, written out here rather than taken from the module:
# top row (upside down) 5 4 3 2, bottom row 6 7 8 1
EXPECTED = {5: (0, "top"), 4: (1, "top"), 3: (2, "top"), 2: (3, "top"),
            6: (0, "bottom"), 7: (1, "bottom"), 8: (2, "bottom"), 1: (3, "bottom")}


def test_panel_sizes():
    assert panel_size_mm(A4) == pytest.approx((74.25, 105.0))
    assert panel_size_mm(LETTER) == pytest.approx((69.85, 107.95))


@pytest.mark.parametrize("sheet", [LETTER, A4], ids=["letter", "a4"])
def test_each_page_in_its_panel_the_top_row_turned(sheet):
    panel = panel_size_mm(sheet)
    pdf, scale = impose_pocketmod(numbered_pdf(8, size_mm=panel), sheet)
    assert scale == 1.0
    document = pdfium.PdfDocument(pdf)
    page = document[0]
    width, height = page.get_size()
    assert (round(width), round(height)) == (round(max(sheet) * PT), round(min(sheet) * PT))
    text = page.get_textpage()
    all_text = text.get_text_range()
    for number, (column, row) in EXPECTED.items():
        start = all_text.index(f"PAGE {number}")
        x0, y0, x1, y1 = text.get_charbox(start)   # the "P": where the label begins
        assert int(x0 // (width / 4)) == column, number
        in_top_row = y0 > height / 2
        assert in_top_row == (row == "top"), number
        # the label is near its page's top left: upright, near the panel's top and left
        # edge; turned, near the panel's bottom and right edge (and it reads backwards)
        panel_x = x0 - column * width / 4
        panel_y = y0 - (height / 2 if in_top_row else 0)
        if row == "top":
            assert panel_y < height / 4 and panel_x > width / 8, number
            end = text.get_charbox(start + len(f"PAGE {number}") - 1)
            assert end[0] < x0, number            # the last letter left of the first
        else:
            assert panel_y > height / 4 and panel_x < width / 8, number
    document.close()


def test_the_cut_runs_across_the_middle_two_panels_only():
    pdf, _ = impose_pocketmod(numbered_pdf(8, size_mm=panel_size_mm(A4)), A4)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        content = doc.pages[0].Contents.read_bytes().decode()
    # the cut: black (0 G), heavier than the grey folds, at mid-height from 1/4 to 3/4
    middle, quarter = 105 * PT, 297 / 4 * PT
    cut = [line for line in content.splitlines() if line.startswith("q 0 G")]
    assert len(cut) == 1
    numbers = [float(v) for v in cut[0].split("d ")[1].split(" m ")[0].split()] + \
        [float(v) for v in cut[0].split(" m ")[1].split(" l")[0].split()]
    assert numbers == pytest.approx([quarter, middle, 3 * quarter, middle], abs=0.01)


def test_fewer_than_eight_pages_leave_panels_blank_and_more_are_refused():
    pdf, _ = impose_pocketmod(numbered_pdf(3, size_mm=panel_size_mm(A4)), A4)
    text = pdfium.PdfDocument(pdf)[0].get_textpage().get_text_range()
    assert "PAGE 3" in text and "PAGE 4" not in text
    with pytest.raises(ValueError):
        impose_pocketmod(numbered_pdf(9, size_mm=panel_size_mm(A4)), A4)
