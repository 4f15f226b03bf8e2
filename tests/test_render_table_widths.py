"""render/weasy/table_widths.py: a part laid out again a fit step tighter takes its tables'
widths from its first layout. The pages are byte for byte WeasyPrint's own (the patch
switched off), the tables are measured once, a table of another shape in the same place is
measured again, nothing is shared without a token; and the book gives a stepped part the
token of its step-0 layout only where its stylesheets' fit steps change no width."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from printshop.products.book import fit
from printshop.products.book import pages as book_pages
from printshop.products.book.composed import parse
from printshop.render.checks import PageCheck
from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.renderer import Renderer
from printshop.render.weasy import registry, table_widths
from printshop.resources import TEMPLATES_DIR

CSS = """
@page { size: 120mm 150mm; margin: 10mm; }
body { font: 9pt/1.4 "Vollkorn"; hyphens: auto; }
.chapter { columns: 2; column-gap: 4mm; }
table { width: 100%; border-collapse: collapse; margin: 0 0 3mm; }
td, th { border: 0.5pt solid; padding: 1mm 1.5mm; }
td.wide { width: 40%; }
.fit-1 { line-height: 1.3; } .fit-1 td { padding-top: 0.5mm; padding-bottom: 0.5mm; }
.fit-1 table { margin-bottom: 2mm; }
"""
ROW = "<tr><td>{n}</td><td class='wide'>a torch, {n} feet of rope and a mule</td>" \
      "<td>{n}d6 gold pieces, hidden</td></tr>"


def _table(rows: int, spanned: bool = False) -> str:
    head = "<tr><th colspan='2'>Roll and find</th><th>Worth</th></tr>" if spanned else \
        "<tr><th>Roll</th><th>Find</th><th>Worth</th></tr>"
    return "<table>" + head + "".join(ROW.format(n=n) for n in range(rows)) + "</table>"


def _html(step: int, rows: int = 6) -> str:
    section = "chapter" + (f" fit-{step}" if step else "")
    return (f'<html lang="en"><body><section class="{section}"><h1>Treasure</h1>'
            f"<p>What the party carries out of the dark, by the roll.</p>{_table(rows)}"
            f"<p>And what the dark keeps.</p>{_table(4, spanned=True)}"
            f"<div style='display: table'><div style='display: table-cell'>an anonymous "
            f"table</div></div>{_table(3)}</section></body></html>")


def _render(html: str, token: str = "") -> bytes:
    fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))
    job = RenderJob(html=html, stylesheets=(fonts, Stylesheet(text=CSS)),
                    roots=(str(TEMPLATES_DIR),), base_url=TEMPLATES_DIR.as_uri() + "/",
                    source="test")
    with table_widths.shared(token):
        return render_job(job).pdf


@pytest.fixture(autouse=True)
def _fresh():
    table_widths.forget()
    yield
    table_widths.forget()


def _counts() -> tuple[int, int]:
    return table_widths.stats["measured"], table_widths.stats["carried"]


def test_the_step_tighter_carries_the_widths_and_prints_weasyprints_own_pages():
    assert registry.active("table-widths")
    with registry.switched({"table-widths"}):
        theirs = [_render(_html(0)), _render(_html(1))]
    before = _counts()
    ours = [_render(_html(0), token="part"), None]
    after_first = _counts()
    ours[1] = _render(_html(1), token="part")
    after_second = _counts()
    assert ours == theirs
    # four tables (one anonymous) measured by the first layout, carried by the second
    assert after_first[0] - before[0] == 4 and after_first[1] == before[1]
    assert after_second[0] == after_first[0] and after_second[1] - after_first[1] == 4


def test_without_a_token_nothing_is_kept_or_carried():
    before = _counts()
    _render(_html(0))
    _render(_html(1))
    assert _counts() == before


def test_a_table_of_another_shape_in_the_same_place_is_measured_again():
    with registry.switched({"table-widths"}):
        theirs = _render(_html(1, rows=9))
    _render(_html(0, rows=6), token="part")
    before = _counts()
    ours = _render(_html(1, rows=9), token="part")
    measured, carried = _counts()
    assert ours == theirs
    assert measured - before[0] == 1 and carried - before[1] == 3   # the longer table


def test_a_worker_keeps_the_widths_of_a_few_parts_only():
    for n in range(table_widths.FAMILIES + 3):
        _render(_html(0, rows=2), token=f"part {n}")
    assert len(table_widths._families) == table_widths.FAMILIES


BOOK_CSS = Stylesheet(text=".fit-1 { line-height: 1.2 } .fit-1 p, .fit-1 td "
                           "{ margin-bottom: 1mm; padding-top: 0; padding-bottom: 0 }")


@pytest.mark.parametrize("rule", [
    ".fit-1 td { padding-left: 1mm }",
    "@media print { .fit-2 th { width: 10mm } }",
    ".chapter:not(.fit-1) table { font-size: 8pt }",
    "td { margin-left: 1lh }",
    "section[class$=chapter] td { padding: 3mm }",
    ".fit-1 { letter-spacing: -0.01em }",
])
def test_fit_steps_that_could_change_a_width_share_nothing(rule):
    assert fit.widths_unchanged((BOOK_CSS,))
    assert not fit.widths_unchanged((BOOK_CSS, Stylesheet(text=rule)))


def test_the_books_own_steps_change_no_width():
    assert fit.widths_unchanged((Stylesheet(path=str(TEMPLATES_DIR / "css" / "book.css")),))


def test_a_stepped_part_has_its_step_0_token_where_the_steps_change_no_width():
    html = ('<html><body><nav class="toc"></nav><section data-source="a.md" '
            'class="chapter"><table><tr><td>1</td></tr></table></section></body></html>')
    _, chapter = parse(html).parts

    def token(part, sheets, first=5):
        numbered = part.document({})
        return fit.widths_token(part, numbered, first, (), sheets, numbers={},
                                elsewhere=set(), next_kind=None)

    plain = (BOOK_CSS,)
    stepped = replace(chapter, step=1)
    assert "fit-1" in stepped.document({}).html
    assert token(stepped, plain) == token(chapter, plain)
    assert token(stepped, plain, first=6) != token(chapter, plain)
    wider = (BOOK_CSS, Stylesheet(text=".fit-1 td { padding-right: 2mm }"))
    assert token(stepped, wider) != token(chapter, wider)


def test_a_book_part_laid_out_a_step_tighter_measures_its_tables_once(monkeypatch):
    """A small book whose second chapter ends on a near-empty page at step 0: built in
    this process (serial), its step-1 layout carries every table's widths, and the book is
    the one WeasyPrint's own table measuring makes."""
    monkeypatch.setenv("PRINTSHOP_SERIAL", "1")
    chapter = "".join(f"<p>{n}. The dungeon eats the careless.</p>{_table(3)}"
                      for n in range(6))
    sheet = Stylesheet(text=CSS.replace(".chapter { columns: 2; column-gap: 4mm; }",
                                        ".chapter { break-before: page; }"))

    def build(extra: str) -> tuple[bytes, int]:
        book_pages._numbers_for.clear()
        book_pages._fit_steps.clear()
        fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))
        for rows in range(1, 12):
            html = ('<html lang="en"><body><nav class="toc"><p>Contents</p></nav>'
                    f'<section class="chapter" data-source="c1.md"><h1>One</h1>{chapter}'
                    f"{_table(rows)}{extra}</section></body></html>")
            job = RenderJob(html=html, stylesheets=(fonts, sheet),
                            roots=(str(TEMPLATES_DIR),),
                            base_url=TEMPLATES_DIR.as_uri() + "/", source="tiny book",
                            extensions=(PageCheck(),))
            before = table_widths.stats["carried"]
            with Renderer() as renderer:
                result = book_pages.render_book(
                    SimpleNamespace(renderer=renderer, progress=None), job)
            steps = set(book_pages.placed_as_json(job)["fits"].values())
            if steps != {0}:
                return result.pdf, table_widths.stats["carried"] - before
        pytest.fail("the chapter never needed a step")

    ours, carried = build("")
    assert carried >= 7
    with registry.switched({"table-widths"}):
        theirs, _ = build("")
    assert ours == theirs
