"""Page references as known numbers (products/book/pages.py): the pieces, and the passes
with a stand-in renderer. The guide's own tests check the printed numbers end to end."""

from __future__ import annotations

import json
from types import SimpleNamespace

from printshop.products.book import pages as bp
from printshop.products.book.composed import parse
from printshop.products.book.job import BookPart, PartFound
from printshop.render.job import RenderJob, RenderResult, Stylesheet
from printshop.resources import TEMPLATES_DIR

BOOK = """<!DOCTYPE html><html><head><title>B</title></head>
<body class="book">
<nav class="toc"><a href="#one">One</a> <a class="x" href="#two">Two</a></nav>
<section class="chapter" data-source="a.md"><h1 id="one">One</h1><p>See <a class="xref" href="#two">Two</a>.</p></section>
<section class="chapter" data-source="b.md"><h1 id="two">Two</h1></section>
<section class="colophon" id="colophon"><p>c</p></section>
</body></html>"""  # noqa: E501


def test_target_page_counters_become_the_links_number():
    sheets = (Stylesheet(text='a.xref::after { content: " (p. " '
                              'target-counter(attr(href url), page) ")"; }'),
              Stylesheet(text="p { color: red }"))
    literal = bp.literal_stylesheets(sheets)
    assert literal[0].text == 'a.xref::after { content: " (p. " attr(data-page-ref) ")"; }'
    assert literal[1] == sheets[1]


def test_page_numbers_it_cannot_reproduce_keep_weasyprints_way():
    for css in ("a::after { content: target-text(attr(href url)); }",
                "a::after { content: target-counter(attr(href url), page, lower-roman); }",
                ".x { counter-reset: page 5; }", "@page { counter-increment: page 2; }"):
        assert bp.literal_stylesheets((Stylesheet(text=css),)) is None, css


def test_every_internal_link_carries_its_targets_page():
    html = parse(BOOK).numbered({"one": 3})
    assert '<a data-page-ref="3" href="#one">' in html
    assert '<a class="x" data-page-ref="00" href="#two">' in html      # not known yet
    assert html.count("data-page-ref") == 3
    assert html.replace('data-page-ref="3" ', "").replace('data-page-ref="00" ', "") == BOOK


def test_numbers_ending_leaders_are_printed_as_wide_as_the_placeholders():
    leadered = Stylesheet(text=".toc a::after { content: leader('. ') attr(data-page-ref) }")
    inline = Stylesheet(text="a.xref::after { content: ' (p. ' attr(data-page-ref) ')' }")
    assert bp.aligned_numbers((inline, leadered)) and not bp.aligned_numbers((inline,))
    converted = bp.literal_stylesheets((Stylesheet(
        path=str(TEMPLATES_DIR / "css" / "book.css")),))
    assert bp.aligned_numbers(converted)      # the book's own contents
    html = parse(BOOK).numbered({"one": 3}, aligned=True)
    assert '<a data-page-ref="\u20073" href="#one">' in html


class Renderer:
    """Stands in for the worker pool: a part's pages and anchors come from its HTML (one
    page, plus the next part's empty element), the book's numbers as `moved` says."""

    def __init__(self, moved: dict[str, int] | None = None):
        self.jobs, self.moved = [], dict(moved or {})

    def run(self, queue, on_done):
        """A queue's jobs, recorded as one batch, as they are added."""
        batch = []
        self.jobs.append(batch)
        while (index := queue._pop()) is not None:
            job = queue._made(index)
            batch.append(job)
            on_done(queue._tags[index], self._results([job])[0])

    def render(self, jobs):
        self.jobs.append(jobs)
        return self._results(jobs)

    def _results(self, jobs):
        out = []
        for job in jobs:
            anchors = {name: 1 for name in ("one", "two") if f'id="{name}"' in job.html}
            pages = 1 + (1 if '"></section></body>' in job.html else 0)
            if not job.layout_only and "two" in anchors and self.moved.pop("two", None):
                pages += 1          # the numbers printed made chapter two a page longer
            out.append(RenderResult(b"", pages, found={BookPart.name: PartFound(anchors)}))
        return out


def _job(css='a::after { content: target-counter(attr(href url), page); }'):
    return RenderJob(html=BOOK, stylesheets=(Stylesheet(text=css),), roots=(), base_url="",
                     source="book")


