"""A part of the book laid out once, kept by its worker, and finished when its page numbers
are known, instead of being laid out a second time.

The book's first pass lays each part out with a placeholder for every page reference, only
to learn its pages (products/book/pages.py). The second pass used to lay each part out again
from the start with the real numbers, its folios and its running heads. That second layout
differs from the first only in

* the digits of each page reference (`data-page-ref`, printed by `attr()` in `::after` or
  `::before`): where the number takes the same room as the placeholder, the line is the
  same, and only that piece of text is set again (shaped with the same font, the same
  spacing, and its width compared, exactly); where it does not, its page is laid out
  again by WeasyPrint's own page re-making, which re-makes the following pages too if the
  page then ends elsewhere (the rest of the part is kept);
* the folios: the page counter, read only by the margin boxes (a stylesheet reading page
  counters anywhere else is never split into parts), is shifted when they are made;
* the running heads: the named strings carried from the parts before (render/weasy/strings.py),
  also read only by the margin boxes.

So a worker keeps what the first pass laid out (`lay_out(keep=TOKEN)`: the book's
`BookPart.keep`, products/book/job.py), and a job that resumes it (`lay_out(resume=TOKEN)`)
restores the pages as they were before their margin boxes were made,
sets the numbers, re-makes what must be, and then makes the margin boxes and draws, as
WeasyPrint would have. A job that cannot resume (its worker is another, the text differs in
more than the numbers, the part starts on a left page where the first pass had a right
one, page counters are read elsewhere) is laid out whole as before: `finish` returns None.
"""

from __future__ import annotations

import contextvars
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from printshop.render.weasy.registry import Patch

MAX_KEPT = 64          # layouts a worker keeps (a build's parts), oldest dropped first

_kept: dict[str, _Kept] = {}
_state: contextvars.ContextVar[_Layout | None] = contextvars.ContextVar(
    "printshop_resume", default=None)


@dataclass
class _Kept:
    text: str             # the text laid out, numbers left out (the caller's digest of it)
    what: tuple           # what else decided the layout (stylesheets, fonts …: the caller's)
    first: int            # the page in the book its first page was numbered as (1: any)
    epoch: int
    document: Any         # the first pass's Document: metadata, fetcher, fonts, profiles
    layout: _Layout


class _Layout:
    """What one `layout_document` worked with, and its pages as `make_all_pages` left them
    (each page's children and its root box's children, before the margin boxes)."""

    def __init__(self, resume_pages=None, page_offset: int = 0):
        self.resume_pages = resume_pages
        self.page_offset = page_offset
        # (WeasyPrint's, untyped)
        self.html: Any = None
        self.root_box: Any = None
        self.context: Any = None
        self.pages: list[tuple] = []


def _install():
    """WeasyPrint's page making records (and, resuming, starts from) the pages of the layout
    in `_state`; outside `keeping` and `_layout_again` it is WeasyPrint's own."""
    from weasyprint import layout

    make_all_pages = layout.make_all_pages
    initialize_page_maker = layout.initialize_page_maker
    make_margin_boxes = layout.make_margin_boxes

    def recorded_make_all_pages(context, root_box, html, pages):
        state = _state.get()
        if state is None:
            yield from make_all_pages(context, root_box, html, pages)
            return
        if state.resume_pages is not None and not pages:
            pages, state.resume_pages = state.resume_pages, None
        made = []
        for page in make_all_pages(context, root_box, html, pages):
            made.append(page)
            yield page
        state.html, state.root_box, state.context = html, root_box, context
        state.pages = [(page, list(page.children), page.children[0].children)
                       for page in made]

    def kept_page_maker(context, root_box):
        state = _state.get()
        if state is None or state.resume_pages is None:
            initialize_page_maker(context, root_box)

    def shifted_margin_boxes(context, page, page_state):
        state = _state.get()
        if state is not None and state.page_offset:
            quote_depth, counters, scopes, groups = page_state
            counters = dict(counters)
            if "page" in counters:
                counters["page"] = [value + state.page_offset for value in counters["page"]]
            page_state = (quote_depth, counters, scopes, groups)
        return make_margin_boxes(context, page, page_state)

    return [(layout, "make_all_pages", recorded_make_all_pages),
            (layout, "initialize_page_maker", kept_page_maker),
            (layout, "make_margin_boxes", shifted_margin_boxes)]


