"""Rendering a product's sheets with every text box fitting, as one flow of render jobs.

The chunks of sheets (card_render.chunks_of) go to the workers as they are made, those
showing the most text first; a card whose text overflows is fitted at once, while the other
chunks still render, so both cores stay busy and the fit does not wait for every sheet:

1. each deck's card with the most text (the likeliest to overflow: a rules card with a
   table, say) is first laid out alone (a one-page probe, not drawn); if it overflows, its
   chunk waits for its size rather than being rendered once for nothing;
2. any other card is found overflowing on its chunk's render;
3. an overflowing box is tried alone at the sizes its template allows, a few at a time:
   from how much too much its text was when tried alone (on a probe page nothing cuts
   it off), the size it should fit at is predicted (card_fit.predicted_try), and that size
   is tried with the sizes either side of it; a box found overflowing on its sheet is
   tried one size smaller first, for a measure. The size chosen is the largest that fits
   with the next larger size seen to overflow (text takes no less room set larger, so no
   larger size fits either): usually two probes, not one for every size;
4. the chunk is rendered (again) at the sizes chosen and checked like the first time.

A box that does not fit at its smallest size (or whose template does not shrink it) is a
problem naming its card; the other chunks still finish, so one build names every card that
does not fit. Results arrive in whatever order the workers finish; each chunk's sizes
depend only on its own renders and probes, warnings are said in chunk order and problems in
card order, so the output does not depend on timing or on the number of cores.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from printshop.errors import PrintshopError, Problem, Problems
from printshop.products import BuildContext
from printshop.products.cards.compose import SHEET_TEMPLATE, CardComposer, fit_name, sheet_job
from printshop.products.cards.fit import (
    FitState,
    Ladder,
    does_not_fit,
    ladder,
    overflows_by_box,
    predicted_try,
    probe_job,
)
from printshop.products.cards.settings import DeckGroup
from printshop.render.checks import FitCheck
from printshop.render.queue import RenderQueue

MAX_FIT_ROUNDS = 12    # renders of one chunk


class _BoxFit:
    """Finding the size of one overflowing box: its ladder (largest first), which tries
    are known to fit or not, and the chunks waiting for the answer."""

    def __init__(self, key, found: Ladder):
        self.key = key                  # (group, card, box, steps it overflowed at)
        self.ladder = found
        self.tries = found.tries        # [(steps, fit name)]
        self.fits: dict[int, bool] = {}
        self.overflows: dict[int, object] = {}   # try → how it overflowed, alone
        self.asked: set[int] = set()    # tries sent to be probed
        self.last_overflow = None       # the smallest try's, if it overflows
        self.chosen: dict[str, int] | None = None
        self.failed = False
        self.chunks: list[int] = []

    @property
    def settled(self) -> bool:
        return self.chosen is not None or self.failed


class SheetRun:
    """Renders `chunks` (card_render.Chunk) of `groups` through the renderer's queue, fitting
    text as overflows come in; `run()` returns each chunk's PDF, in chunk order."""

    def __init__(self, ctx: BuildContext, composer: CardComposer, groups: list[DeckGroup],
                 fit: FitState, chunks, what: str):
        self.ctx, self.composer, self.groups, self.fit = ctx, composer, groups, fit
        self.chunks, self.what = chunks, what
        self.queue = RenderQueue()
        self.pdfs: dict[int, bytes] = {}
        self.rounds: dict[int, int] = {}             # chunk → its renders so far
        self.waiting: dict[int, list[_BoxFit]] = {}  # chunk → boxes it waits for
        self.boxes: dict[tuple, _BoxFit] = {}
        self.failed: set[int] = set()
        self.seen: set[int] = set()                 # chunks rendered at least once
        self.warnings: dict[tuple[int, int], list[Problem]] = {}   # (round, chunk) → …
        self.problems: dict[tuple, tuple] = {}      # (group, card, box) → problem

    def run(self) -> list[bytes]:
        from printshop.progress import Counter

        pages = sum(len(chunk.pages) for chunk in self.chunks)
        if self.ctx.progress:
            self.ctx.progress(f"{self.what}: rendering {pages} pages")
        self.counter = Counter(self.ctx.progress, f"{self.what}: rendering", pages, "pages")
        text = [max((_text_size(self.groups[chunk.group_index].cards[ci].data)
                     for ci in chunk.cards), default=0) for chunk in self.chunks]
        looked = {}
        for index in sorted(range(len(self.chunks)), key=lambda i: (-text[i], i)):
            self.rounds[index] = 0
            gi = self.chunks[index].group_index
            if gi not in looked and self.chunks[index].cards:
                # each deck's card with the most text is looked at alone first
                looked[gi] = index
                cards = self.groups[gi].cards
                ci = max(sorted(self.chunks[index].cards),
                         key=lambda c: _text_size(cards[c].data))
                self._look(index, gi, ci)
            else:
                # the others by text, most first: the likelier to overflow, so that
                # fitting a card overlaps the other chunks rather than following them all
                self._render(index)
        self.ctx.renderer.run(self.queue, self._done)
        for key in sorted(self.warnings):
            for warning in self.warnings[key]:
                self.ctx.warn(warning)
        if self.problems:
            problems = Problems()
            for key in sorted(self.problems):
                problems.add(*self.problems[key])
            problems.raise_if_any()
        return [self.pdfs[index] for index in range(len(self.chunks))]

    def _done(self, tag, result) -> None:
        if tag[0] == "sheet":
            self._sheet_done(tag[1], result)
        elif tag[0] == "look":
            self._look_done(tag[1], tag[2], tag[3], result)
        else:
            _, key, which = tag
            self._probe_done(self.boxes[key], which, result)

    # --- sheets ------------------------------------------------------------------------

    def _render(self, index: int, urgent: bool = False) -> None:
        chunk = self.chunks[index]
        gi = chunk.group_index
        # the steps of now: the job is made when a worker takes it
        make = partial(sheet_job, self.ctx, self.composer, self.groups[gi], gi, chunk.pages,
                       _copy(self.fit))
        self.queue.add(make, ("sheet", index), urgent)

    def _sheet_done(self, index: int, result) -> None:
        self.seen.add(index)
        round_ = self.rounds[index]
        self.warnings[(round_, index)] = list(result.warnings)
        found = overflows_by_box(result)
        if not found:
            self.pdfs[index] = result.pdf
            self.counter.update(sum(len(self.chunks[i].pages) for i in self.pdfs))
            return
        if round_ + 1 >= MAX_FIT_ROUNDS:
            raise PrintshopError(Problem(SHEET_TEMPLATE, "cards still overflow after "
                                         f"{MAX_FIT_ROUNDS} rounds"))
        self.rounds[index] = round_ + 1
        self.waiting[index] = [self._box(index, gi, ci, box, overflow, measured=False)
                               for (gi, ci, box), overflow in sorted(found.items())]
        self._advance(index)

    def _look(self, index: int, gi: int, ci: int) -> None:
        """The card alone before its chunk: a deck's card with the most text is the likeliest
        to overflow, and when it does, its chunk is rendered once, at the size that fits,
        instead of twice. A probe that overflows says what a sheet would (the sizes chosen
        rely on that too)."""
        name = f"look-{gi}-{ci}"
        make = partial(probe_job, self.ctx, self.composer, self.groups, self.fit, gi,
                       [(ci, self.fit.of(gi, ci), name)])
        self.queue.add(make, ("look", index, gi, ci), urgent=True, chunk=False)

    def _look_done(self, index: int, gi: int, ci: int, result) -> None:
        name = f"look-{gi}-{ci}"
        found: dict = {}
        for overflow in FitCheck.overflows(result):
            card, _, box = overflow.name.partition(":")
            if card == name:
                found.setdefault(box or "text", replace(
                    overflow, name=f"{fit_name(gi, ci)}:{box or 'text'}"))
        if not found:
            self._render(index, urgent=True)
            return
        self.waiting[index] = [self._box(index, gi, ci, box, overflow, measured=True)
                               for box, overflow in sorted(found.items())]
        self._advance(index)

    def _advance(self, index: int) -> None:
        """Render the chunk (again) once every box it waits for has its size."""
        waiting = self.waiting[index]
        if not all(box.settled for box in waiting):
            return
        del self.waiting[index]
        if any(box.failed for box in waiting) and index in self.seen:
            self.failed.add(index)
            return
        # (a card tried alone first that does not fit: its sheet is still rendered, to
        # name every other card on it that does not fit either)
        self._render(index, urgent=True)

    # --- boxes -------------------------------------------------------------------------

    def _box(self, index: int, gi: int, ci: int, box: str, overflow,
             measured: bool) -> _BoxFit:
        """The fitting of `box`, started if new. `measured`: `overflow` was seen on a probe
        page (all of it), not on a sheet (where the page's edge may cut it off)."""
        steps = self.fit.of(gi, ci)
        key = (gi, ci, box, tuple(sorted(steps.items())))
        if key not in self.boxes:
            found = ladder(self.composer, self.groups[gi], gi, ci, box, steps)
            fitting = self.boxes[key] = _BoxFit(key, found)
            if not found.tries:
                self._fail(fitting, overflow, steps)
            else:
                if self.ctx.progress:
                    card = self.groups[gi].cards[ci]
                    self.ctx.progress(f"{self.what}: setting the text of card {card.id} "
                                      "smaller")
                guess = predicted_try(found, found.size, overflow) if measured else None
                self._probe(fitting, *_around(guess, fitting) if guess is not None
                            else [0])
        fitting = self.boxes[key]
        fitting.chunks.append(index)
        return fitting

    def _probe(self, fitting: _BoxFit, *which: int) -> None:
        """Try the sizes tries[n] for n in `which` alone, a page each, in one job."""
        gi, ci, box, _ = fitting.key
        fitting.asked.update(which)
        tries = [(ci, *fitting.tries[n]) for n in which]
        make = partial(probe_job, self.ctx, self.composer, self.groups, self.fit, gi, tries)
        self.queue.add(make, ("probe", fitting.key, which), urgent=True, chunk=False)

    def _probe_done(self, fitting: _BoxFit, which: tuple[int, ...], result) -> None:
        if fitting.settled:
            return
        box = fitting.key[2]
        overflowing = {o.name: o for o in FitCheck.overflows(result)}
        for n in which:
            overflow = overflowing.get(f"{fitting.tries[n][1]}:{box}")
            fitting.fits[n] = overflow is None
            if overflow is not None:
                fitting.overflows[n] = overflow
            if n == len(fitting.tries) - 1:
                fitting.last_overflow = overflow
        fits = fitting.fits
        # the largest size that fits whose next larger size overflows (or is the size the
        # box overflowed at): text takes no less room set larger, so none larger fits
        for n in sorted(fits):
            if fits[n] and (n == 0 or fits.get(n - 1) is False):
                self._choose(fitting, fitting.tries[n][0])
                return
        if any(fits.values()):      # a size fits, the one above it is not known yet
            top = min(n for n in fits if fits[n])
            self._probe(fitting, *[n for n in range(max(0, top - 2), top)
                                   if n not in fitting.asked])
            return
        smallest = max(fits)        # every size tried overflows: smaller ones, then
        if smallest == len(fitting.tries) - 1:
            self._fail(fitting, fitting.last_overflow, fitting.tries[-1][0])
            return
        guess = predicted_try(fitting.ladder, fitting.ladder.sizes[smallest],
                              fitting.overflows[smallest])
        guess = max(guess if guess is not None else smallest + 1, smallest + 1)
        self._probe(fitting, *[n for n in _around(guess, fitting) if n > smallest])

    def _choose(self, fitting: _BoxFit, steps: dict[str, int]) -> None:
        gi, ci, box, _ = fitting.key
        fitting.chosen = steps
        self.fit.steps[(gi, ci)] = dict(self.fit.of(gi, ci), **{box: steps[box]})
        for index in fitting.chunks:
            self._advance(index)

    def _fail(self, fitting: _BoxFit, overflow, steps) -> None:
        gi, ci, box, _ = fitting.key
        fitting.failed = True
        self.problems[(gi, ci, box)] = does_not_fit(self.composer, self.groups, self.fit, gi,
                                                    ci, box, overflow, steps)
        for index in fitting.chunks:
            self._advance(index)


def _around(guess: int, fitting: _BoxFit) -> list[int]:
    """The tries either side of `guess`, and it, not asked before."""
    return [n for n in range(max(0, guess - 1), min(len(fitting.tries), guess + 2))
            if n not in fitting.asked]


def _text_size(value) -> int:
    """How many characters of text a card's data holds (its strings, however nested)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(_text_size(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(_text_size(v) for v in value)
    return 0


def _copy(fit: FitState) -> FitState:
    """A snapshot: a job made later (when a worker takes it) renders the steps of now."""
    return FitState({key: dict(steps) for key, steps in fit.steps.items()})
