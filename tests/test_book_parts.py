"""The book laid out a part at a time and joined (products/book/parts.py,
render/pdf/book_merge.py), against the same book laid out whole by WeasyPrint."""

from __future__ import annotations

import io
from dataclasses import replace
from types import SimpleNamespace

import pikepdf
import pytest

from printshop.products.book import pages as book_pages
from printshop.products.book import parts as book_parts
from printshop.products.book.job import BookPart
from printshop.render.job import RenderJob, Stylesheet
from printshop.render.renderer import Renderer
from tests.conftest import pdf_reader

CSS = """
@page { size: 120mm 90mm; margin: 12mm 10mm; }
@page :left { @top-left { content: string(book-title); font-size: 7pt; }
              @bottom-left { content: counter(page); font-size: 7pt; } }
@page :right { @top-right { content: string(chapter); font-size: 7pt; }
               @bottom-right { content: counter(page); font-size: 7pt; } }
@page :blank { @top-left { content: none; } @top-right { content: none; }
               @bottom-left { content: none; } @bottom-right { content: none; } }
body { font: 9pt/1.3 "Roboto Condensed"; }
.book-title { string-set: book-title content(); bookmark-level: none; }
.chapter { break-before: right; }
.chapter h1 { string-set: chapter content(); bookmark-level: 1; font-size: 12pt; }
.chapter h2 { bookmark-level: 2; font-size: 10pt; }
.colophon { break-before: page; }
a.xref::after { content: " (p. " target-counter(attr(href url), page) ")"; }
"""

FILLER = " ".join(["The dungeon eats the careless and the careful alike."] * 12)


def _book() -> str:
    chapters = []
    for n in range(1, 4):
        link = f'<p>Back to <a class="xref" href="#c{n - 1}">chapter {n - 1}</a>.</p>' \
            if n > 1 else '<p>Ahead: <a class="xref" href="#deep">the deep part</a>.</p>'
        chapters.append(
            f'<section class="chapter" data-source="c{n}.md"><h1 id="c{n}">Chapter {n}</h1>'
            f"{link}" + "".join(f"<p>{FILLER}</p>" for _ in range(n + 1)) +
            (f'<h2 id="deep">The deep part</h2><p>{FILLER}</p>' if n == 3 else "") +
            "</section>")
    return ("<!DOCTYPE html><html lang='en'><head><title>Tiny Book</title></head>"
            "<body class='book'><section class='title-page'>"
            "<p class='book-title'>TINY BOOK</p><nav class='toc'>"
            + "".join(f'<p><a class="xref" href="#c{n}">Chapter {n}</a></p>'
                      for n in range(1, 4)) +
            "</nav></section>\n" + "\n".join(chapters) +
            '\n<section class="colophon" id="colophon"><p>Set in Roboto.</p></section>'
            "</body></html>")


@pytest.fixture(scope="module")
def renderer():
    with Renderer(processes=2) as r:
        yield r


def _job(html: str) -> RenderJob:
    return RenderJob(html=html, stylesheets=(Stylesheet(text=CSS),), roots=(), base_url="",
                     source="tiny book")


def _structure(pdf: bytes):
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        index = {page.objgen: n for n, page in enumerate(doc.pages)}
        names = doc.Root.Names.Dests.Names
        dests = {str(names[i]): index[names[i + 1][0].objgen]
                 for i in range(0, len(names), 2)}
        links = [(n, str(a.Dest)) for n, page in enumerate(doc.pages)
                 for a in page.get("/Annots", []) if "/Dest" in a]
        with doc.open_outline() as outline:
            marks = [(item.title, index[item.destination[0].objgen],
                      [(c.title, index[c.destination[0].objgen]) for c in item.children])
                     for item in outline.root]
    return dests, links, marks


def test_the_book_in_parts_reads_as_the_book_laid_out_whole(renderer):
    book_pages._numbers_for.clear()
    ctx = SimpleNamespace(renderer=renderer, progress=None)
    job = _job(_book())
    in_parts = book_pages.render_book(ctx, job)
    whole, = renderer.render([job])   # WeasyPrint alone: target-counter() in the book
    assert not in_parts.warnings and not whole.warnings
    assert in_parts.pages == whole.pages
    ours, theirs = pdf_reader(in_parts.pdf), pdf_reader(whole.pdf)
    for number, (a, b) in enumerate(zip(ours.pages, theirs.pages), start=1):
        # folios, running heads (the book's title on left pages), "(p. N)", blank pages
        assert a.extract_text() == b.extract_text(), f"page {number}"
    dests, links, marks = _structure(in_parts.pdf)
    assert (dests, links, marks) == _structure(whole.pdf)
    assert not any(name.startswith(book_parts.EXTERNAL) for name in dests)
    # a link from the contents (front matter) leads into chapter 3, another part
    assert (0, "c3") in links and dests["c3"] == BookPart.found_in(in_parts).anchors["c3"] - 1
    assert [title for title, _, _ in marks] == ["Chapter 1", "Chapter 2", "Chapter 3"]


