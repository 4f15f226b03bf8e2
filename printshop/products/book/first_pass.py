"""The book's first pass: each part laid out once, to learn where its pages and ids fall.

A part is laid out before the numbers of its references are known, and a placeholder
("00") stands in for each. The layout is then kept and finished with the real numbers
(render/weasy/resume.py): a number that takes the placeholder's room is only swapped, but a page
holding one that does not (page 7 where "00" stood, even in tabular figures) is laid out
again. Three things keep those pages few:

* the parts that hold the one-digit pages are laid out first, in book order (until the
  parts laid out so far reach page 9); every part laid out after them prints its numbers
  for those pages exactly, and the rest take the longest first, so that no long part is
  left for one core at the end;
* a part made once every part before it is laid out (the front matter, the colophon,
  often) is laid out where it starts in the book, on its side of the spread: a chapter
  or colophon that starts on a left-hand page could not be finished otherwise;
* each part is made when a worker is about to take it, with every number known by then
  (the ids in the parts laid out so far from the front of the book), and for the others a
  placeholder as long as the number is likely to be, from the pages known so far and the
  pages a byte of text has made in the parts laid out so far (two digits while no part has
  come back).

So the numbers in a first layout depend on which parts had come back when it was made;
what is printed does not: the finishing step sets every number, and a finished part is
the part laid out afresh with its numbers (tests/test_render_resume.py).
"""

from __future__ import annotations

from printshop.products.book.composed import PLACEHOLDER, printed_number
from printshop.products.book.job import BookPart
from printshop.products.book.pages import aligned_numbers
from printshop.render.job import RenderJob, RenderResult

ONE_DIGIT = 9     # the last page whose number is narrower than the placeholder


def first_pass(ctx, job: RenderJob, parts: list, sheets: tuple, keep: bool, fitting=None
               ) -> tuple[list[RenderResult | None], list[tuple[str, int]]]:
    """Each of `parts` laid out once (`layout_only`), kept by its worker if `keep`: the
    results, and each part's kept layout (its token, the pid of the worker keeping it, 0
    for none) for `book_parts.render_in_parts`. With `fitting` (products/book/fit.py), a
    part that ends on a near-empty page is laid out again a step tighter, with the same
    numbers, until its step is decided (`parts` then holds each part at its step, and the
    results and kept layouts are of the parts at their steps)."""
    from printshop.products.book.parts import part_jobs, placed
    from printshop.render.queue import RenderQueue

    results: list[RenderResult | None] = [None] * len(parts)
    tokens: dict[tuple[int, int], str] = {}            # (part, step) → its layout's token
    tried: dict[tuple[int, int], RenderResult] = {}     # (part, step) → its layout
    numbers_of: dict[int, dict] = {}                    # part → the numbers it is laid out with
    started: set[int] = set()
    queue = RenderQueue()

    def make(index: int) -> RenderJob:
        if index not in numbers_of:
            numbers_of[index] = _best_numbers(parts, results, placed(parts, results)[1])
            if fitting is not None:
                fitting.before_first(index, parts, numbers_of[index])
        firsts: list[int | None] | None = None
        if all(result is not None for result in results[:index]):
            # every part before it is laid out: it is laid out where it starts in the book
            # (on its side of the spread), and finishing it only sets its numbers
            firsts = [None] * len(parts)
            firsts[index] = _covered(parts, results) + 1
        made, = part_jobs(job, parts, sheets, numbers_of[index], firsts, [index], True,
                          keep=keep, checked=fitting is not None)
        part = made.get(BookPart)
        tokens[index, parts[index].step] = part.keep if part is not None else ""
        return made

    def add_next() -> None:
        index = _next_part(parts, results, started)
        if index is not None:
            started.add(index)
            queue.add(lambda: make(index), (index, None))

    from printshop.progress import Counter

    counter = Counter(ctx.progress, f"{_name(job)}: finding the pages", len(parts), "parts")

    def done(tag: tuple[int, int | None], result: RenderResult) -> None:
        index = tag[0]
        step = parts[index].step          # (the step the job was made at)
        if fitting is not None:
            tried[index, step] = result
            if not fitting.after_first(index, parts, numbers_of[index], result):
                # (urgent: the parts after it wait for its pages)
                queue.add(lambda: make(index), (index, parts[index].step), urgent=True)
                return
            result = tried[index, parts[index].step]
        results[index] = result
        counter.update(step=1)
        add_next()

    workers = getattr(getattr(ctx.renderer, "pool", None), "processes", 2)
    for _ in range(max(1, workers)):
        add_next()
    ctx.renderer.run(queue, done)
    _, settled, _ = placed(parts, results)
    return results, [(tokens.get((index, part.step), ""),
                      _kept_by(index, parts, result, numbers_of.get(index, {}), settled,
                               fitting, aligned_numbers(sheets)))
                     for index, (part, result) in enumerate(zip(parts, results))]


