"""The book laid out a part at a time, on every core, then joined into one PDF.

`book_pages.render_book` knows every reference's page after a first, cheap pass over the
parts (the front matter, each chapter, the colophon). Laying the whole book out once more
to print those numbers took one core 11 s of the guide's 20. Each part is laid out on its
own instead, on every core at once, and the parts' PDFs are joined (render/pdf/book_merge.py):

* its folios: the page counter starts at the part's page in the book and its first page is
  a left or right page as it is there (preview.py does the same for one chapter);
* the blank page before a chapter that must start on a right-hand page: each part ends with
  an empty copy of the next part's element, so WeasyPrint makes that blank page with the
  book's own `@page :blank` rule; the empty element's page is dropped when joining;
* its running heads: the named strings (`string-set`) the parts before it ended with are
  carried into it (render/weasy/strings.py), as the book's title set on the title page;
* links to other parts: WeasyPrint links only to ids in its own document, so a link to
  another part points at an invisible stand-in id (`ps-ext-ID`) at the top of the part, and
  the join points it back at ID, whose destination the other part's PDF has.

Each part's job is the book's job with a `BookPart` (products/book/job.py): where it starts,
the running heads carried in, its references' numbers and the digest of its text without
them (so that its worker can finish the first pass's layout of it, render/weasy/resume.py).
A part whose first page or printed numbers turn out wrong (its own text moved a reference)
is laid out again with what the others found, until they agree; if they never do (or the
WeasyPrint installed cannot carry named strings into a part: render/weasy/strings.py), the
caller lays the whole book out instead.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace

from printshop.products.book.composed import EXTERNAL, Part
from printshop.products.book.fit import MAX_STEP as MAX_FIT_STEP
from printshop.products.book.fit import widths_token
from printshop.products.book.job import BookPart, PartFound
from printshop.products.book.pages import MAX_PASSES, aligned_numbers
from printshop.render.checks import PageCheck, PageFound
from printshop.render.job import RenderJob, RenderResult, Stylesheet

_TOKENS = itertools.count(1)  # names of the first pass's layouts kept in the workers


def part_jobs(job: RenderJob, parts: list[Part], sheets: tuple[Stylesheet, ...],
              numbers: Mapping[str, int | str] | None, firsts: Sequence[int | None] | None,
              which: list[int], layout_only: bool, strings: list[tuple] | None = None,
              kept: list[tuple[str, int]] | None = None, keep: bool = False,
              checked: bool = False) -> list[RenderJob]:
    """Render jobs for the parts `which`: numbered with `numbers`, starting on `firsts`
    (None, or None for a part: not known yet), with the named strings the parts before
    each left (`strings`). With `keep`, the first pass's jobs have their layouts kept by
    their workers; with `kept` (each part's first-pass token and the pid of the worker
    keeping its layout, 0 for none), each part is finished from that layout, by that
    worker (render/weasy/resume.py). A `layout_only` job's pages are `checked` only if
    asked, and only for a near-empty last page (what the first pass decides fit steps by:
    the rest of the page flow is checked once the part is numbered)."""
    book_ids = set().union(*(p.own for p in parts))
    base = replace(job, stylesheets=sheets, layout_only=layout_only)
    check = job.get(PageCheck)
    if layout_only and check is not None:   # (the pages are checked once they are numbered)
        base = base.extended(replace(check, near_empty_only=True)) if checked else \
            base.without(PageCheck)
    jobs = []
    aligned = aligned_numbers(sheets)
    for index in which:
        part = parts[index]
        next_kind = parts[index + 1].kind if index + 1 < len(parts) else None
        numbered = part.document(numbers, elsewhere=book_ids - part.own,
                                 next_kind=next_kind, aligned=aligned)
        first = firsts[index] if firsts is not None else None
        carried = strings[index] if strings is not None else ()
        extension = BookPart(
            first=first or 0, strings=carried, refs=tuple(sorted(set(numbered.refs))),
            text=numbered.text,
            widths=widths_token(part, numbered, first or 0, carried, sheets, numbers=numbers,
                                elsewhere=book_ids - part.own, next_kind=next_kind,
                                aligned=aligned))
        if keep:
            extension = replace(extension, keep=f"{next(_TOKENS)}:{index}")
        elif kept is not None and kept[index][1]:
            extension = replace(extension, resume=kept[index][0], worker=kept[index][1])
        jobs.append(replace(base, html=numbered.html).extended(extension))
    return jobs


def placed(parts: list[Part], results: Sequence[RenderResult | None]
           ) -> tuple[list[int], dict[str, int], list[tuple]]:
    """Each part's first page in the book, each id's page and the named strings each part
    starts with, from the parts' renders (each has one page too many, its next part's
    empty element, but the last); of the parts before the first without a result (None),
    while the first pass is still under way (book_first_pass.py)."""
    firsts: list[int] = []
    pages: dict[str, int] = {}
    strings: list[tuple] = []
    current: dict[str, str] = {}
    next_page = 1
    for index, result in enumerate(results):
        if result is None:
            break
        firsts.append(next_page)
        strings.append(tuple(sorted(current.items())))
        found_in_part = BookPart.found_in(result)
        for name, page in found_in_part.anchors.items():
            if not name.startswith(EXTERNAL):
                pages.setdefault(name, next_page + page - 1)
        keep = own_pages(result, index, len(parts))
        for name, found in found_in_part.strings.items():
            own = [text for page, text in found if page <= keep]
            if own:
                current[name] = own[-1]
        next_page += keep
    return firsts, pages, strings


def render_longest_first(ctx, jobs: list[RenderJob], counter=None,
                         seconds: list[float] | None = None) -> list[RenderResult]:
    """The jobs' results in order, the longest handed to the workers first: a long chapter
    started last would keep one core busy while the other idles. How long each is: the
    CPU `seconds` its part took before, where every job has them (the title page with its
    picture is short HTML and no short job), else its HTML's length."""
    if seconds is not None and len(seconds) == len(jobs) and all(seconds):
        order = sorted(range(len(jobs)), key=lambda i: -seconds[i])
    else:
        order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i].html))
    told = {"on_done": lambda *_: counter.update(step=1)} if counter and counter.progress \
        else {}
    results = ctx.renderer.render([jobs[i] for i in order], **told)
    out: list = [None] * len(jobs)
    for i, result in zip(order, results):
        out[i] = result
    return out


