"""A chapter that would end on a page of a few lines is set a little tighter.

When a part of the book (a chapter, the contents) is laid out with its last page filled less
than `render/weasy/flow.NEAR_EMPTY`, it is laid out again a step tighter: its flows
(products/book/composed.py: its chapter section, the contents) get the class `fit-1`, then
`fit-2`, up to `MAX_STEP` (`Part.step`, set where the part's document is made; book.css says
what each step takes in: a little of the space between paragraphs and around headings first,
then a little leading). The first step that leaves no near-empty last page is kept; if none
does, the part stays as it was and the page-flow report says so.

A step is decided in the book's first pass (first_pass.py): a part that comes back with a
near-empty last page is laid out again a step tighter at once, while the other parts are
still being laid out, so the parts' first pages are found with their steps and no chapter
set tighter late moves the ones after it (each such move laid every later part out again:
30 s of a 44 s guide build). The first pass prints placeholders as wide as the numbers they
stand for; where the settled numbers are of other widths (a part laid out before the pages
it refers to were known), the steps below the part's are tried beside the numbered parts,
all at once (parts.py). A rebuild starts each part whose text changed at its last step, the
steps below it tried beside it.

Whichever way, a step is a function of what decides the part's layout: its text, its
stylesheets and the width of the page numbers it prints. The contents (and the rest of the
front matter) is the exception: it is laid out before any page is known, every number a
placeholder ("00"), and its step is decided on that layout, whatever the numbers turn out to
be (they stand at the ends of leader lines, printed as wide as the placeholders where the
book has fewer than 100 pages: composed.printed_number; past that a wider number changes a
line only where a title nearly fills it, and the page-flow report reads the pages as
printed). Its steps were otherwise tried a second time with the real numbers in every cold
build: a full layout of a page of balanced columns, 0.9-1.3 s of CPU. Where it was laid out
with other numbers (a rebuild's guess), its steps are tried with placeholders beside the
numbered parts. Decisions are remembered under that key (in the process, and in the build
cache through `pages.placed_as_json`), so that a rebuild lays a fitted part out at its step
at once, and gets the same bytes as a build that decided it afresh.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import replace
from pathlib import Path

from printshop.products.book.composed import ON_PLACEHOLDERS, PLACEHOLDER
from printshop.render.checks import PageCheck

MAX_STEP = 2
# what a fit step's rules may set for the part's tables to keep their widths at every step
# (render/weasy/table_widths.py): space above and below, and leading
VERTICAL = frozenset({"line-height", "margin-top", "margin-bottom", "padding-top",
                      "padding-bottom"})
_FIT_CLASS = re.compile(r"\bfit-\d")
# what could make a class added change a width though the step's rules do not: a length
# in units of the line height, a selector on the class attribute's text
_WIDTHS_FROM_CLASS = re.compile(r"\d\s*r?lh\b|\[\s*class\b", re.IGNORECASE)


class Fitting:
    """The fit step of each part of one book, decided as the parts settle."""

    def __init__(self, parts: list, sheets: tuple, memo: dict[str, int]):
        self.base = [part.body for part in parts]
        self.steps = [0] * len(parts)
        # each part's step in the last build (its text may have changed since): where a
        # part whose step is not known starts (the steps below it are tried beside it)
        self.previous: list[int] | None = None
        self.memo = memo               # part key → its step (decided before)
        self.near: dict[tuple[str, int], bool] = {}   # (key, step) → a near-empty last page
        self.keys: list[str | None] = [None] * len(parts)
        self.sheets = hashlib.sha256(repr(sheets).encode()).hexdigest()
        self.on_placeholders = [part.kind in ON_PLACEHOLDERS for part in parts]

    def key(self, index: int, parts: list, firsts: list[int], numbers: dict[str, int]) -> str:
        """What the part's layout depends on: its text, the stylesheets and how many digits
        each page number it prints has (the book prints them in tabular figures: numbers
        of as many digits take the same room). Not which pages those are: a chapter
        fitted before keeps its step when another chapter moves it along the book."""
        printed = "placeholders" if self.on_placeholders[index] else \
            sorted((name, len(str(numbers.get(name, "")))) for name in parts[index].links)
        text = "\0".join([self.sheets, self.base[index], repr(printed)])
        return hashlib.sha256(text.encode()).hexdigest()

    def decides_on(self, index: int, parts: list, numbers: dict) -> bool:
        """Whether a layout of the part with `numbers` can decide its step."""
        return not self.on_placeholders[index] or \
            all(str(numbers.get(name)) == PLACEHOLDER for name in parts[index].links)

    def probe_numbers(self, index: int, parts: list, numbers: dict) -> dict:
        """The numbers a layout trying one of the part's steps prints."""
        if not self.on_placeholders[index]:
            return numbers
        return {**numbers, **{name: PLACEHOLDER for name in parts[index].links}}

    def _set(self, parts: list, index: int, step: int) -> None:
        self.steps[index] = step
        parts[index] = replace(parts[index], step=step)

    def start(self, parts: list, firsts: list[int], numbers: dict[str, int]) -> list[int]:
        """Parts set at the step decided before for them (or, not decided for their text,
        at their step in the last build), from the start: the indices of those whose step
        that changes."""
        changed = []
        for index in range(len(parts)):
            step = self.memo.get(self.key(index, parts, firsts, numbers))
            if step is None and self.previous is not None:
                step = min(max(0, self.previous[index]), MAX_STEP)
            if step is not None and step != self.steps[index]:
                self._set(parts, index, step)
                changed.append(index)
        return changed

    def early_probes(self, parts: list, firsts: list[int], numbers: dict[str, int]
                     ) -> list[tuple[int, int, str]]:
        """Before the parts are numbered: for each part the first pass set at a step under
        numbers of other widths than these (the contents, laid out before any page was
        known), the steps below it, to lay out beside the parts (`tried`), so that
        `settle` finds its step decided (if these numbers hold) without a round more."""
        probes = []
        for index in range(len(parts)):
            key = self.key(index, parts, firsts, numbers)
            if key not in self.memo and self.steps[index]:
                probes += [(index, step, key) for step in range(self.steps[index])]
        return probes

    def before_first(self, index: int, parts: list, numbers: dict) -> None:
        """The first pass is about to lay the part out with `numbers`: at the step decided
        for it before, if any."""
        step = self.memo.get(self.key(index, parts, [], numbers))
        if step is not None:
            self._set(parts, index, step)

    def after_first(self, index: int, parts: list, numbers: dict, result) -> bool:
        """The first pass laid the part out at its step with `numbers`: whether its step
        is decided (the part is then set at it), or it is to be laid out again at the next
        step (set)."""
        key = self.key(index, parts, [], numbers)
        if key in self.memo or not self.decides_on(index, parts, numbers):
            return True     # (decided, or to be tried with placeholders once numbered)
        near = self.near[key, self.steps[index]] = _near_empty(result)
        if near and self.steps[index] < MAX_STEP:
            self._set(parts, index, self.steps[index] + 1)
            return False
        step = self.steps[index] if not near else 0   # (none does: as composed)
        self.memo[key] = step
        self._set(parts, index, step)
        return True

    def settle(self, parts: list, results: list, firsts: list[int],
               numbers: dict[str, int]) -> tuple[list[int], list[tuple[int, int, str]]]:
        """Once the parts' numbers agree: the parts to lay out again at another step, and
        the (part, step, key) layouts to try beside them (`tried` takes their results). A part
        whose step is not decided for these numbers has the steps below the one it is at
        tried all at once (the first pass's step usually holds: one round, not one a
        step), the steps above it one at a time."""
        again: list[int] = []
        probes: list[tuple[int, int, str]] = []
        for index, result in enumerate(results):
            key = self.key(index, parts, firsts, numbers)
            self.keys[index] = key
            if key in self.memo:
                if self.steps[index] != self.memo[key]:
                    self._set(parts, index, self.memo[key])
                    again.append(index)
                continue
            tried_to = self.steps[index]    # (the steps below it tried beside it)
            if self.decides_on(index, parts, numbers):
                self.near[key, self.steps[index]] = _near_empty(result)
            else:                           # (its own step too, with placeholders)
                tried_to += 1
            step = self._decision(key)
            if step is None:
                unknown = [s for s in range(tried_to) if (key, s) not in self.near]
                if not unknown and self.on_placeholders[index]:   # the next one, tried
                    unknown = [next(s for s in range(MAX_STEP + 1) if (key, s) not in self.near)]
                if unknown:
                    probes += [(index, s, key) for s in unknown]
                else:
                    self._set(parts, index, self.steps[index] + 1)
                    again.append(index)
                continue
            self.memo[key] = step
            if step != self.steps[index]:
                self._set(parts, index, step)
                again.append(index)
        return again, probes

    def tried(self, index: int, step: int, key: str, result) -> None:
        """The result of a (part, step) layout asked for, the part's key then."""
        self.near[key, step] = _near_empty(result)

    def _decision(self, key: str) -> int | None:
        """The first step without a near-empty last page, or none (then as composed:
        tighter would change the page for nothing, and the report says so); None while a
        step below it is not tried yet."""
        for step in range(MAX_STEP + 1):
            near = self.near.get((key, step))
            if near is None:
                return None
            if not near:
                return step
        return 0

    def decided(self) -> dict[str, int]:
        """The steps of this book's parts as they were laid out (for the next build)."""
        return {key: self.memo[key] for key in self.keys if key in self.memo}


