"""A chapter that would end on a page of a few lines is set a step tighter (products/book/fit.py),
in a small book laid out in parts on two workers: the page goes, every word stays, the step is
remembered for the next build (which gets the same bytes at once), and a chapter no step can
save is reported with its book page."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from printshop.products.book import fit
from printshop.products.book import pages as book_pages
from printshop.products.book.composed import parse
from printshop.products.book.job import BookPart
from printshop.render.checks import PageCheck
from printshop.render.job import RenderJob, Stylesheet
from printshop.render.renderer import Renderer
from tests.conftest import pdf_reader

CSS = """
@page { size: 120mm 90mm; margin: 12mm 10mm; }
@page :right { @bottom-right { content: counter(page); font-size: 7pt; } }
@page :left { @bottom-left { content: counter(page); font-size: 7pt; } }
body { font: 9pt/1.5 "Roboto Condensed"; }
.chapter { break-before: page; }
.chapter h1 { font-size: 12pt; bookmark-level: 1; }
p { margin: 0 0 3mm; }
.colophon { break-before: page; }
a.xref::after { content: " (p. " target-counter(attr(href url), page) ")"; }
"""
STEPS = """
.fit-1 { line-height: 1.45; } .fit-1 p { margin-bottom: 2mm; }
.fit-2 { line-height: 1.4; }  .fit-2 p { margin-bottom: 1mm; }
.fit-3 { line-height: 1.35; } .fit-3 p { margin-bottom: 0.5mm; }
"""
SENTENCE = "The dungeon eats the careless and the careful alike."


def book(paragraphs: int) -> str:
    """Chapter 1 of a page and a bit; chapter 2 of `paragraphs` short paragraphs."""
    one = "".join(f"<p>{SENTENCE} {SENTENCE}</p>" for _ in range(3))
    two = "".join(f"<p>{n}. {SENTENCE}</p>" for n in range(paragraphs))
    return ("<!DOCTYPE html><html lang='en'><head><title>Tiny</title></head><body>"
            "<nav class='toc'><p><a class='xref' href='#c2'>Chapter 2</a></p></nav>\n"
            f'<section class="chapter" data-source="c1.md"><h1 id="c1">One</h1>{one}</section>\n'
            f'<section class="chapter" data-source="c2.md"><h1 id="c2">Two</h1>{two}</section>\n'
            '<section class="colophon" id="colophon"><p>Set in Roboto.</p></section>'
            "</body></html>")


@pytest.fixture(scope="module")
def renderer():
    with Renderer(processes=2) as r:
        yield r


def render(renderer, html: str, css: str, guess=None):
    book_pages._numbers_for.clear()
    book_pages._fit_steps.clear()
    job = RenderJob(html=html, stylesheets=(Stylesheet(text=css),), roots=(), base_url="",
                    source="tiny book", extensions=(PageCheck(),))
    ctx = SimpleNamespace(renderer=renderer, progress=None)
    result = book_pages.render_book(ctx, job, guess)
    return result, book_pages.placed_as_json(job)


@pytest.fixture(scope="module")
def spilling(renderer):
    """Chapter 2 with a paragraph or two more than one page holds."""
    for count in range(8, 20):
        result, _ = render(renderer, book(count), CSS)
        near = [f for f in PageCheck.flow(result) if f.kind == "near-empty"]
        if near:
            return count, result, near[0]
    pytest.fail("chapter 2 never ended on a near-empty page")


def test_without_steps_in_the_stylesheets_the_near_empty_page_is_reported(spilling):
    _, result, near = spilling
    assert near.flow == "Two" and near.source == "c2.md"
    # the book's page, chapter 2's second
    assert near.page == BookPart.found_in(result).anchors["c2"] + 1
    assert near.fill < 0.25


def test_a_step_tighter_takes_the_page_in_and_keeps_every_word(renderer, spilling):
    count, loose, _ = spilling
    tight, placed = render(renderer, book(count), CSS + STEPS)
    assert not [f for f in PageCheck.flow(tight) if f.kind == "near-empty"]
    assert tight.pages == loose.pages - 1
    text = " ".join(page.extract_text() for page in pdf_reader(tight.pdf).pages)
    for n in range(count):
        assert f"{n}. {SENTENCE}" in " ".join(text.split())
    # the step is remembered for the next build, which lays the part out at it at once
    steps = [step for step in placed["fits"].values() if step]
    assert len(steps) == 1 and 1 <= steps[0] <= fit.MAX_STEP     # chapter 2's alone
    again, _ = render(renderer, book(count), CSS + STEPS, guess=placed)
    assert again.pdf == tight.pdf
    cold, _ = render(renderer, book(count), CSS + STEPS)
    assert cold.pdf == tight.pdf


def test_with_steps_that_do_not_help_the_page_stays_and_is_reported(renderer, spilling):
    count, loose, _ = spilling
    useless = ".fit-1, .fit-2, .fit-3 { color: black; }"
    result, placed = render(renderer, book(count), CSS + useless)
    near, = [f for f in PageCheck.flow(result) if f.kind == "near-empty"]
    assert near.flow == "Two" and result.pages == loose.pages
    assert result.pdf == loose.pdf            # laid out as composed, not a step tighter
    assert set(placed["fits"].values()) == {0}


def test_the_step_marks_the_parts_flows_not_the_title_page():
    html = ('<html><body><section class="title-page"><p>T</p></section><nav class="toc">'
            '</nav><section data-source="a.md" class=\'chapter intro\'></section>'
            '</body></html>')
    front, contents, chapter = parse(html).parts

    def made(part, step):
        return replace(part, step=step).document(None).html

    assert '<nav class="toc fit-2">' in made(contents, 2)
    assert '<section class="title-page">' in made(front, 2)    # (no flow: nothing to mark)
    assert "fit-" not in made(front, 2)
    assert '<section data-source="a.md" class=\'chapter intro fit-2\'>' in made(chapter, 2)
    assert "fit-" not in made(front, 0) + made(contents, 0) + made(chapter, 0)


def test_the_first_pass_decides_the_step_and_the_parts_are_numbered_once(renderer, spilling,
                                                                       monkeypatch):
    """The step is found while the parts are first laid out, so the numbered pass lays each
    part out once: no chapter set tighter late moves the parts after it. A build that
    decides the step on the numbered parts instead (an earlier build's page positions
    without its steps) comes to the same step and the same bytes."""
    from printshop.products.book import parts as book_parts

    count = spilling[0]
    numbered = []
    real = book_parts.render_longest_first

    def counting(ctx, jobs, counter=None, seconds=None):
        numbered.extend(job.get(BookPart).first for job in jobs)
        return real(ctx, jobs, counter, seconds)

    monkeypatch.setattr(book_parts, "render_longest_first", counting)
    cold, placed = render(renderer, book(count), CSS + STEPS)
    assert len(numbered) == len(parse(book(count)).parts)
    assert [step for step in placed["fits"].values() if step]
    numbered.clear()
    late, _ = render(renderer, book(count), CSS + STEPS, guess={**placed, "fits": {}})
    assert len(numbered) > len(parse(book(count)).parts)    # steps tried one round each
    assert late.pdf == cold.pdf


def test_a_rebuild_after_an_edit_starts_the_part_at_its_last_step(renderer, spilling,
                                                                  monkeypatch):
    """Chapter 2 edited (one word more): the rebuild starts it at the step it had, tries the
    steps below beside it, and comes out as a cold build of the edited book."""
    from printshop.products.book import parts as book_parts

    count = spilling[0]
    _, placed = render(renderer, book(count), CSS + STEPS)
    assert max(placed["steps"]) >= 1
    edited = book(count).replace("<p>0. The dungeon", "<p>0. The deep dungeon")
    started = []
    real = book_parts.render_longest_first

    def steps_of(ctx, jobs, counter=None, seconds=None):
        started.extend("fit-" in job.html for job in jobs)
        return real(ctx, jobs, counter, seconds)

    monkeypatch.setattr(book_parts, "render_longest_first", steps_of)
    book_pages._numbers_for.clear()
    book_pages._fit_steps.clear()              # a new process: only the guess is left
    job = RenderJob(html=edited, stylesheets=(Stylesheet(text=CSS + STEPS),), roots=(),
                    base_url="", source="tiny book", extensions=(PageCheck(),))
    rebuilt = book_pages.render_book(SimpleNamespace(renderer=renderer, progress=None), job,
                                     placed)
    assert started[:len(parse(edited).parts)].count(True) == 1   # at its step at once
    monkeypatch.undo()
    cold, _ = render(renderer, edited, CSS + STEPS)
    assert rebuilt.pdf == cold.pdf


def contents_book(entries: int) -> str:
    """A contents of `entries` lines (each a reference to a heading of the one chapter,
    whose pages are one-digit), a chapter of three pages."""
    toc = "".join(f"<p><a class='xref' href='#h{n}'>Heading number {n}</a></p>"
                  for n in range(entries))
    body = "".join(f"<h2 id='h{n}'>Heading number {n}</h2><p>{SENTENCE}</p>"
                   for n in range(entries))
    return ("<!DOCTYPE html><html lang='en'><head><title>Tiny</title></head><body>"
            f"<nav class='toc'>{toc}</nav>\n"
            f'<section class="chapter" data-source="c1.md"><h1 id="c1">One</h1>{body}'
            "</section>\n</body></html>")


@pytest.fixture(scope="module")
def spilling_contents(renderer):
    """A contents a line or two longer than a page at step 0 (its numbers "00")."""
    for entries in range(10, 40):
        result, placed = render(renderer, contents_book(entries), CSS + STEPS)
        if placed["steps"][0] >= 1:
            return entries, result, placed
    pytest.fail("the contents never took a step")


def test_the_contents_step_is_decided_once_on_its_placeholder_layout(renderer,
                                                                     spilling_contents,
                                                                     monkeypatch):
    """The contents is laid out before any page is known, its numbers placeholders; its
    step is decided there, not tried again with the real numbers (a full layout of it, in
    every cold build). A build that must decide it from numbered parts (an earlier build's
    positions without its steps) tries its steps with placeholders and comes to the same
    bytes; so does a rebuild that starts from its steps."""
    from printshop.products.book import parts as book_parts

    entries, cold, placed = spilling_contents
    laid_out: list[str] = []
    real = book_parts.render_longest_first

    def counting(ctx, jobs, counter=None, seconds=None):
        laid_out.extend(job.html for job in jobs)
        return real(ctx, jobs, counter, seconds)

    monkeypatch.setattr(book_parts, "render_longest_first", counting)
    again, _ = render(renderer, contents_book(entries), CSS + STEPS)
    assert again.pdf == cold.pdf
    contents = [html for html in laid_out if "<nav class='toc" in html]
    step = placed["steps"][0]
    assert len(contents) == 1 and f"toc fit-{step}'" in contents[0]   # once, at its step
    assert "(p. 00)" not in " ".join(page.extract_text()
                                     for page in pdf_reader(cold.pdf).pages)
    laid_out.clear()
    late, _ = render(renderer, contents_book(entries), CSS + STEPS,
                     guess={**placed, "fits": {}})
    tries = [html for html in laid_out if "<nav class='toc" in html and
             'data-page-ref="00"' in html]
    assert tries      # its steps tried with every number a placeholder
    assert late.pdf == cold.pdf
    rebuilt, _ = render(renderer, contents_book(entries), CSS + STEPS, guess=placed)
    assert rebuilt.pdf == cold.pdf
