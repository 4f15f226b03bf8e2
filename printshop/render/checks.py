"""Checks of the laid-out pages a product asks for (render/weasy/fit.py reads the boxes):
job extensions (render/extension.py) that any product family may add to its jobs.

* `FitCheck`: boxes marked `data-fit="NAME"` whose content overflows (cards, sheets, the
  pregen sheets, the blank sheet, the cover); a page with one is the product's to fit
  again or report, so the words check leaves it alone.
* `PageCheck`: boxes of a chapter (`data-source`) reaching past their column or the page,
  and how its text flows (render/weasy/flow.py): the book.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from printshop.render.extension import JobExtension


@dataclass(frozen=True)
class FitCheck(JobExtension):
    name = "fit"

    def after_layout(self, run, document) -> None:
        from printshop.render.weasy.fit import find_overflows

        overflows = find_overflows(document)
        run.found[self.name] = overflows
        if overflows:
            run.check_words = False

    @classmethod
    def found_as_json(cls, found):
        return [dataclasses.asdict(o) for o in found]

    @classmethod
    def found_from_json(cls, data):
        from printshop.render.weasy.fit import Overflow

        return [Overflow(**o) for o in data]

    @classmethod
    def nothing_found(cls) -> list:
        return []

    @classmethod
    def overflows(cls, result) -> list:
        """The result's boxes that overflow (`render.weasy.fit.Overflow`)."""
        return cls.found_in(result)


@dataclass
class PageFound:
    outside: list = field(default_factory=list)   # render.weasy.fit.Outside
    flow: list = field(default_factory=list)      # render.weasy.flow.FlowFinding
    pictures: list = field(default_factory=list)  # render.weasy.pictures.CoarsePicture


@dataclass(frozen=True)
class PageCheck(JobExtension):
    """`min_ppi`: pictures printed under that resolution are found too (a press profile's
    `min_image_ppi`; 0: not looked for). `near_empty_only`: only the flow's near-empty
    last pages (the book's first pass: what a part's fit step is decided by)."""

    name = "page"
    min_ppi: int = 0
    near_empty_only: bool = False

    def after_layout(self, run, document) -> None:
        from printshop.render.weasy.fit import find_outside
        from printshop.render.weasy.flow import find_flow, find_near_empty
        from printshop.render.weasy.pictures import coarse_pictures

        if self.near_empty_only:
            run.found[self.name] = PageFound(flow=find_near_empty(document,
                                                                  run.job.first_page))
            return
        pictures = coarse_pictures(document, self.min_ppi) if self.min_ppi else []
        run.found[self.name] = PageFound(find_outside(document),
                                         find_flow(document, run.job.first_page), pictures)

    @classmethod
    def found_as_json(cls, found: PageFound):
        return {"outside": [dataclasses.asdict(o) for o in found.outside],
                "flow": [dataclasses.asdict(f) for f in found.flow],
                "pictures": [dataclasses.asdict(p) for p in found.pictures]}

    @classmethod
    def found_from_json(cls, data) -> PageFound:
        from printshop.render.weasy.fit import Outside
        from printshop.render.weasy.flow import FlowFinding
        from printshop.render.weasy.pictures import CoarsePicture

        return PageFound([Outside(**o) for o in data["outside"]],
                         [FlowFinding(**f) for f in data["flow"]],
                         [CoarsePicture(**p) for p in data["pictures"]])

    @classmethod
    def nothing_found(cls) -> PageFound:
        return PageFound()

    @classmethod
    def outside(cls, result) -> list:
        """The result's boxes reaching past their column or page (`fit.Outside`)."""
        return cls.found_in(result).outside

    @classmethod
    def flow(cls, result) -> list:
        """How the result's text flows from column to column and page to page, where it
        reads badly (`flow.FlowFinding`: a stranded heading, a near-empty last page, a
        hole)."""
        return cls.found_in(result).flow
