"""A chapter that would end on a page of a few lines is set a little tighter.

When a part of the book (a chapter, the contents) is laid out with its last page filled less
than `render/weasy/flow.NEAR_EMPTY`, it is laid out again a step tighter: its flows
(products/book/composed.py: its chapter section, the contents) get the class `fit-1`, then
`fit-2`, up to `MAX_STEP` (`Part.step`, set where the part's document is made; book.css says
what each step takes in: a little of the space between paragraphs and around headings first,
then a little leading). The first step that leaves no near-empty last page is kept; if none
does, the part stays as it was and the page-flow report says so.

A step is decided on the part laid out with its page numbers settled (parts.py), so it is
a function of what decides the part's layout: its text, its stylesheets and the width of
the page numbers it prints. Decisions are remembered under that key (in the process, and
in the build cache through `pages.placed_as_json`), so that a rebuild lays a fitted part
out at its step at once, and gets the same bytes as a build that decided it afresh.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from printshop.render.checks import PageCheck

MAX_STEP = 3


class Fitting:
    """The fit step of each part of one book, decided as the parts settle."""

    def __init__(self, parts: list, sheets: tuple, memo: dict[str, int]):
        self.base = [part.body for part in parts]
        self.steps = [0] * len(parts)
        self.memo = memo               # part key → its step (decided before)
        self.trying: list[str | None] = [None] * len(parts)
        self.keys: list[str | None] = [None] * len(parts)
        self.sheets = hashlib.sha256(repr(sheets).encode()).hexdigest()

    def key(self, index: int, parts: list, firsts: list[int], numbers: dict[str, int]) -> str:
        """What the part's layout depends on: its text, the stylesheets and how many digits
        each page number it prints has (the book prints them in tabular figures: numbers
        of as many digits take the same room). Not which pages those are: a chapter
        fitted before keeps its step when another chapter moves it along the book."""
        printed = sorted((name, len(str(numbers.get(name, "")))) for name in
                         parts[index].links)
        text = "\0".join([self.sheets, self.base[index], repr(printed)])
        return hashlib.sha256(text.encode()).hexdigest()

    def _set(self, parts: list, index: int, step: int) -> None:
        self.steps[index] = step
        parts[index] = replace(parts[index], step=step)

    def start(self, parts: list, firsts: list[int], numbers: dict[str, int]) -> list[int]:
        """Parts set at the step decided before for them, from the start: their indices."""
        changed = []
        for index in range(len(parts)):
            step = self.memo.get(self.key(index, parts, firsts, numbers), 0)
            if step:
                self._set(parts, index, step)
                changed.append(index)
        return changed

    def settle(self, parts: list, results: list, firsts: list[int],
               numbers: dict[str, int]) -> list[int]:
        """Once the parts' numbers agree: the parts to lay out again at another step."""
        again = []
        for index, result in enumerate(results):
            key = self.key(index, parts, firsts, numbers)
            self.keys[index] = key
            if key in self.memo:
                if self.steps[index] != self.memo[key]:
                    self._set(parts, index, self.memo[key])
                    again.append(index)
                continue
            if self.trying[index] != key:     # a decision starts from the part as composed
                self.trying[index] = key
                if self.steps[index]:
                    self._set(parts, index, 0)
                    again.append(index)
                    continue
            near = any(f.kind == "near-empty" for f in PageCheck.flow(result))
            if near and self.steps[index] < MAX_STEP:
                self._set(parts, index, self.steps[index] + 1)
                again.append(index)
                continue
            # the first step without a near-empty last page, or none (then as composed:
            # tighter would change the page for nothing, and the report says so)
            step = self.steps[index] if not near else 0
            self.memo[key] = step
            if step != self.steps[index]:
                self._set(parts, index, step)
                again.append(index)
        return again

    def decided(self) -> dict[str, int]:
        """The steps of this book's parts as they were laid out (for the next build)."""
        return {key: self.memo[key] for key in self.keys if key in self.memo}
