"""Page references as known numbers (products/book_pages.py): the pieces, and the passes
with a stand-in renderer. The guide's own tests check the printed numbers end to end."""

from __future__ import annotations

from types import SimpleNamespace

from printshop.products import book_pages as bp
from printshop.render.pdf import RenderJob, RenderResult, Stylesheet

BOOK = """<!DOCTYPE html><html><head><title>B</title></head>
<body class="book">
<nav class="toc"><a href="#one">One</a> <a class="x" href="#two">Two</a></nav>
<section class="chapter" data-source="a.md"><h1 id="one">One</h1><p>See <a class="xref" href="#two">Two</a>.</p></section>
<section class="chapter" data-source="b.md"><h1 id="two">Two</h1></section>
<section class="colophon" id="colophon"><p>c</p></section>
</body></html>"""


def test_target_page_counters_become_the_links_number():
    sheets = (Stylesheet(text='a.xref::after { content: " (p. " target-counter(attr(href url), page) ")"; }'),
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
    html = bp.number_links(BOOK, {"one": 3})
    assert '<a data-page-ref="3" href="#one">' in html
    assert '<a class="x" data-page-ref="00" href="#two">' in html      # not known yet
    assert html.count("data-page-ref") == 3


def test_the_book_splits_into_front_matter_chapters_and_colophon():
    parts = bp.split_parts(BOOK)
    assert [kind for kind, _ in parts] == ["front", "chapter", "chapter", "colophon"]
    for _, html in parts:
        assert html.startswith("<!DOCTYPE html>") and html.endswith("</body></html>")
        assert '<body class="book">' in html
    assert 'id="one"' in parts[1][1] and 'id="two"' not in parts[1][1]
    assert bp.split_parts("<html><body><p>no parts</p></body></html>") is None


def test_chapters_start_on_a_right_hand_page():
    parts = bp.split_parts(BOOK)
    results = [RenderResult(b"", 3, anchors={"contents": 3}),   # title, blank, contents
               RenderResult(b"", 3, anchors={"one": 1}),        # pages 5-7 (4 is blank)
               RenderResult(b"", 2, anchors={"two": 1, "deep": 2}),  # 9-10
               RenderResult(b"", 1, anchors={"colophon": 1})]   # 11
    assert bp.book_pages(parts, results) == {"contents": 3, "one": 5, "two": 9, "deep": 10,
                                             "colophon": 11}


class Renderer:
    """Stands in for the worker pool: part jobs and whole-book jobs with canned anchors."""

    def __init__(self, whole_anchors: list[dict]):
        self.whole_anchors, self.jobs = whole_anchors, []

    def render(self, jobs):
        self.jobs.append(jobs)
        out = []
        for job in jobs:
            if job.layout_only:
                anchors = {"one": 1} if 'id="one"' in job.html else {}
                anchors.update({"two": 1} if 'id="two"' in job.html else {})
                out.append(RenderResult(b"", 1, anchors=anchors))
            else:
                out.append(RenderResult(b"%PDF", 5, anchors=dict(self.whole_anchors.pop(0))
                                        if job.anchors else {}))
        return out


def _job(css='a::after { content: target-counter(attr(href url), page); }'):
    return RenderJob(html=BOOK, stylesheets=(Stylesheet(text=css),), roots=(), base_url="",
                     source="book")


def test_a_number_that_moved_is_printed_again_until_they_agree():
    bp._numbers_for.clear()
    renderer = Renderer([{"one": 3, "two": 6}, {"one": 3, "two": 6}])
    result = bp.render_book(SimpleNamespace(renderer=renderer, progress=None), _job())
    assert result.pdf == b"%PDF"
    first, second, third = renderer.jobs
    assert len(first) == 4 and all(j.layout_only for j in first)     # the parts, at once
    assert 'data-page-ref="5" href="#two"' in second[0].html          # front 1 + ch. 3, 5
    assert 'data-page-ref="6" href="#two"' in third[0].html            # what the book said
    # the same book again in this process: no first pass
    renderer = Renderer([{"one": 3, "two": 6}])
    bp.render_book(SimpleNamespace(renderer=renderer, progress=None), _job())
    assert len(renderer.jobs) == 1


def test_stylesheets_it_cannot_reproduce_render_the_book_as_it_is():
    renderer = Renderer([{}])
    job = _job("a::after { content: target-text(attr(href url)); }")
    bp.render_book(SimpleNamespace(renderer=renderer, progress=None), job)
    assert renderer.jobs == [[job]]
