"""A part of the book laid out once with placeholder page numbers, kept, and finished with
its real numbers (render/weasy/resume.py): the same PDF as laying the numbered part out afresh."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from printshop.products.book.job import BookPart
from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.weasy import resume
from printshop.resources import TEMPLATES_DIR
from tests.conftest import pdf_reader

CSS = """
@page { size: 110mm 80mm; margin: 10mm 9mm; }
@page :left { @bottom-left { content: counter(page); font-size: 7pt; }
              @top-left { content: string(chapter); font-size: 7pt; } }
@page :right { @bottom-right { content: counter(page); font-size: 7pt; } }
body { font: 9pt/1.3 "Vollkorn"; }
h1 { string-set: chapter content(); font-size: 12pt; }
p { text-align: justify; hyphens: auto; margin: 0 0 0.4em; }
a.xref::after { content: " (p.\\00a0" attr(data-page-ref) ")"; }
"""
# tabular figures: every two-digit number takes the room of the placeholder "00"
TABULAR = CSS + "a.xref::after { font-variant-numeric: tabular-nums; }\n"
FILLER = ("The dungeon eats the careless and the careful alike, and the hammer rings "
          "on in the dark below the mountain. ")


def _part(numbers: list[str], extra: str = "") -> str:
    """A chapter of three pages or so, a reference in every paragraph."""
    paragraphs = "".join(
        f'<p>{FILLER * 2}See <a class="xref" data-page-ref="{n}" href="#t{i}">the '
        f'{i}th rule</a> {FILLER}{extra}</p>' for i, n in enumerate(numbers))
    targets = "".join(f'<span id="t{i}"></span>' for i in range(len(numbers)))
    return (f'<html lang="en"><body><section class="chapter"><h1>Deep Rules</h1>'
            f'{paragraphs}{targets}</section></body></html>')


def _job(numbers: list[str], css: str = CSS, extra: str = "", **part) -> RenderJob:
    """The part with `numbers`, a BookPart saying where they go (as products/book/ makes
    it: its references and its text without them)."""
    sheets = (Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css")), Stylesheet(text=css))
    refs = tuple(sorted({(f"#t{i}", n) for i, n in enumerate(numbers)}))
    return RenderJob(html=_part(numbers, extra), stylesheets=sheets,
                     roots=(str(TEMPLATES_DIR),), base_url=TEMPLATES_DIR.as_uri() + "/",
                     source="part", extensions=(BookPart(
                         refs=refs, text=_part([""] * len(numbers), extra), **part),))


def _with(job: RenderJob, **part) -> RenderJob:
    """`job` with its BookPart's fields changed."""
    return job.extended(replace(job.get(BookPart), **part))


def _first_pass(numbers: list[str], token: str, css: str = CSS):
    return render_job(replace(_job(numbers, css, keep=token), layout_only=True))


def _numbered(numbers: list[str], first: int, css: str = CSS, extra: str = "") -> RenderJob:
    return _job(numbers, css, extra, first=first, strings=(("chapter", "Before"),))


def _found(result):
    return BookPart.found_in(result)


def _remade_pages(monkeypatch) -> list[int]:
    from weasyprint import layout
    from weasyprint.layout import page

    remade = []
    original = page.remake_page

    def counting(index, *args):
        remade.append(index)
        return original(index, *args)

    monkeypatch.setattr(page, "remake_page", counting)
    monkeypatch.setattr(layout, "remake_page", counting, raising=False)
    return remade


@pytest.fixture(autouse=True)
def _nothing_kept():
    resume.forget()
    yield
    resume.forget()


def test_a_kept_layout_finished_with_its_numbers_is_the_part_laid_out_afresh(monkeypatch):
    kept = _first_pass(["00"] * 6, "1:3", TABULAR)
    assert _found(kept).kept_by == os.getpid() and not kept.pdf
    job = _numbered(["12", "47", "10", "99", "31", "12"], 7, TABULAR)
    remade = _remade_pages(monkeypatch)
    finished = render_job(_with(job, resume="1:3"))
    assert _found(finished).resumed and remade == []     # nothing needed laying out again
    monkeypatch.undo()
    fresh = render_job(job)
    assert not _found(fresh).resumed
    assert finished.pdf == fresh.pdf
    assert _found(finished).anchors == _found(fresh).anchors
    # its folios start at its page in the book, its running head from the part before
    text = pdf_reader(finished.pdf).pages[1].extract_text()
    assert "8" in text.split() and "Deep Rules" in text


