"""Joining chunk PDFs: pages in order, bookmarks, title, and the same bytes every time."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from pypdf import PdfWriter

from printshop.render.merge import merge_many_pdfs

from conftest import pdf_reader


def blank_pdf(widths: list[int]) -> bytes:
    """Blank pages whose widths (in points) tell them apart."""
    writer = PdfWriter()
    for width in widths:
        writer.add_blank_page(width=width, height=400)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


PARTS = [blank_pdf([100]), blank_pdf([201, 202, 203]), blank_pdf([300, 301])]


def test_many_parts_keep_their_pages_in_order():
    reader = pdf_reader(merge_many_pdfs(PARTS))
    assert [round(float(p.mediabox.width)) for p in reader.pages] == \
        [100, 201, 202, 203, 300, 301]


def test_bookmarks_and_title():
    merged = merge_many_pdfs(PARTS, title="Pack: seed ä-1",
                             outline=[("Cover", 0), ("#1 Elf Exemplar", 1), ("#2 Ünïcode", 4)])
    reader = pdf_reader(merged)
    assert reader.metadata.title == "Pack: seed ä-1"
    assert [(item.title, reader.get_destination_page_number(item)) for item in reader.outline] \
        == [("Cover", 0), ("#1 Elf Exemplar", 1), ("#2 Ünïcode", 4)]
    # another reader (pdfium, as a viewer would) agrees
    document = pdfium.PdfDocument(merged)
    assert len(document) == 6
    titles = [b.get_title() for b in document.get_toc()]
    assert titles == ["Cover", "#1 Elf Exemplar", "#2 Ünïcode"]
    document.close()


def test_the_same_parts_give_the_same_bytes():
    outline = [("a", 0), ("b", 3)]
    first = merge_many_pdfs(PARTS, title="t", outline=outline)
    assert merge_many_pdfs(PARTS, title="t", outline=outline) == first
    assert merge_many_pdfs(PARTS[::-1], title="t", outline=outline) != first
    assert b"CreationDate" not in first    # no clock in a reproducible file