def _kept_by(index: int, parts: list, result, used: dict, settled: dict, fitting,
             aligned: bool) -> int:
    """The pid of the worker keeping the part's layout, where it is to be finished; 0 where
    finishing it there saves nothing: a part laid out on placeholders (the contents, a
    number on each line) whose numbers print wider than the placeholders (a book of 100
    pages or more; shorter ones are padded: composed.printed_number) is laid out again whole,
    so the first worker free takes it, not the one keeping it (which may be busy with the
    longest part: the guide's contents waited 0.3 s for it, the other core idle)."""
    if result is None:
        return 0
    kind = parts[index].kind
    if fitting is not None and fitting.on_placeholders[index] and any(
            len(printed_number(settled.get(name, used.get(name)), kind, aligned)) !=
            len(printed_number(used.get(name), kind, aligned)) for name in parts[index].links):
        return 0
    return BookPart.found_in(result).kept_by


def _name(job: RenderJob) -> str:
    """The book's product name, from its job's source (`guide.html.j2 (players-guide)`)."""
    source = job.source or ""
    name = source[source.rfind("(") + 1:-1] if source.endswith(")") else ""
    return name if name and ")" not in name else (source or "book")


def _covered(parts: list, results: list) -> int:
    """The pages of the parts laid out so far from the front of the book."""
    from printshop.products.book.parts import own_pages

    pages = 0
    for index, result in enumerate(results):
        if result is None:
            break
        pages += own_pages(result, index, len(parts))
    return pages


def _next_part(parts: list, results: list, started: set[int]) -> int | None:
    """The part to lay out next: in book order while one-digit pages are still unknown,
    then the longest left."""
    left = [i for i in range(len(parts)) if i not in started]
    if not left:
        return None
    if _covered(parts, results) < ONE_DIGIT:
        return left[0]
    return max(left, key=lambda i: (parts[i].size, -i))


def _best_numbers(parts: list, results: list, known: dict[str, int]) -> dict[str, str]:
    """Every referenced id's number as far as it is known: its page if its part and all
    before it are laid out, else a placeholder of as many digits as its page will likely
    have (estimated from the pages a byte of the parts laid out so far made)."""
    from printshop.products.book.parts import own_pages

    covered = _covered(parts, results)
    # (not the title page's pages: a page of a picture and a blank say nothing of the text)
    done = [(i, r) for i, r in enumerate(results)
            if r is not None and not (parts[i].kind == "front" and len(parts) > 1 and
                                      parts[1].kind == "toc")]
    rate = (sum(own_pages(r, i, len(parts)) for i, r in done) /
            max(1, sum(parts[i].size for i, _ in done))) if done else None
    first = next((i for i, r in enumerate(results) if r is None), len(parts))
    placeholders, before = {}, covered
    for index in range(first, len(parts)):      # the parts not yet placed, in book order
        # no part laid out yet: nothing to go by but the placeholder's own length
        digits = len(PLACEHOLDER) if rate is None else len(str(round(before + 1)))
        for name in parts[index].own:
            placeholders[name] = "0" * digits
        if rate is not None:
            before += rate * parts[index].size
    wanted = set().union(*(part.links for part in parts))
    return {name: str(known[name]) if name in known else placeholders.get(name, PLACEHOLDER)
            for name in wanted}