def test_numbers_that_take_other_room_lay_their_pages_out_again(monkeypatch):
    # Vollkorn's digits are proportional: "11" is narrower than "00", "1048" wider, so the
    # lines holding them, and every page after a paragraph that grew, change
    kept = _first_pass(["00"] * 6, "2:1")
    assert _found(kept).kept_by
    job = _numbered(["11", "1048", "9", "22", "123456", "11"], 3)
    remade = _remade_pages(monkeypatch)
    finished = render_job(_with(job, resume="2:1"))
    assert _found(finished).resumed and remade, "pages whose numbers changed width are re-made"
    monkeypatch.undo()
    fresh = render_job(job)
    assert finished.pdf == fresh.pdf
    assert finished.pages == fresh.pages
    words = " ".join(page.extract_text() for page in pdf_reader(finished.pdf).pages)
    assert "1048)" in words and "123456)" in words and "00)" not in words


def test_a_part_whose_text_changed_beyond_its_numbers_is_laid_out_afresh():
    _first_pass(["00"] * 6, "3:1")
    job = _numbered(["12"] * 6, 3, extra="One more sentence.")
    finished = render_job(_with(job, resume="3:1"))
    assert not _found(finished).resumed
    assert finished.pdf == render_job(job).pdf


def test_a_part_laid_out_on_a_right_page_is_not_finished_on_a_left_one():
    _first_pass(["00"] * 6, "4:1")
    job = _numbered(["12"] * 6, 4)       # page 4: a left page
    finished = render_job(_with(job, resume="4:1"))
    assert not _found(finished).resumed
    assert finished.pdf == render_job(job).pdf


def test_other_stylesheets_or_another_build_are_never_finished_from_a_kept_layout():
    _first_pass(["00"] * 6, "5:1")
    job = _numbered(["12"] * 6, 3)
    other = replace(job, stylesheets=(Stylesheet(text="p { color: red; }"),)
                    + job.stylesheets)
    assert not _found(render_job(_with(other, resume="5:1"))).resumed
    _first_pass(["00"] * 6, "6:1")
    assert not _found(render_job(_with(replace(job, epoch=job.epoch + 1),
                                       resume="6:1"))).resumed
    # and a kept layout is finished once
    _first_pass(["00"] * 6, "7:1")
    assert _found(render_job(_with(job, resume="7:1"))).resumed
    assert not _found(render_job(_with(job, resume="7:1"))).resumed


def test_numbers_printed_outside_before_and_after_boxes_are_never_finished():
    from printshop.products.book.pages import numbers_in_pseudo_elements

    def sheets(css):
        return (Stylesheet(text=css),)

    assert numbers_in_pseudo_elements(sheets(CSS))
    assert numbers_in_pseudo_elements(sheets(
        "@media print { .toc a:after, a.x::before { content: attr(data-page-ref) } }"))
    assert not numbers_in_pseudo_elements(sheets("a.x { content: attr(data-page-ref) }"))
    assert not numbers_in_pseudo_elements(sheets(
        "@media print { a::after, b { content: attr(data-page-ref) } }"))


def test_a_part_laid_out_where_it_starts_is_finished_there_even_on_a_left_page():
    # the first pass lays a part out in place once the parts before it are done (the
    # colophon, starting on a left-hand page, say): finishing it only sets its numbers
    job = _numbered(["12"] * 6, 4)                 # page 4: a left page
    placeholder = replace(_numbered(["00"] * 6, 4), layout_only=True)
    kept = render_job(_with(placeholder, keep="8:1", strings=()))
    assert _found(kept).kept_by
    finished = render_job(_with(job, resume="8:1"))
    assert _found(finished).resumed
    assert finished.pdf == render_job(job).pdf
    # laid out at page 4, wanted at page 6: the same side, its folios moved on by two
    again = render_job(_with(placeholder, keep="9:1", strings=()))
    assert _found(again).kept_by
    at_six = _numbered(["12"] * 6, 6)
    moved = render_job(_with(at_six, resume="9:1"))
    assert _found(moved).resumed and moved.pdf == render_job(at_six).pdf


def test_with_another_weasyprint_nothing_is_kept_and_parts_are_laid_out_again():
    import dataclasses

    from printshop.render.weasy import registry

    assert registry.active("kept-layouts")     # the WeasyPrint this was written against
    changed = dataclasses.replace(resume.KEPT_LAYOUTS, targets={
        **resume.KEPT_LAYOUTS.targets, "weasyprint.layout.page.remake_page": "0" * 16})
    with registry.switched((), [changed]) as decided:
        assert decided["kept-layouts"].state == "skipped"
        kept = _first_pass(["00"] * 6, "10:1", TABULAR)
        assert not _found(kept).kept_by
        job = _numbered(["12"] * 6, 3, TABULAR)
        finished = render_job(_with(job, resume="10:1"))
        assert not _found(finished).resumed and finished.pdf == render_job(job).pdf