KEPT_LAYOUTS = Patch(
    name="kept-layouts",
    kind="speed",
    # what finishing a kept layout relies on: its page maker's entries, its page re-making,
    # the margin boxes, how a Document is made
    targets={"weasyprint.layout.page.make_all_pages": "b5e4034894841caa",
             "weasyprint.layout.page.remake_page": "1ff09b2dffa17839",
             "weasyprint.layout.layout_document": "a5cbf437e99caf72",
             "weasyprint.layout.page.make_margin_boxes": "4a2d2e301eb3bc47",
             "weasyprint.layout.initialize_page_maker": "5bb3c878d722af53",
             "weasyprint.document.Document.__init__": "3e9c12ed2ef35b9b"},
    why="the book's second pass laid every part out again only to print its page numbers, "
        "folios and running heads",
    gain="4.4 % of the guide's first build (cold-build CPU)",
    install=_install,
)


@contextmanager
def keeping():
    """Around a layout to keep (the patch active): what it lays out is recorded, for
    `keep`."""
    state = _Layout()
    token = _state.set(state)
    try:
        yield state
    finally:
        _state.reset(token)


def keep_layout(token: str, kept: _Kept) -> bool:
    """Keep a layout (recorded by `keeping`) under `token`, for a job resuming it."""
    if kept.layout.context is None or _page_counters_read_in_content(kept.layout.context):
        return False
    while len(_kept) >= MAX_KEPT:
        del _kept[next(iter(_kept))]
        _after_job("thaw")
    _kept[token] = kept
    _after_job("freeze")     # not walked by the collection after every later job
    return True


def forget() -> None:
    """Drop every kept layout: a new build started (render/job.py `_stylesheets`)."""
    if _kept:
        _kept.clear()
        _after_job("thaw")


def _after_job(what: str) -> None:
    """Ask the worker's collection after this job to freeze or thaw (render/pool/workers.py):
    a kept layout is frozen, and once none is kept, what they left in cycles is freed."""
    from printshop.render.pool import workers

    workers.after_job(what)


def _page_counters_read_in_content(context) -> bool:
    """Content that WeasyPrint fills in from page counters (a target-counter() left in,
    counter(page) in the text): its numbers would change with the folios."""
    return bool(context.target_collector.counter_lookup_items)


def lay_out(fresh, *, keep: str, resume: str, first: int, text: str, what: tuple,
            epoch: int, numbers: dict[str, str]):
    """A Document: finished from the layout kept under the token `resume` (with `numbers`,
    href → the page number printed for it, and its first page `first`), else laid out by
    `fresh()` and kept under the token `keep` if given; with whether it was kept and
    whether it was finished from a kept one. `text` (the text laid out, its numbers left
    out) and `what` (whatever else decides the layout) must be those of the kept layout;
    `first`: the page in the book it starts on (0: not placed)."""
    from printshop.render.weasy import registry

    if not registry.active(KEPT_LAYOUTS.name) or not text:
        return fresh(), False, False
    if resume:
        document = finish(resume, first, text, what, epoch, numbers)
        if document is not None:
            return document, False, True
    if not keep:
        return fresh(), False, False
    with keeping() as state:
        document = fresh()
    return document, keep_layout(keep, _Kept(text, what, first or 1, epoch, document,
                                             state)), False



