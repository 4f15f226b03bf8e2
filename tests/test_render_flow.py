"""The page-flow report (render/weasy/flow.py) on small books laid out by WeasyPrint 70 in this
process: a heading stranded at the foot of a column, a chapter ending on a near-empty page,
a column stopping short mid-chapter, a title page running onto a second page; and the CSS
that keeps a heading with what it heads, honoured by WeasyPrint inside columns."""

from __future__ import annotations

import pytest

weasyprint = pytest.importorskip("weasyprint")

from printshop.render.weasy.flow import find_flow, find_near_empty  # noqa: E402

PAGE = """
@page { size: 120mm 100mm; margin: 10mm; }
body { font: 10pt/12pt "DejaVu Sans", sans-serif; margin: 0; }
.chapter { break-before: page; }
.chapter-body { columns: 2; column-gap: 5mm; }
p { margin: 0 0 4pt; orphans: 2; widows: 2; }
h2 { margin: 6pt 0 2pt; font-size: 12pt; line-height: 14pt; }
.box { break-inside: avoid; border: 1pt solid; }
table { break-inside: avoid; border-collapse: collapse; } td { border: 0.5pt solid; }
"""
KEEP = """
h2 { break-after: avoid; }
h2 + p { break-before: avoid; }
h2 + p + :is(table, .box) { break-before: avoid; }
"""


def lay_out(body: str, css: str = ""):
    html = f"<html><body>{body}</body></html>"
    return weasyprint.HTML(string=html).render(
        stylesheets=[weasyprint.CSS(string=PAGE + css)])


def chapter(title: str, content: str, source: str = "guide/01-x.md") -> str:
    return (f'<section class="chapter" data-source="{source}"><h1>{title}</h1>'
            f'<div class="chapter-body">{content}</div></section>')


def lines(n: int, word: str = "Filler") -> str:
    return "".join(f"<p>{word} line {i}.</p>" for i in range(n))


TABLE = "<table>" + "".join(f"<tr><td>row {i}</td></tr>" for i in range(8)) + "</table>"


def stranded_book(filler: int) -> str:
    """A heading, one line of text, then a table that does not fit below them."""
    return chapter("Rules", lines(filler) +
                   '<h2 data-line="12">Step Nine</h2><p>Now fill in the numbers.</p>' +
                   TABLE + lines(6, "After"))


def column(document, tag: str, text: str):
    """(page, column) of the first box of `tag` whose text starts with `text`."""
    for number, page in enumerate(document.pages, start=1):
        middle = page._page_box.margin_width() / 2
        for box in page._page_box.descendants():
            if getattr(box, "element_tag", None) == tag and "".join(
                    box.element.itertext()).startswith(text):
                return number, 1 if box.position_x < middle else 2
    return None


def test_a_heading_at_the_foot_of_a_column_with_what_it_heads_in_the_next_is_stranded():
    for filler in range(8, 16):     # somewhere in this range the table no longer fits
        found = [f for f in find_flow(lay_out(stranded_book(filler))) if f.kind == "stranded"]
        if found:
            break
    else:
        pytest.fail("the heading was never left at the foot of a column")
    finding, = found
    assert (finding.what, finding.line, finding.source, finding.flow) == \
        ("Step Nine", 12, "guide/01-x.md", "Rules")
    assert "Step Nine" in finding.describe() and "page 1" in finding.describe()
    # with the book's keep rules WeasyPrint 70 moves the heading and its line into the next
    # column with the table (break-after / break-before: avoid are honoured in columns)
    kept = lay_out(stranded_book(filler), KEEP)
    assert column(kept, "h2", "Step Nine") == column(kept, "td", "row 0") == (1, 2)
    assert not [f for f in find_flow(kept) if f.kind == "stranded"]


def test_a_section_that_ends_in_its_column_is_not_stranded():
    """A heading and its two lines, complete, then a new section in the next column."""
    for filler in range(8, 16):
        book = chapter("Rules", lines(filler) + '<h2>Short</h2><p>All of it.</p>' +
                       "<h2>Next</h2>" + TABLE)
        document = lay_out(book, "h2 { break-after: avoid; } h2 + table { break-before: avoid; }")
        assert not [f for f in find_flow(document) if f.kind == "stranded"], filler


def test_a_chapter_ending_on_a_page_of_two_lines_is_near_empty_with_its_book_page():
    # as many one-line paragraphs as the first page holds, and two more
    first = len({box.element for box in lay_out(chapter("Combat", lines(80))).pages[0]
                 ._page_box.descendants() if getattr(box, "element_tag", None) == "p"})
    book = chapter("Combat", lines(first + 2), source="guide/07-combat.md")
    found = find_flow(lay_out(book), first_page=31)
    near, = [f for f in found if f.kind == "near-empty"]
    assert (near.page, near.flow, near.source, near.what) == \
        (32, "Combat", "guide/07-combat.md", "2 lines")
    assert near.fill < 0.25
    assert near.describe().startswith('page 32: "Combat" ends on a page of 2 lines')
    # a chapter of one short page is not a chapter ending on a near-empty page
    assert not find_flow(lay_out(chapter("Short", lines(2))))


