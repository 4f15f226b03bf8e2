"""The book's page references ("see X (p. N)", the contents), printed as numbers we know.

`target-counter(attr(href url), page)` makes WeasyPrint lay the whole book out about three
times (it lays out, finds the numbers changed, lays out again …): two thirds of the guide's
render time. So printshop finds the numbers itself and prints them as text:

1. A first pass lays each part of the book out on its own (the front matter, each chapter,
   the colophon), on every core at once, with a placeholder for every number, and reads
   which page each id falls on. A chapter starts on the next right-hand page, so the
   parts' page counts give every id's page in the book.
2. The whole book is laid out once, with `target-counter(attr(href url), page)` in the
   stylesheets replaced by `attr(data-page-ref)` and every `<a href="#id">` carrying the
   number of its target's page.
3. The page of every referenced id in that book is checked against the number printed; a
   difference (a line that broke differently) means one more whole-book pass with the
   numbers just read, until they agree.

Anything this cannot express exactly (other target-counter() forms, page counters reset
by the stylesheets, a template without the usual parts) is rendered the old way, by
WeasyPrint alone. The numbers from a pass are kept in memory per book text, so a warm
process (printshop serve) rebuilding an unchanged book skips the first pass.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from pathlib import Path

from printshop.errors import display_path
from printshop.render.pdf import RenderJob, RenderResult, Stylesheet

TARGET_PAGE = re.compile(r"target-counter\(\s*attr\(\s*href\s+url\s*\)\s*,\s*page\s*\)")
NOT_EXPRESSIBLE = re.compile(r"target-counters?\(|target-text\(|counter-(?:reset|increment)"
                             r"[^;{}]*\bpage\b|counter-set[^;{}]*\bpage\b")
LINK = re.compile(r'<a\b([^>]*?)\bhref="#([^"]+)"')
# top-level parts of the book (templates/guide.html.j2): a chapter starts on a right page
PART = re.compile(r'^<section class="(chapter|colophon)"', re.M)
PLACEHOLDER = "00"
MAX_PASSES = 3
_numbers_for: dict[str, dict[str, int]] = {}   # book text (numbers left out) → id → page


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


def number_links(html: str, pages: dict[str, int] | None) -> str:
    """Every internal link carries its target's page (the placeholder when unknown)."""
    def add(match):
        page = pages.get(match[2]) if pages is not None else None
        return f'<a{match[1]}data-page-ref="{page or PLACEHOLDER}" href="#{match[2]}"'
    return LINK.sub(add, html)


def split_parts(html: str) -> list[tuple[str, str]] | None:
    """(kind, HTML document) for the front matter, each chapter and the colophon: each
    part keeps the book's head and body tag. None if the book is not made of such parts."""
    body = re.search(r"<body\b[^>]*>", html)
    end = html.rfind("</body>")
    starts = [m for m in PART.finditer(html)]
    if body is None or end < 0 or not starts or starts[0].start() < body.end():
        return None
    head, tail = html[:body.end()], html[end:]
    cuts = [body.end()] + [m.start() for m in starts] + [end]
    kinds = ["front"] + [m[1] for m in starts]
    return [(kind, head + html[a:b] + tail) for kind, a, b in zip(kinds, cuts, cuts[1:])]


def book_pages(parts: list[tuple[str, str]], results: list[RenderResult]) -> dict[str, int]:
    """Each id's page in the whole book, from its part's page count and its page there."""
    pages, next_page = {}, 1
    for (kind, _), result in zip(parts, results):
        first = next_page
        if kind == "chapter" and first % 2 == 0:
            first += 1          # break-before: right
        for name, page in result.anchors.items():
            pages.setdefault(name, first + page - 1)
        next_page = first + result.pages
    return pages


def _referenced(html: str) -> set[str]:
    return {m[2] for m in LINK.finditer(html)}


def render_book(ctx, job: RenderJob) -> RenderResult:
    """`job` (the whole book) rendered with its page references as known numbers."""
    sheets = literal_stylesheets(job.stylesheets)
    parts = split_parts(job.html) if sheets is not None else None
    if parts is None:
        result, = ctx.renderer.render([job])
        return result
    key = hashlib.sha256("\0".join([job.html, *map(repr, sheets)]).encode()).hexdigest()
    pages = _numbers_for.get(key)
    if pages is None:
        if ctx.progress:
            ctx.progress(f"{job.source}: finding the page of every reference")
        first = [RenderJob(html=number_links(html, None), stylesheets=sheets, roots=job.roots,
                           base_url=job.base_url, source=job.source, anchors=True,
                           layout_only=True, fonts=job.fonts, cmyk_icc=job.cmyk_icc)
                 for _, html in parts]
        pages = book_pages(parts, ctx.renderer.render(first))
    wanted = _referenced(job.html)
    for _ in range(MAX_PASSES):
        whole = replace(job, html=number_links(job.html, pages), stylesheets=sheets,
                        anchors=True)
        result, = ctx.renderer.render([whole])
        found = {name: result.anchors.get(name) for name in wanted}
        if all(found[name] == pages.get(name) for name in wanted):
            _numbers_for[key] = pages
            return result   # its anchors: the page map a chapter preview starts from
        pages = {**pages, **{k: v for k, v in found.items() if v is not None}}
    result, = ctx.renderer.render([job])   # the numbers never settled: WeasyPrint's way
    return result