def finish(token: str, first: int, text: str, what: tuple, epoch: int,
           numbers: dict[str, str]):
    """The Document resumed from the layout kept under `token`, with `numbers` and its
    first page `first`; None when it cannot be."""
    kept = _kept.pop(token, None)
    if kept is not None and not _kept:
        _after_job("thaw")   # the last kept layout: the collection after this job frees them
    if kept is None or kept.epoch != epoch or text != kept.text or what != kept.what:
        return None
    state = kept.layout
    context, root_box = state.context, state.root_box
    right_first = context.page_maker[0][2]
    if right_first != bool(first % 2):
        return None     # laid out as a right-hand page, wanted on a left one (or back)
    for page, children, root_children in state.pages:   # as before the margin boxes
        page.children = children
        children[0].children = root_children
    changed = _set_numbers(root_box, numbers)
    if changed is None:
        return None
    remake = False
    for index, (page, _, _) in enumerate(state.pages):
        if not _swap_numbers(page, changed, context):
            context.page_maker[index][-1]["content_changed"] = True
            remake = True
    if remake:
        context.tables = {}     # a table holding a reference is measured again
    context.string_set = defaultdict(lambda: defaultdict(list))   # gathered again
    return _layout_again(kept, state, first - kept.first)


def _set_numbers(root_box, numbers: dict[str, str]):
    """The box tree's generated texts with the new numbers (what a re-made page lays out):
    {element: (old, new)} of the references that change; None if one cannot be set."""
    changed = {}
    for element in {box.element for box in _number_boxes(root_box)}:
        old, new = element.get("data-page-ref"), numbers.get(element.get("href"))
        if new is None:
            return None
        if new != old:
            changed[element] = (old, new)
    for box in _number_boxes(root_box):
        if box.element in changed:
            old, new = changed[box.element]
            count = box.text.count(old)
            if count > 1:
                return None
            if count:   # (not a piece of generated text without the number: a leader)
                box.text = box.text.replace(old, new)
    for element, (_, new) in changed.items():
        element.set("data-page-ref", new)
    return changed


def _number_boxes(box):
    from weasyprint.formatting_structure.boxes import TextBox

    for child in box.descendants():
        if isinstance(child, TextBox) and child.element is not None and \
                child.element_tag.endswith(("::after", "::before")) and \
                child.element.get("data-page-ref") is not None:
            yield child


def _swap_numbers(page, changed, context) -> bool:
    """The laid-out page's pieces of reference text set with their new numbers where each
    takes exactly the room of the old one; False if one does not (the page is re-made)."""
    for box in _number_boxes(page):
        if box.element not in changed:
            continue
        old, new = changed[box.element]
        if old not in box.text:
            continue    # the piece of a broken reference without the number
        if box.text.count(old) != 1:
            return False
        layout = _same_room(box, box.text.replace(old, new), context)
        if layout is None:
            return False
        box.text, box.pango_layout = layout.text, layout
    return True


def _same_room(box, text: str, context):
    """A layout of `text` made as `box`'s was, if it is exactly as wide and high."""
    from weasyprint.text.line_break import create_layout, line_size

    made = box.pango_layout
    sizes = []
    for candidate in (box.text, text):
        layout = create_layout(candidate, box.style, context, made.max_width,
                               box.justification_spacing)
        line, following = layout.get_first_line()
        if following is not None:
            return None
        sizes.append(line_size(line, box.style))
    if sizes[0] != sizes[1]:
        return None
    if not hasattr(made, "layout"):   # set aside for drawing, as the old one was
        layout.deactivate()
    return layout


def _layout_again(kept: _Kept, state: _Layout, page_offset: int):
    """WeasyPrint's `layout_document` from the kept pages (only those marked re-made), then
    its margin boxes and backgrounds; the Document as `HTML.render` would make it."""
    from weasyprint.document import Document, Page
    from weasyprint.layout import layout_document

    resuming = _Layout([page for page, _, _ in state.pages], page_offset)
    token = _state.set(resuming)
    try:
        pages = [Page(box) for box in layout_document(state.html, state.root_box,
                                                      state.context)]
    finally:
        _state.reset(token)
    first = kept.document
    document = Document(pages, first.metadata, first.url_fetcher, first.font_config,
                        first.color_profiles, first.output_intent)
    document._html = getattr(first, "_html", None)
    return document