def test_the_same_book_joins_to_the_same_bytes(renderer):
    ctx = SimpleNamespace(renderer=renderer, progress=None)
    book_pages._numbers_for.clear()
    first = book_pages.render_book(ctx, _job(_book())).pdf
    book_pages._numbers_for.clear()
    assert book_pages.render_book(ctx, _job(_book())).pdf == first


def test_each_part_is_finished_from_its_first_layout_by_the_worker_that_keeps_it(
        renderer, monkeypatch):
    """The first pass's layouts are kept by the workers and finished there with their
    numbers; the book is byte for byte the one whose parts are all laid out twice."""
    seen = []

    def recording(jobs, *args, **kwargs):
        results = renderer.render(jobs, *args, **kwargs)
        seen.append(list(zip(jobs, results)))
        return results

    def recording_run(queue, on_done):     # the first pass: jobs as the parts come back
        batch = {}
        made = queue._made

        def making(index):
            batch[queue._tags[index]] = made(index)
            return batch[queue._tags[index]]

        def done(tag, result):
            batch[tag] = (batch[tag], result)
            on_done(tag, result)

        queue._made = making
        renderer.run(queue, done)
        seen.append([batch[tag] for tag in sorted(batch)])

    book_pages._numbers_for.clear()
    ctx = SimpleNamespace(renderer=SimpleNamespace(render=recording, run=recording_run),
                          progress=None)
    finished = book_pages.render_book(ctx, _job(_book()))
    first, second = [[(job.get(BookPart), BookPart.found_in(result), job.html)
                      for job, result in batch] for batch in seen]
    assert all(part.keep and found.kept_by for part, found, _ in first)
    kept_by = {part.keep: found.kept_by for part, found, _ in first}
    chapters = [(part, found) for part, found, html in second if '<section class="chapter"'
                in html.split("<body", 1)[1][:200]]
    assert len(chapters) == 3
    for part, found in chapters:     # each on the worker that keeps its first layout
        assert part.worker == kept_by[part.resume] and found.resumed
    # the title page's contents, laid out first (where it starts in the book) on
    # placeholders ("00") for pages of one digit, would be laid out again whole: the first
    # worker free does it afresh (first_pass._kept_by), not the one keeping it (a part
    # finished where it was laid out: the colophon's test below)
    front = [part for part, _, html in first if "title-page" in html]
    assert len(front) == 1 and front[0].first
    assert not [p for p, _, _ in second if p.resume == front[0].keep]
    assert [p for p, _, html in second if "title-page" in html][0].worker == 0

    monkeypatch.setattr(book_pages, "numbers_in_pseudo_elements", lambda sheets: False)
    book_pages._numbers_for.clear()
    seen.clear()
    twice = book_pages.render_book(ctx, _job(_book()))
    assert not any(job.get(BookPart).keep for job, _ in seen[0])
    assert not any(BookPart.found_in(result).resumed for _, result in seen[1])
    assert finished.pdf == twice.pdf


def test_a_contents_whose_numbers_end_leaders_is_finished_where_it_was_laid_out(renderer):
    """Numbers that end leaders are printed as wide as the placeholders ("00", a figure
    space before one digit: composed.printed_number): the contents, laid out on
    placeholders, takes the same room with its numbers and is finished by the worker
    keeping it, not laid out again; the book is the one whose parts are laid out twice."""
    from printshop.resources import TEMPLATES_DIR

    leaders = (".toc a.xref::after { content: leader('. ') target-counter(attr(href url), "
               "page); font-family: 'Vollkorn'; font-variant-numeric: tabular-nums; }")
    job = replace(_job(_book()), stylesheets=(
        Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css")),
        Stylesheet(text=CSS + leaders)), roots=(str(TEMPLATES_DIR),),
        base_url=TEMPLATES_DIR.as_uri() + "/")
    seen = []

    def recording(jobs, *args, **kwargs):
        results = renderer.render(jobs, *args, **kwargs)
        seen.append(list(zip(jobs, results)))
        return results

    ctx = SimpleNamespace(renderer=SimpleNamespace(render=recording, run=renderer.run),
                          progress=None)
    book_pages._numbers_for.clear()
    finished = book_pages.render_book(ctx, job)
    front = [(job.get(BookPart), BookPart.found_in(result)) for job, result in seen[-1]
             if "title-page" in job.html]
    assert len(front) == 1
    part, found = front[0]
    assert part.resume and part.worker and found.resumed
    html = [j.html for j, _ in seen[-1] if "title-page" in j.html][0]
    assert html.count('data-page-ref="\u2007') == 3     # three chapters, pages of one digit
    text = " ".join(pdf_reader(finished.pdf).pages[0].extract_text().split())
    assert "Chapter 1 . ." in text and "Chapter 3" in text

    book_pages._numbers_for.clear()
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(book_pages, "numbers_in_pseudo_elements", lambda sheets: False)
        twice = book_pages.render_book(SimpleNamespace(renderer=renderer, progress=None), job)
    assert finished.pdf == twice.pdf


