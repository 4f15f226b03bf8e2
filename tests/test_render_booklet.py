"""Saddle-stitched booklets (render/pdf/booklet.py) and the page placing under them
(render/pdf/place_pages.py), on small PDFs made here: each page prints its number, read
back from the imposed sheets with pdfium."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium
import pytest

from printshop.render.pdf.booklet import (
    creep_shift_mm,
    impose_booklet,
    reading_sequence,
    saddle_sides,
)

PT = 72 / 25.4
A4 = (210.0, 297.0)
A5 = (148.0, 210.0)


def numbered_pdf(count: int, size_mm=A5, label="PAGE") -> bytes:
    """`count` pages of `size_mm`, each printing 'PAGE n' near its top left corner."""
    doc = pikepdf.new()
    font = doc.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font,
                                                Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    width, height = size_mm[0] * PT, size_mm[1] * PT
    for number in range(1, count + 1):
        content = f"BT /F1 12 Tf 20 {height - 30:.1f} Td ({label} {number}) Tj ET".encode()
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page,
                                  MediaBox=pikepdf.Array([0, 0, width, height]),
                                  Resources=pikepdf.Dictionary(
                                      Font=pikepdf.Dictionary(F1=font)),
                                  Contents=doc.make_stream(content))
        doc.pages.append(pikepdf.Page(page))
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def halves(pdf: bytes) -> list[tuple[str, str]]:
    """Each side's text in its left and right half (pdfium reads what is drawn)."""
    document = pdfium.PdfDocument(pdf)
    out = []
    for page in document:
        width, height = page.get_size()
        text = page.get_textpage()
        out.append((text.get_text_bounded(0, 0, width / 2, height).strip(),
                    text.get_text_bounded(width / 2, 0, width, height).strip()))
    document.close()
    return out


def test_reading_sequence_pads_to_four_with_the_blanks_before_the_back_cover():
    assert reading_sequence(4) == [0, 1, 2, 3]
    assert reading_sequence(6) == [0, 1, 2, 3, 4, None, None, 5]   # 6 is the back cover
    assert reading_sequence(9) == [0, 1, 2, 3, 4, 5, 6, 7, None, None, None, 8]
    assert reading_sequence(1) == [0, None, None, None]            # a front cover alone


def test_saddle_sides_of_an_eight_page_booklet():
    # sheet 1 front, sheet 1 back, sheet 2 front, sheet 2 back (left, right)
    assert saddle_sides(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    with pytest.raises(ValueError):
        saddle_sides(6)


def test_every_page_once_and_each_sheet_folds_into_consecutive_pages():
    for total in (4, 8, 12, 44):
        sides = saddle_sides(total)
        assert sorted(n for side in sides for n in side) == list(range(1, total + 1))
        for left, right in sides:   # opposite each other across a fold: they add up
            assert left + right == total + 1


def test_creep_moves_inner_sheets_by_the_paper_thickness_per_sheet_outside_them():
    assert creep_shift_mm(0, 0.1) == 0
    assert creep_shift_mm(5, 0.1) == pytest.approx(0.5)


def test_a_booklet_of_ten_a5_pages_on_a4_reads_back_in_saddle_stitch_order():
    made = impose_booklet(numbered_pdf(10), A4, thickness_mm=0.1)
    assert (made.pages, made.booklet_pages, made.sheets, made.blanks) == (10, 12, 3, 2)
    assert made.scale == 1.0
    assert made.creep_mm == pytest.approx(0.2)
    # page 10 is the back cover: the two blanks are booklet pages 10 and 11
    assert halves(made.pdf) == [
        ("PAGE 10", "PAGE 1"), ("PAGE 2", ""),        # sheet 1: front, back
        ("", "PAGE 3"), ("PAGE 4", "PAGE 9"),        # sheet 2
        ("PAGE 8", "PAGE 5"), ("PAGE 6", "PAGE 7")]  # sheet 3: the middle spread 6|7
    with pikepdf.open(io.BytesIO(made.pdf)) as doc:
        for page in doc.pages:   # landscape A4, nothing turned (short-edge duplex)
            assert [round(float(v)) for v in page.MediaBox] == [0, 0, 842, 595]
            assert "/Rotate" not in page.obj


def test_creep_moves_the_inner_sheets_pages_towards_the_fold():
    made = impose_booklet(numbered_pdf(8), A4, thickness_mm=0.5)
    document = pdfium.PdfDocument(made.pdf)

    def x_of(side: int, label: str) -> float:
        text = document[side].get_textpage()
        start = text.get_text_range().index(label)
        return text.get_charbox(start)[0]

    # sheet 1 (outermost) front: PAGE 1 on the right half at its own place; sheet 2 front:
    # PAGE 3, on the right half too, moved 0.5 mm towards the fold (left)
    outer, inner = x_of(0, "PAGE 1"), x_of(2, "PAGE 3")
    assert outer - inner == pytest.approx(0.5 * PT, abs=0.05)
    # on the left halves the pages move right: sheet 1 front PAGE 8, sheet 2 front PAGE 6
    assert x_of(2, "PAGE 6") - x_of(0, "PAGE 8") == pytest.approx(0.5 * PT, abs=0.05)
    document.close()


def test_fold_ticks_on_the_inside_of_each_sheet_only():
    made = impose_booklet(numbered_pdf(8), A4)
    with pikepdf.open(io.BytesIO(made.pdf)) as doc:
        strokes = [page.Contents.read_bytes().count(b" S Q") for page in doc.pages]
    assert strokes == [0, 2, 0, 2]


def test_pages_bigger_than_half_the_sheet_are_drawn_smaller_and_say_so():
    made = impose_booklet(numbered_pdf(4, size_mm=A4), A4)
    assert made.scale == pytest.approx(148.5 / 210, abs=0.001)
    assert halves(made.pdf)[0] == ("PAGE 4", "PAGE 1")


def test_a_booklet_is_the_same_bytes_every_time():
    source = numbered_pdf(6)
    assert impose_booklet(source, A4).pdf == impose_booklet(source, A4).pdf