def test_the_parts_are_laid_out_at_once_then_again_with_their_numbers(monkeypatch):
    from printshop.products.book import parts as book_parts

    monkeypatch.setattr(book_parts, "joined", lambda job, parts, results, firsts, numbers:
                        RenderResult(b"%PDF", sum(r.pages for r in results),
                                     found={BookPart.name: PartFound(numbers)}))
    bp._numbers_for.clear()
    renderer = Renderer()
    result = bp.render_book(SimpleNamespace(renderer=renderer, progress=None), _job())
    assert result.pdf == b"%PDF"
    first, second = renderer.jobs
    assert len(first) == 4 and all(j.layout_only for j in first)     # the parts, at once
    assert len(second) == 4 and not any(j.layout_only for j in second)
    numbered = next(j.html for j in second if 'id="one"' in j.html)
    # front 1, chapter one 2, chapter two 3: the link to two carries 3, at its stand-in
    assert 'data-page-ref="3" href="#ps-ext-two"' in numbered
    assert BookPart.found_in(result).anchors["two"] == 3
    # the same book again in this process: no first pass
    renderer = Renderer()
    bp.render_book(SimpleNamespace(renderer=renderer, progress=None), _job())
    assert len(renderer.jobs) == 1


def test_a_part_that_moved_a_page_is_laid_out_again_with_the_parts_after_it(monkeypatch):
    from printshop.products.book import parts as book_parts

    monkeypatch.setattr(book_parts, "joined", lambda job, parts, results, firsts, numbers:
                        RenderResult(b"%PDF", sum(r.pages for r in results),
                                     found={BookPart.name: PartFound(numbers)}))
    bp._numbers_for.clear()
    renderer = Renderer(moved={"two": True})
    result = bp.render_book(SimpleNamespace(renderer=renderer, progress=None), _job())
    _, second, third = renderer.jobs
    # chapter two came out a page longer: the colophon after it starts a page later, and
    # only it is laid out again (nothing links to it)
    assert len(second) == 4 and len(third) == 1 and "colophon" in third[0].html
    assert third[0].get(BookPart).first == 5
    assert BookPart.found_in(result).anchors == {"one": 2, "two": 3}


def test_stylesheets_it_cannot_reproduce_render_the_book_as_it_is():
    renderer = Renderer()
    job = _job("a::after { content: target-text(attr(href url)); }")
    bp.render_book(SimpleNamespace(renderer=renderer, progress=None), job)
    assert renderer.jobs == [[job]]


def test_what_an_earlier_build_found_stands_in_for_the_first_pass(monkeypatch):
    from printshop.products.book import parts as book_parts

    monkeypatch.setattr(book_parts, "joined", lambda job, parts, results, firsts, numbers:
                        RenderResult(b"%PDF", sum(r.pages for r in results),
                                     found={BookPart.name: PartFound(numbers)}))
    bp._numbers_for.clear()
    ctx = SimpleNamespace(renderer=Renderer(), progress=None)
    bp.render_book(ctx, _job())
    guess = bp.placed_as_json(_job())
    assert guess["firsts"] == [1, 2, 3, 4] and guess["numbers"]["two"] == 3
    bp._numbers_for.clear()                      # a new process: only the guess is left
    renderer = Renderer()
    result = bp.render_book(SimpleNamespace(renderer=renderer, progress=None), _job(),
                            guess=json.loads(json.dumps(guess)))
    assert len(renderer.jobs) == 1 and not any(j.layout_only for j in renderer.jobs[0])
    assert BookPart.found_in(result).anchors == {"one": 2, "two": 3}
    # a wrong guess (another book's pages) costs passes, never a wrong number
    bp._numbers_for.clear()
    renderer = Renderer()
    wrong = {"firsts": [1, 5, 9, 20], "numbers": {"one": 5, "two": 9}, "strings": [[]] * 4}
    result = bp.render_book(SimpleNamespace(renderer=renderer, progress=None), _job(),
                            guess=wrong)
    assert BookPart.found_in(result).anchors == {"one": 2, "two": 3} and len(renderer.jobs) == 2
    # a guess for a book with other parts is not used
    bp._numbers_for.clear()
    renderer = Renderer()
    bp.render_book(SimpleNamespace(renderer=renderer, progress=None), _job(),
                   guess={"firsts": [1, 2], "numbers": {}, "strings": [[], []]})
    assert all(j.layout_only for j in renderer.jobs[0])