def own_pages(result: RenderResult, index: int, count: int) -> int:
    return result.pages - (1 if index + 1 < count else 0)


def render_in_parts(ctx, job: RenderJob, parts: list[Part], sheets: tuple[Stylesheet, ...],
                    known: tuple, passes: int = MAX_PASSES,
                    kept: list[tuple[str, int]] | None = None, fitting=None,
                    seconds: list[float] | None = None
                    ) -> tuple[RenderResult | None, tuple] | None:
    """The book from its parts laid out with what `known` (`placed`) says of them (finished
    from the first pass's layouts where `kept` says a worker keeps them), again where that
    turns out wrong, and what was placed; None if they never settle. With `fitting`
    (products/book/fit.py), a part that ends on a near-empty page once the numbers agree
    is laid out again a step tighter (rounds that do not count as passes). Where this
    WeasyPrint cannot carry the running heads' named strings into a part (the patch
    `carried-strings` skipped), the parts still settle the numbers and the fit steps (the
    strings only print in the margins), and the result is None with what was placed: the
    caller lays the whole book out with them. `seconds`: each part's CPU time in the
    first pass (the order its jobs are handed out in)."""
    firsts, numbers, strings = known
    seconds = list(seconds) if seconds is not None else [0.0] * len(parts)
    results: list[RenderResult | None] = [None] * len(parts)
    used: list[tuple | None] = [None] * len(parts)

    def uses(index):   # what a part's pages depend on that other parts decide
        return (firsts[index], strings[index],
                {n: numbers.get(n) for n in parts[index].links})

    from printshop.products.book.first_pass import _name
    from printshop.progress import Counter

    todo = list(range(len(parts)))
    probes: list[tuple[int, int, str]] = []   # (part, step, key): fit steps tried beside
    if fitting is not None and len(firsts) == len(parts):
        for index in fitting.start(parts, firsts, numbers):
            if kept is not None:   # its kept layout is of the part at another step
                kept[index] = (kept[index][0], 0)
        probes = fitting.early_probes(parts, firsts, numbers)
    probed: dict[tuple[int, int], tuple] = {}   # (part, step) → (its uses, its layout)
    settling, rounds = 0, 0
    carried = True
    while settling < passes and rounds < passes + 2 * (MAX_FIT_STEP + 1):
        rounds += 1
        jobs = part_jobs(job, parts, sheets, numbers, firsts, todo, False, strings, kept)
        kept = None   # (each kept layout is finished once)
        for index, step, _ in probes:
            jobs += part_jobs(job, [*parts[:index], replace(parts[index], step=step),
                                    *parts[index + 1:]],
                              sheets, fitting.probe_numbers(index, parts, numbers), firsts,
                              [index], False, strings)
        counter = Counter(ctx.progress, f"{_name(job)}: setting the pages", len(jobs),
                          "parts")
        laid_out = render_longest_first(ctx, jobs, counter, [seconds[i] for i in todo] +
                                        [seconds[index] for index, _, _ in probes])
        for (index, step, key), result in zip(probes, laid_out[len(todo):]):
            fitting.tried(index, step, key, result)
            if not fitting.on_placeholders[index]:   # (not a layout printing placeholders)
                probed[index, step] = (uses(index), result)
        for index, result in zip(todo, laid_out):
            seconds[index] = result.seconds or seconds[index]
            carried = carried and result.strings_carried
            results[index] = result
            used[index] = uses(index)
        firsts, numbers, strings = placed(parts, results)
        todo, probes = [i for i in range(len(parts)) if used[i] != uses(i)], []
        if todo:
            settling += 1
            continue
        todo, probes = fitting.settle(parts, results, firsts, numbers) if fitting \
            else ([], [])
        # a part set at a step tried beside it, with what it uses now: that layout
        tried = [i for i in todo if probed.get((i, parts[i].step), (None,))[0] == uses(i)]
        for index in tried:
            used[index], results[index] = probed[index, parts[index].step]
            carried = carried and results[index].strings_carried
        if tried:
            firsts, numbers, strings = placed(parts, results)
            todo = sorted({i for i in todo if i not in tried} |
                          {i for i in range(len(parts)) if used[i] != uses(i)})
        if not todo and not probes and not carried:
            return None, (firsts, numbers, strings)
        if not todo and not probes:
            # (every part has its result: the first round laid them all out)
            done = [result for result in results if result is not None]
            return joined(job, parts, done, firsts, numbers), (firsts, numbers, strings)
    return None