@pytest.mark.parametrize("more", [0, 1, 2, 9, 30])
def test_the_first_passs_near_empty_check_finds_what_the_full_report_finds(more):
    # the book's first pass decides fit steps on the last pages alone: the same findings
    first = len({box.element for box in lay_out(chapter("Combat", lines(80))).pages[0]
                 ._page_box.descendants() if getattr(box, "element_tag", None) == "p"})
    book = chapter("Contents", lines(3)) + chapter("Combat", lines(first + more),
                                                   source="guide/07-combat.md")
    document = lay_out(book)
    full = [f for f in find_flow(document, first_page=5) if f.kind == "near-empty"]
    assert find_near_empty(document, first_page=5) == full
    assert full or more != 2     # (two lines over: a near-empty last page)


def test_a_column_stopping_short_mid_chapter_is_a_hole():
    box = '<div class="box">' + lines(14, "Boxed") + "</div>"
    # page 1 holds 22 lines under the chapter's title, page 2 14 a column: the box (14
    # lines, unbreakable) does not fit below the 8 lines left for page 2's first column,
    # which stops half way down; the box goes into the second
    book = chapter("Playing", lines(30) + box + lines(30, "More"))
    hole, = [f for f in find_flow(lay_out(book)) if f.kind == "hole"]
    assert (hole.page, hole.what, hole.flow) == (2, "column 1", "Playing")
    assert 1 / 3 < hole.fill < 0.6
    assert hole.describe().startswith('page 2: column 1 stops') and '"Playing"' in hole.describe()
    # the same box allowed to break leaves no hole
    assert not [f for f in find_flow(lay_out(book, ".box { break-inside: auto; }"))
                if f.kind == "hole"]


def test_a_title_page_running_onto_a_second_page_is_reported():
    title = '<section class="title-page"><p style="font-size: 40pt; line-height: 1">' + \
        "HAMMER CRAWL " * 3 + "</p></section>"
    cover, = find_flow(lay_out(title))
    assert cover.kind == "cover" and cover.page == 1
    assert "2 pages" in cover.describe()
    assert not find_flow(lay_out('<section class="title-page"><p>HAMMERCRAWL!</p></section>'))


def test_room_left_before_a_new_section_kept_with_its_heading_is_not_a_hole():
    """A box under a heading of its own: the heading goes with it into the next column,
    leaving room a layout artist leaves before a new section (up to half a page)."""
    box = '<div class="box">' + lines(11, "Boxed") + "</div>"
    book = chapter("Playing", lines(30) + "<h2>Encounters</h2>" + box + lines(30, "More"))
    document = lay_out(book, "h2 { break-after: avoid; }")
    assert column(document, "h2", "Encounters") == (2, 2)
    assert not [f for f in find_flow(document) if f.kind == "hole"]
    # the same room before the box without its heading is a hole
    alone = lay_out(chapter("Playing", lines(30) + "<p>Encounters</p>" + box +
                            lines(30, "More")))
    assert [(f.page, f.what) for f in find_flow(alone) if f.kind == "hole"] == \
        [(2, "column 1")]


def test_a_heading_spanning_the_columns_alone_at_the_foot_of_a_page_is_stranded():
    """A heading set across the page (column-span: all) before a table across the page too
    ("Seasonal Weather" in Cairn): WeasyPrint leaves it at the page's foot when the table
    does not fit below it, keep rules or not, and the report looked only at columns."""
    span = ".wide { column-span: all; } h2.wide { break-after: avoid; }"
    wide = '<table class="wide">' + "".join(f"<tr><td>row {i}</td></tr>" for i in range(6)) \
        + "</table>"
    for filler in range(10, 40):
        book = chapter("Weather", lines(filler) + '<h2 class="wide" data-line="30">Seasonal '
                       'Weather</h2>' + wide + lines(4, "After"))
        document = lay_out(book, span)
        heading, table = column(document, "h2", "Seasonal"), column(document, "td", "row 0")
        if heading and table and heading[0] < table[0]:
            break
    else:
        pytest.fail("the spanning heading never stayed at the foot of a page")
    found = [f for f in find_flow(document) if f.kind == "stranded"]
    assert [(f.what, f.line, f.page) for f in found] == [("Seasonal Weather", 30, heading[0])]
    assert "stranded at the foot of the page" in found[0].describe()
