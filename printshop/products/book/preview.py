"""One chapter of the book, rendered alone with its page numbers in the whole book.

`printshop serve` shows a saved chapter's pages within seconds, before the whole book is
laid out again. The chapter alone would start at page 1, without the book's title in its
running head and with "(p. 00)" for every reference, so it is rendered with what the last
good build of the whole book knew (its `PageMap`, kept in the build cache entry):

* its folios: the page counter starts at the chapter's page in the book (`@page :first
  { counter-reset: page N }`), and the first page is a left or right page as it is there;
* its running heads: the book's title (set on the title page) is set again, invisibly, at
  the top of the chapter; the chapter's own title sets the other head as in the book;
* its references: links carry the pages the book had, except that targets inside the
  chapter get their page from this very render (laid out again until they agree, as
  `book_pages.render_book` does for the book).

If the chapter grew or shrank, the pages after it move: the whole book, rendered next,
replaces this preview.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from printshop.products.book.composed import Book, parse
from printshop.products.book.fit import MAX_STEP
from printshop.products.book.job import BookPart
from printshop.products.book.pages import MAX_PASSES, literal_stylesheets
from printshop.render.checks import PageCheck
from printshop.render.job import RenderJob


@dataclass
class PageMap:
    """Where everything was in the last whole book: id → page, and each chapter's pages."""

    anchors: dict[str, int]
    chapters: list[dict]     # {"source", "id", "first", "last", "step"} in book order
    pages: int

    def as_json(self) -> dict:
        return {"anchors": self.anchors, "chapters": self.chapters, "pages": self.pages}

    @classmethod
    def from_json(cls, data) -> "PageMap | None":
        try:
            return cls(dict(data["anchors"]), list(data["chapters"]), int(data["pages"]))
        except (KeyError, TypeError, ValueError):
            return None

    def chapter(self, source: str) -> dict | None:
        return next((c for c in self.chapters if c["source"] == source), None)


def page_map(book: Book | None, anchors: dict[str, int], pages: int,
             steps: list[int] | None = None) -> PageMap | None:
    """The map of a book (`composed.parse` of its HTML) rendered with `anchors`
    (book_pages.render_book keeps them) and its parts at their fit `steps`."""
    chapters: list[dict[str, Any]] = []
    parts = book.parts if book is not None else []
    if steps is None or len(steps) != len(parts):
        steps = [0] * len(parts)
    for part, step in zip(parts, steps):
        if part.kind == "chapter" and part.source and part.title_id and \
                part.title_id in anchors:
            chapters.append({"source": part.source, "id": part.title_id,
                             "first": anchors[part.title_id], "step": step})
    if not chapters:
        return None
    ends = [c["first"] for c in chapters[1:]] + [anchors.get("colophon", pages + 1)]
    for chapter, end in zip(chapters, ends):
        chapter["last"] = max(chapter["first"], end - 1)
    return PageMap(dict(anchors), chapters, pages)


@dataclass
class ChapterPreview:
    source: str          # the chapter's file, relative to the project
    title: str
    number: int          # its place in the book (1: the first chapter)
    first_page: int      # the number of its first page in the book
    pdf: bytes = b""
    pages: int = 0
    replaces: tuple[int, int] = (0, 0)   # its pages in the last whole book
    warnings: list = field(default_factory=list)


def render_chapter(ctx, job: RenderJob, source: str, pages: PageMap,
                   composed=None) -> ChapterPreview | None:
    """`job` is the whole book's print job; the chapter from `source` rendered alone, or
    None when the book cannot be split so (then only the whole book will do). `composed()`
    is called once its HTML is made, before it renders."""
    known = pages.chapter(source)
    sheets = literal_stylesheets(job.stylesheets)
    if known is None or sheets is None:
        return None
    book = parse(job.html)
    if book is None:
        return None
    chapters = [part for part in book.parts if part.kind == "chapter"]
    found = [(n, part) for n, part in enumerate(chapters, start=1) if part.source == source]
    if not found:
        return None
    number, part = found[0]
    # set as tight as it was in the last whole book (products/book/fit.py): its pages as
    # the book will likely print them, not a near-empty last page the book took in
    step = known.get("step", 0)
    if isinstance(step, int) and 0 < step <= MAX_STEP:
        part = replace(part, step=step)
    first = known["first"]
    # the book's title, laid out invisibly at the top of the chapter: it sets the running
    # head's string as the title page does in the book
    title = book.title_without_ids()
    hidden = ('<div style="height: 0; overflow: hidden; margin: 0; padding: 0; '
              f'visibility: hidden" aria-hidden="true">{title}</div>') if title else ""
    numbers = dict(pages.anchors)
    if part.title_id:
        numbers[part.title_id] = first
    if composed is not None:
        composed()
    for _ in range(MAX_PASSES):
        # uncompressed: the preview is read from the local disk and drawn as images, and
        # compressing its streams was a third of writing its PDF (0.1 s of 2.5)
        alone = replace(job, html=part.document(numbers, opening=hidden).html,
                        stylesheets=sheets, uncompressed=True,
                        source=f"{job.source}, {source} alone")
        alone = alone.without(PageCheck).extended(BookPart(first=first))
        result, = ctx.renderer.render([alone])
        found_pages = {name: first + page - 1
                       for name, page in BookPart.found_in(result).anchors.items()
                       if name in part.own}
        if all(numbers.get(name) == page for name, page in found_pages.items()):
            break
        numbers.update(found_pages)
    # links to other chapters have no target here: not worth a warning in a preview
    warnings = [w for w in result.warnings if not w.message.startswith("No anchor #")]
    return ChapterPreview(source=source, number=number, first_page=first, pdf=result.pdf,
                          pages=result.pages, replaces=(first, known["last"]),
                          title=part.title or source, warnings=warnings)