def joined(job: RenderJob, parts: list[Part], results: list[RenderResult],
           firsts: list[int], numbers: dict[str, int]) -> RenderResult:
    from printshop.render.pdf.book_merge import merge_book_parts

    count = len(parts)
    pdf = merge_book_parts([r.pdf for r in results],
                           [own_pages(r, i, count) for i, r in enumerate(results)],
                           EXTERNAL)
    warnings, seen = [], set()
    for result in results:
        for warning in result.warnings:
            if (warning.path, warning.message) not in seen:
                seen.add((warning.path, warning.message))
                warnings.append(warning)
    outside = [replace(o, page=o.page + first - 1)
               for first, result in zip(firsts, results) for o in PageCheck.outside(result)]
    flow = [f for result in results for f in PageCheck.flow(result)]   # (pages: the book's)
    pictures = [replace(p, page=p.page + first - 1) for first, result in zip(firsts, results)
                for p in PageCheck.found_in(result).pictures]
    fonts = sorted({font for result in results for font in result.fonts})
    return RenderResult(pdf=pdf, pages=sum(own_pages(r, i, count)
                                           for i, r in enumerate(results)),
                        warnings=warnings, fonts=fonts,
                        found={BookPart.name: PartFound(anchors=numbers),
                               PageCheck.name: PageFound(outside, flow, pictures)})