def test_on_one_worker_the_colophon_is_laid_out_last_where_it_starts_and_finished_there():
    """One worker takes the parts one at a time: the colophon, the shortest, goes last,
    once every part before it is laid out, so it is laid out on its own side of the
    spread (break-before: page can leave it on a left-hand page) and finished there."""
    seen = []
    with Renderer(processes=1) as one:
        def recording_run(queue, on_done):
            batch = {}
            made = queue._made

            def making(index):
                batch[queue._tags[index]] = made(index)
                return batch[queue._tags[index]]

            queue._made = making
            one.run(queue, on_done)
            seen.extend(batch.values())

        def recording(jobs, *args, **kwargs):
            results = one.render(jobs, *args, **kwargs)
            seen.extend(zip(jobs, results))
            return results

        book_pages._numbers_for.clear()
        ctx = SimpleNamespace(renderer=SimpleNamespace(render=recording, run=recording_run,
                                                       pool=one.pool), progress=None)
        book_pages.render_book(ctx, _job(_book()))
    firsts = [job for job in seen if not isinstance(job, tuple)]
    colophon, = [job for job in firsts if 'class="colophon"' in
                 job.html.split("<body", 1)[1][:200]]
    colophon = colophon.get(BookPart)
    assert colophon.first > 1 and colophon.keep
    finished = [BookPart.found_in(result) for job, result in
                (s for s in seen if isinstance(s, tuple))
                if job.get(BookPart).resume == colophon.keep]
    assert finished and finished[0].resumed


class _InThisProcess:
    """A renderer that renders here, with this process's WeasyPrint patches."""

    def __init__(self):
        self.jobs: list[RenderJob] = []

    def render(self, jobs):
        from printshop.render.job import render_job

        self.jobs += jobs
        return [render_job(job) for job in jobs]


def test_where_named_strings_cannot_be_carried_into_a_part_the_book_is_laid_out_whole(
        renderer):
    # the patch `carried-strings` skipped (another WeasyPrint): slower, the same pages
    from printshop.render.weasy import registry

    book_pages._numbers_for.clear()
    job = _job(_book())
    in_parts = book_pages.render_book(SimpleNamespace(renderer=renderer, progress=None), job)
    guess = book_pages.placed_as_json(job)
    book_pages._numbers_for.clear()
    here = _InThisProcess()
    with registry.switched({"carried-strings"}):
        whole = book_pages.render_book(SimpleNamespace(renderer=here, progress=None), job,
                                       guess)
    from printshop.products.book.job import BookPart

    # the parts were tried first
    assert any(e.strings for j in here.jobs for e in j.extensions if isinstance(e, BookPart))
    assert here.jobs[-1].html.count("<section") == 5       # then the book, whole
    assert whole.pages == in_parts.pages
    ours, theirs = pdf_reader(in_parts.pdf), pdf_reader(whole.pdf)
    for number, (a, b) in enumerate(zip(ours.pages, theirs.pages), start=1):
        assert a.extract_text() == b.extract_text(), f"page {number}"
    assert "TINY BOOK" in theirs.pages[3].extract_text()   # a running head on a left page


def test_the_parts_go_out_longest_first_by_the_seconds_they_took_before():
    """A part's HTML says little of its cost (the title page: a line of HTML and a cover
    picture to decode and write): where every job has the CPU seconds its part took in the
    first pass, the longest by them goes to the workers first; the results come back in the
    jobs' order whatever the order they were rendered in."""
    handed = []

    class Renderer:
        def render(self, jobs, **_):
            handed.extend(jobs)
            return [SimpleNamespace(html=job.html) for job in jobs]

    ctx = SimpleNamespace(renderer=Renderer(), progress=None)
    jobs = [RenderJob(html=html, stylesheets=(), roots=(), base_url="", source="book")
            for html in ("<p>title</p>", "x" * 5000, "y" * 900)]
    results = book_parts.render_longest_first(ctx, jobs, None, [0.6, 0.4, 0.9])
    assert [job.html for job in handed] == [jobs[2].html, jobs[0].html, jobs[1].html]
    assert [result.html for result in results] == [job.html for job in jobs]
    handed.clear()      # a job without its seconds: by the HTML's length
    book_parts.render_longest_first(ctx, jobs, None, [0.6, 0.0, 0.9])
    assert [job.html for job in handed] == [jobs[1].html, jobs[2].html, jobs[0].html]