def widths_token(part, numbered, first: int, strings: tuple, sheets: tuple, *,
                 numbers, elsewhere, next_kind, aligned=False) -> str:
    """What the layouts of the part's document that may share their tables' widths have in
    common (render/weasy/table_widths.py): its document as laid out at step 0 where the
    stylesheets' fit steps change no width (`widths_unchanged`), else its own; its first
    page and the running heads carried into it (the worker adds the stylesheets, fonts
    and build)."""
    html = numbered.html
    if part.step and widths_unchanged(sheets) and "<style" not in html:
        html = replace(part, step=0).document(numbers, elsewhere=elsewhere,
                                              next_kind=next_kind, aligned=aligned).html
    return hashlib.sha256(repr((html, first, strings)).encode()).hexdigest()


def widths_unchanged(sheets: tuple) -> bool:
    """Whether every rule of the stylesheets whose selector names a fit step's class sets
    only space above and below things, or leading (`VERTICAL`), and nothing else in them
    could make the class change a width (a length in `lh`, a selector on the class
    attribute)."""
    return _widths_unchanged(tuple(
        Path(sheet.path).read_text(encoding="utf-8") if sheet.path else sheet.text or ""
        for sheet in sheets))


@functools.lru_cache(maxsize=8)
def _widths_unchanged(texts: tuple[str, ...]) -> bool:
    import tinycss2

    def vertical_only(rules) -> bool:
        for rule in rules:
            if rule.type not in ("qualified-rule", "at-rule") or rule.content is None:
                continue
            if rule.type == "at-rule":
                if _FIT_CLASS.search(tinycss2.serialize(rule.content)) and not \
                        vertical_only(tinycss2.parse_rule_list(
                            rule.content, skip_whitespace=True, skip_comments=True)):
                    return False
            elif _FIT_CLASS.search(tinycss2.serialize(rule.prelude)):
                declarations = tinycss2.parse_blocks_contents(
                    rule.content, skip_whitespace=True, skip_comments=True)
                if any(d.type != "declaration" or d.lower_name not in VERTICAL
                       for d in declarations):
                    return False
        return True

    for text in texts:
        if _WIDTHS_FROM_CLASS.search(text) or (_FIT_CLASS.search(text) and not vertical_only(
                tinycss2.parse_stylesheet(text, skip_whitespace=True, skip_comments=True))):
            return False
    return True


def _near_empty(result) -> bool:
    """Whether the part's layout ends on a near-empty page (render/weasy/flow.py)."""
    return any(f.kind == "near-empty" for f in PageCheck.flow(result))
