"""The book's page references ("see X (p. N)", the contents), printed as numbers we know.

`target-counter(attr(href url), page)` makes WeasyPrint lay the whole book out about three
times (it lays out, finds the numbers changed, lays out again …): two thirds of the guide's
render time. So printshop finds the numbers itself and prints them as text:

0. The composed book is read once into its parts (products/book/composed.py: the front
   matter, each chapter, the colophon), each with its ids and the places its page
   references go; from then on the numbers are data, set at those places.
1. A first pass lays each part of the book out on its own, on every core at once, with a
   placeholder for every number, and reads how many pages each part has and which page
   each id falls on. A rebuild skips it: where the last build's parts fell
   (`placed_as_json`, kept in the build cache) is the guess.
2. Each part is laid out again, on every core, with `target-counter(attr(href url), page)`
   in the stylesheets replaced by `attr(data-page-ref)`, every `<a href="#id">` carrying
   the number of its target's page, and its folios starting at its page in the book; the
   parts are joined into one PDF (products/book/parts.py).
3. The page of every referenced id is checked against the number printed; a part whose
   numbers or first page turn out wrong (a line that broke differently) is laid out again
   with the numbers just read, until they agree; if they never do, the whole book is laid
   out at once.

Anything this cannot express exactly (other target-counter() forms, page counters reset
by the stylesheets, a template without the usual parts) is rendered the old way, by
WeasyPrint alone. What a build found is kept in memory per book text too, so a warm
process (printshop serve) rebuilding an unchanged book skips the first pass.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from pathlib import Path

from printshop.errors import display_path
from printshop.products.book.composed import Book, parse
from printshop.products.book.job import BookPart
from printshop.render.job import RenderJob, RenderResult, Stylesheet

TARGET_PAGE = re.compile(r"target-counter\(\s*attr\(\s*href\s+url\s*\)\s*,\s*page\s*\)")
NOT_EXPRESSIBLE = re.compile(r"target-counters?\(|target-text\(|counter-(?:reset|increment)"
                             r"[^;{}]*\bpage\b|counter-set[^;{}]*\bpage\b")
MAX_PASSES = 3
# book text (numbers left out) → what book_parts.placed found: the parts' first pages,
# each id's page, the named strings each part starts with
_numbers_for: dict[str, tuple] = {}
# a part's key (products/book/fit.py) → the fit step decided for it; and book text → the
# steps of its parts, for the next build's guess
_fit_steps: dict[str, int] = {}
_fits_for: dict[str, dict[str, int]] = {}
_steps_for: dict[str, list[int]] = {}


def literal_stylesheets(sheets: tuple[Stylesheet, ...]) -> tuple[Stylesheet, ...] | None:
    """The stylesheets with each target page counter read from `data-page-ref`, or None
    when a stylesheet uses page numbers in a way this cannot reproduce."""
    out = []
    for sheet in sheets:
        text = Path(sheet.path).read_text(encoding="utf-8") if sheet.path else sheet.text
        if text is None or not TARGET_PAGE.search(text):
            if text and NOT_EXPRESSIBLE.search(text):
                return None
            out.append(sheet)
            continue
        text = TARGET_PAGE.sub("attr(data-page-ref)", text)
        if NOT_EXPRESSIBLE.search(text):
            return None
        if sheet.path:
            out.append(Stylesheet(text=text, label=display_path(Path(sheet.path)),
                                  base_url=Path(sheet.path).as_uri()))
        else:
            out.append(replace(sheet, text=text))
    return tuple(out)


_PSEUDO = re.compile(r"::?(?:after|before)\s*$", re.IGNORECASE)


def numbers_in_pseudo_elements(sheets: tuple[Stylesheet, ...]) -> bool:
    """Whether every page number the stylesheets print (`attr(data-page-ref)`, as
    `literal_stylesheets` writes them) is in a ::before or ::after box, where a part's
    first layout can be finished with its numbers (render/weasy/resume.py) instead of being laid
    out again."""
    import tinycss2

    def rules_fine(rules) -> bool:
        for rule in rules:
            if rule.type == "at-rule" and rule.content is not None:
                if "data-page-ref" in tinycss2.serialize(rule.content) and \
                        not rules_fine(tinycss2.parse_rule_list(
                            rule.content, skip_whitespace=True, skip_comments=True)):
                    return False
            elif rule.type == "qualified-rule" and \
                    "data-page-ref" in tinycss2.serialize(rule.content):
                selectors = tinycss2.serialize(rule.prelude).split(",")
                if not all(_PSEUDO.search(selector) for selector in selectors):
                    return False
        return True

    for sheet in sheets:
        text = Path(sheet.path).read_text(encoding="utf-8") if sheet.path else sheet.text
        if text and "data-page-ref" in text and not rules_fine(tinycss2.parse_stylesheet(
                text, skip_whitespace=True, skip_comments=True)):
            return False
    return True


_LEADERED = re.compile(r"leader\([^;{}]*attr\(\s*data-page-ref\s*\)", re.IGNORECASE)


def aligned_numbers(sheets: tuple[Stylesheet, ...]) -> bool:
    """Whether the stylesheets (as `literal_stylesheets` writes them) print page numbers at
    the end of leaders: the contents' numbers are then printed as wide as the placeholders
    they were laid out with (composed.printed_number)."""
    return any(_LEADERED.search(sheet.text or "") for sheet in sheets)


def render_book(ctx, job: RenderJob, guess: dict | None = None,
                book: Book | None = None) -> RenderResult:
    """`job` (the whole book) rendered with its page references as known numbers: its
    parts laid out on every core (products/book/parts.py), or, when the book cannot be
    split or its parts never agree, laid out whole. `book`: `job.html` read into its parts
    (`composed.parse`), if the caller has it. `guess` (`placed_as_json` of an earlier
    build of the book) stands in for the first pass: the parts are laid out with its
    numbers at once, and again only where they turn out wrong."""
    from printshop.products.book.fit import Fitting
    from printshop.products.book.parts import placed, render_in_parts

    sheets = literal_stylesheets(job.stylesheets)
    if sheets is not None and book is None:
        book = parse(job.html)
    if sheets is None or book is None:
        result, = ctx.renderer.render([job])
        return result
    parts = list(book.parts)     # (a part fitted tighter is replaced in this list)
    key = _book_key(job, sheets)
    known = _numbers_for.get(key)
    passes, kept, seconds = MAX_PASSES, None, None
    fitting = Fitting(parts, sheets, _fit_steps)
    if guess is not None:
        _fit_steps.update(fits_from_json(guess))
    if known is None and guess is not None:
        known = placed_from_json(guess, len(parts))
        passes += 1   # a wrong guess costs one pass: the first pass it stood in for
        fitting.previous = steps_from_json(guess, len(parts))
    if known is None:
        if ctx.progress:
            ctx.progress(f"{job.source}: finding the page of every reference")
        from printshop.products.book.first_pass import first_pass

        results, kept = first_pass(ctx, job, parts, sheets, numbers_in_pseudo_elements(sheets),
                                   fitting)
        known = placed(parts, results)
        seconds = [result.seconds if result else 0.0 for result in results]
    settled = render_in_parts(ctx, job, parts, sheets, known, passes, kept, fitting,
                              seconds)
    if settled is None:     # the parts never agreed
        return _render_whole(ctx, job, book, sheets, known[1])
    result, _numbers_for[key] = settled
    _fits_for[key] = fitting.decided()
    _steps_for[key] = [part.step for part in parts]
    if result is None:      # placed and fitted in parts; their running heads need the whole
        return _render_whole(ctx, job, book, sheets, settled[1][1],
                             [part.step for part in parts])
    return result


def _book_key(job: RenderJob, sheets: tuple[Stylesheet, ...]) -> str:
    """The book's text and stylesheets, numbers left out: what `_numbers_for` is kept by."""
    return hashlib.sha256("\0".join([job.html, *map(repr, sheets)]).encode()).hexdigest()


