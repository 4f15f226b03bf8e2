"""Checks of the laid-out pages a product asks for (render/weasy/fit.py reads the boxes):
job extensions (render/extension.py) that any product family may add to its jobs.

* `FitCheck`: boxes marked `data-fit="NAME"` whose content overflows (cards, sheets, the
  pregen sheets, the blank sheet, the cover); a page with one is the product's to fit
  again or report, so the words check leaves it alone.
* `PageCheck`: boxes of a chapter (`data-source`) reaching past their column or the page
  (the book).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

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


@dataclass(frozen=True)
class PageCheck(JobExtension):
    name = "page"

    def after_layout(self, run, document) -> None:
        from printshop.render.weasy.fit import find_outside

        run.found[self.name] = find_outside(document)

    @classmethod
    def found_as_json(cls, found):
        return [dataclasses.asdict(o) for o in found]

    @classmethod
    def found_from_json(cls, data):
        from printshop.render.weasy.fit import Outside

        return [Outside(**o) for o in data]

    @classmethod
    def nothing_found(cls) -> list:
        return []

    @classmethod
    def outside(cls, result) -> list:
        """The result's boxes reaching past their column or page (`fit.Outside`)."""
        return cls.found_in(result)
