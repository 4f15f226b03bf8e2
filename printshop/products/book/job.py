"""A part of the book as a render job (products/book/parts.py): the book's job extension
(render/extension.py). The worker lays the part out where it starts in the book, carries
in the running heads the parts before it left, keeps its first layout or finishes a kept
one with its page numbers (render/weasy/resume.py), and returns the page of every id and
the named strings each page sets."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from printshop.render.checks import PageCheck
from printshop.render.extension import JobExtension
from printshop.render.job import Stylesheet


@dataclass
class PartFound:
    """What a part's render found: id → page (from 1), named string → [(page, the last
    value set on it)]; whether its layout is kept (the pid of the worker keeping it) or
    was finished from a kept one (neither is stored in the chunk cache)."""

    anchors: dict[str, int] = field(default_factory=dict)
    strings: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    kept_by: int = 0
    resumed: bool = False


@dataclass(frozen=True)
class BookPart(JobExtension):
    """`first`: the page of the book the part starts on (its folios count from it, its
    first page is a left or right page as there; 0: not placed, numbered from 1).
    `strings`: (name, value) of the named strings (`string-set`) the parts before it left,
    used where it sets none yet. `refs`: (href, number) of every page reference it prints,
    as its HTML has them, and `text`: its text with the numbers left out (a digest): what a
    kept layout is finished from. `keep`: a token to keep the part's layout under in the
    worker; `resume`: the token of a kept layout to finish with `refs`; `worker`: the pid
    of the worker keeping it (0: any). `widths`: a token its layouts share their tables'
    widths under with the part's other layouts (render/weasy/table_widths.py: the same
    document but for a fit step that changes no width; "" for none)."""

    name = "book-part"
    first: int = 0
    strings: tuple = ()
    refs: tuple = ()
    text: str = ""
    keep: str = ""
    resume: str = ""
    worker: int = 0
    widths: str = ""

    @property
    def first_page(self) -> int:   # type: ignore[override]
        return self.first or 1

    def key(self):
        # where and how it is laid out (kept, finished) never changes what comes out; the
        # numbers and text are in the job's HTML
        return {"first": self.first, "strings": self.strings}

    def around_layout(self, run):
        if not self.strings:
            return super().around_layout(run)
        from printshop.render.weasy import registry, strings

        if not registry.active(strings.CARRIED_STRINGS.name):
            run.strings_carried = False
            return super().around_layout(run)
        return strings.carried(dict(self.strings))

    def lay_out(self, run):
        extra = [run.stylesheet(place_in_book(self.first))] if self.first else []

        job = run.job
        # what else decides the layout: a kept one is finished only for the same
        what = (job.stylesheets, job.roots, job.base_url, job.source, job.uncompressed,
                job.cmyk_icc, job.fonts, tuple(e for e in job.extensions
                                               if not isinstance(e, (BookPart, PageCheck))))

        def fresh():
            if not self.widths:
                return run.layout(job.html, extra)
            from printshop.render.weasy import table_widths

            token = hashlib.sha256(repr((job.epoch, self.widths, what)).encode()).hexdigest()
            with table_widths.shared(token):
                return run.layout(job.html, extra)

        if not (self.keep or self.resume):
            return fresh() if extra or self.widths else None
        from printshop.render.weasy import resume

        document, kept, resumed = resume.lay_out(
            fresh, keep=self.keep, resume=self.resume, first=self.first, text=self.text,
            what=what, epoch=job.epoch, numbers=dict(self.refs))
        run.kept[self.name] = (kept, resumed)
        return document

    def after_layout(self, run, document) -> None:
        import os

        from printshop.render.weasy.strings import assignments

        anchors: dict[str, int] = {}
        for number, page in enumerate(document.pages, start=1):
            for name in page.anchors:
                anchors.setdefault(name, number)
        kept, resumed = run.kept.get(self.name, (False, False))
        run.found[self.name] = PartFound(anchors, assignments(document),
                                         os.getpid() if kept else 0, resumed)

    @classmethod
    def found_as_json(cls, found: PartFound):
        return {"anchors": found.anchors, "strings": found.strings}

    @classmethod
    def found_from_json(cls, data) -> PartFound:
        return PartFound(dict(data["anchors"]),
                         {name: [tuple(a) for a in found]
                          for name, found in data["strings"].items()})

    @classmethod
    def nothing_found(cls) -> PartFound:
        return PartFound()

    @classmethod
    def found_in(cls, result) -> PartFound:
        return super().found_in(result)


def place_in_book(first: int) -> Stylesheet:
    """The stylesheet placing a part (or a chapter previewed alone) at its page `first` in
    the book: numbered from it, its first page a left or right page as it is there."""
    return Stylesheet(text=f"@page :first {{ counter-reset: page {first}; }}\n"
                           f"html {{ break-before: {'right' if first % 2 else 'left'}; }}\n",
                      label="its page numbers in the book")