def placed_as_json(job: RenderJob) -> dict | None:
    """What the last `render_book` of `job` found of its parts (first pages, each id's page,
    the named strings each starts with), for the next build's `guess`; None if unknown."""
    sheets = literal_stylesheets(job.stylesheets)
    if sheets is None:
        return None
    known = _numbers_for.get(_book_key(job, sheets))
    if known is None:
        return None
    firsts, numbers, strings = known
    return {"firsts": firsts, "numbers": numbers, "strings": [list(map(list, s))
                                                              for s in strings],
            "fits": _fits_for.get(_book_key(job, sheets), {}),
            "steps": _steps_for.get(_book_key(job, sheets), [])}


def fits_from_json(data) -> dict[str, int]:
    """The fit steps `placed_as_json` kept (part key → step), those well formed."""
    fits = data.get("fits") if isinstance(data, dict) else None
    if not isinstance(fits, dict):
        return {}
    return {str(k): v for k, v in fits.items()
            if isinstance(v, int) and 0 <= v <= 9 and isinstance(k, str)}


def steps_from_json(data, parts: int) -> list[int] | None:
    """Each part's fit step in the build `placed_as_json` was taken from, if well formed
    and for as many parts."""
    steps = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(steps, list) or len(steps) != parts or \
            not all(isinstance(s, int) and 0 <= s <= 9 for s in steps):
        return None
    return steps


def placed_from_json(data, parts: int) -> tuple | None:
    """`placed_as_json`'s data back, if it is well formed and for as many parts."""
    try:
        firsts = [int(n) for n in data["firsts"]]
        numbers = {str(k): int(v) for k, v in data["numbers"].items()}
        strings = [tuple((str(n), str(v)) for n, v in s) for s in data["strings"]]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if len(firsts) != parts or len(strings) != parts:
        return None
    return firsts, numbers, strings


def _render_whole(ctx, job: RenderJob, book: Book, sheets, pages: dict[str, int],
                  steps: list[int] | None = None) -> RenderResult:
    """The whole book in one layout, numbered until the numbers agree (its parts at their
    fit `steps`, if given)."""
    wanted = book.targets
    for _ in range(MAX_PASSES):
        whole = replace(job, html=book.numbered(pages, steps, aligned_numbers(sheets)),
                        stylesheets=sheets).extended(BookPart())
        result, = ctx.renderer.render([whole])
        anchors = BookPart.found_in(result).anchors
        found = {name: anchors.get(name) for name in wanted}
        if all(found[name] == pages.get(name) for name in wanted):
            return result
        pages = {**pages, **{k: v for k, v in found.items() if v is not None}}
    result, = ctx.renderer.render([job])   # the numbers never settled: WeasyPrint's way
    return result
