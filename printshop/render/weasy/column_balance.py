"""Balanced columns found in a few layouts instead of one a pixel.

WeasyPrint 70 balances a run of columns (before a `column-span: all` block, at a chapter's
end) by laying them out at the average height and, while the content does not fit, adding
the least height that would pull one more box up (the smallest seen so far), and laying
out again. When no column has a box waiting that says how much (a paragraph that could
break anywhere, a table row), it adds 1 px: the guide's contents page took 132 layouts of
its columns, one a pixel, and chapter 06 took 193 over four runs of columns, three
quarters of those parts' layout time.

`BalanceSearch` reaches the height WeasyPrint's stepping reaches without walking it. Its
tries come in runs of one step (1 px while no need is known, then the smallest need);
a run ends at its first try that fits or reports a smaller need, and that try is found
by doubling the index, then halving the gap; from there the next run starts as
WeasyPrint's would. Two measures of a try point the search where to look first, while no
box says how much it needs: what a try that does not fit left over after its last column
(laid out once more, unbounded: the columns must grow by about its height shared between
them), and how high the tallest column of a try that fits reached, its last margin
included (a try that high lays the same columns out; the height just under it is tried,
then it). Where fitting grows with height, as it does for ordinary content,
the columns come out exactly as before (every product of the kit is byte for byte the
same; the guide's contents page takes 4 layouts of its columns instead of WeasyPrint's
132, 15 by doubling and halving alone); where it does not, the
search may settle on another height at which the content was seen to fit. The layout the
loop leaves behind is one at the chosen height, as WeasyPrint's is (when a search had to
try that height again, it is laid out as the final columns will be, so that they can take
it: render/weasy/column_trial.py, which this module patches in too).

The change is made to WeasyPrint's own function (a few lines of its source replaced), and
only when the source is exactly the text it was written against (render/weasy/registry.py);
otherwise nothing is patched and WeasyPrint balances as it always has.
"""

from __future__ import annotations

from math import ceil, inf

from printshop.render.weasy.column_trial import ColumnTrial, history_matters
from printshop.render.weasy.registry import Patch, SourceEdit

# (WeasyPrint's text, printshop's text): each must be found exactly once
_START = (
    """                        balancing = True
                        height = sum(consumed_heights) / count
""",
    """                        balancing = True
                        height = sum(consumed_heights) / count
                        search = BalanceSearch(height, max_height, lost_space,
                                               history_matters(context, column_children),
                                               count)
                        lost_space = inf
                        used_height = 0
""")
# the room the tallest column takes, its last box's bottom margin included (the margin
# counts when WeasyPrint says whether a column fits; its balancing average leaves it out)
_USED = (
    """                    empty_space = height - consumed_height
""",
    """                    empty_space = height - consumed_height
                    used_height = max(used_height, consumed_height)
""")
_USED_FROM = (
    """        column_skip_stack = skip_stack
        lost_space = inf
""",
    """        column_skip_stack = skip_stack
        lost_space = inf
        used_height = 0
""")
_STEP = (
    """            if balancing:
                if column_skip_stack is None:
                    # We rendered the whole content, stop
                    break

                # Increase the column heights and render them again
                add_height = 1 if lost_space == inf else lost_space
                height += add_height

                if height > max_height:
                    # We reached max height, stop rendering
                    height = max_height
                    stop_rendering = True
                    break
""",
    """            if balancing:
                # printshop: the next height to try (printshop/render/weasy/column_balance.py)
                left_over = 0
                if column_skip_stack is not None and search.wants_left_over(lost_space):
                    left_over = left_over_height(
                        context, block_box_layout, remove_placeholders, column_box,
                        column_skip_stack, containing_block, first_letter_style,
                        first_line_style)
                height = search.next(height, column_skip_stack is None, lost_space,
                                     left_over, used_height)
                used_height = 0
                lost_space = inf
                if search.done:
                    stop_rendering = search.overflows
                    break
""")


HINTED_TRIES = 2   # tries of a run asked where a hint pointed, of each kind


class BalanceSearch:
    """The heights to lay a run of columns out at, given how each try went.

    WeasyPrint's rule: after a try at height h that does not fit, try h + step, where step
    is the smallest need (`lost`) any try has reported, or 1 px while none has; stop at the
    first try that fits, or give up (`overflows`) past the page's height. A run of tries
    with one step ends at the first that fits or reports a smaller need: that try is found
    by doubling the index, then halving the gap, the tries' hints first (`next`'s
    `left_over` and `used`). `exact`: WeasyPrint's own tries, one a
    step (content whose fit is not monotonic in the height, or whose layout depends on the
    layouts before it: `column_trial.history_matters`)."""

    def __init__(self, start: float, max_height: float, lost: float, exact: bool = False,
                 count: int = 1):
        self.max_height = max_height
        self.need = lost            # WeasyPrint's remembered smallest need (inf: none yet)
        self.exact = exact
        self.count = max(1, count)  # the columns
        self.done = self.overflows = False
        self.last: float | None = None     # the height of the last try
        self.final: float | None = None    # the chosen height, tried once more
        self._run(start)

    def _run(self, base: float) -> None:
        """Tries base, base + step, … as WeasyPrint would (its additions, its rounding)."""
        self.step = 1 if self.need == inf else self.need
        self.heights = [base]
        while self.heights[-1] + self.step <= self.max_height:
            self.heights.append(self.heights[-1] + self.step)
        self.tried: dict[int, tuple[bool, float]] = {}
        self.below, self.above = -1, None   # last index known to go on, first to end
        self.asked = 0
        self.hints: dict[int, float] = {}   # index tried → the height it hints at
        self.hinted = {"up": 0, "down": 0}  # tries asked where a hint pointed
        self.under: int | None = None       # the try under a fitting try's tallest column

    def next(self, height: float, fits: bool, lost: float, left_over: float = 0.0,
             used: float = 0.0) -> float:
        """The height of the next try after one at `height`; sets `done` when the search
        ends (the returned height is then the columns' height). `left_over`: the height of
        the content left after the last column (a try that does not fit); `used`: the
        height of the tallest column (a try that fits)."""
        self.last = height
        if self.final is not None:      # the re-try at the chosen height, so the layout
            self.done = True            # left behind is one at that height
            return self.final
        if self.exact:                  # WeasyPrint's rule, as its loop applies it
            if fits:
                self.done = True
                return height
            self.need = min(self.need, lost)
            height += 1 if self.need == inf else self.need
            return self._give_up() if height > self.max_height else height
        index = self.asked
        self.tried[index] = (fits, lost)
        if fits or lost < self.need:
            if fits and index == self.under:
                # the height under the tallest column fits too: the columns' content
                # moves between them (lines, not blocks), the hint says little here
                self.hinted["down"] = HINTED_TRIES
            self.above = index if self.above is None else min(self.above, index)
            if fits and used > 0:
                self.hints[index] = used
        else:
            self.below = max(self.below, index)
            if left_over > 0:
                self.hints[index] = height + left_over / self.count
        last = len(self.heights) - 1
        if self.above is None:
            if self.below >= last:      # the next step would pass the page's height
                return self._give_up()
            hint = self._hint_up(last)
            return self._ask(min(2 * self.below + 1, last) if hint is None else hint)
        if self.above > self.below + 1:
            hint = self._hint_down()
            return self._ask((self.below + self.above) // 2 if hint is None else hint)
        height = self.heights[self.above]
        fits, lost = self.tried[self.above]
        if fits:
            return self._finish(height)
        self.need = lost
        if height + lost > self.max_height:
            return self._give_up()
        self._run(height + lost)
        return self.heights[0]

    def wants_left_over(self, lost: float) -> bool:
        """Whether the next try's height would come from what the last try left over:
        only while no box has said how much more it needs (WeasyPrint's steps of 1 px;
        with a need, its steps are already that long)."""
        return not self.exact and min(self.need, lost) == inf and self.final is None and \
            self.above is None and self.hinted["up"] < HINTED_TRIES

    def _ask(self, index: int) -> float:
        self.asked = index
        return self.heights[index]

    # Where to look next, from how the tries went. The tries only narrow where the first
    # height that ends the run can be, so the same height is found whatever they hint;
    # good hints find it in a few tries, and a run takes HINTED_TRIES of each kind at the
    # most, so hints that mislead cost a few tries
    def _index_of(self, height: float) -> int:
        """The first index whose height is at least `height`."""
        return max(0, ceil((height - self.heights[0]) / self.step - 1e-6))

    def _hint_up(self, last: int) -> int | None:
        """No try has ended the run yet: what the highest try left after its columns,
        shared between the columns, says how much higher they must be at least (each px
        more takes about a px more of it into each column)."""
        hint = self.hints.get(self.below)
        if hint is None or self.hinted["up"] >= HINTED_TRIES:
            return None
        self.hinted["up"] += 1
        return min(max(self._index_of(hint), self.below + 1), last)

    def _hint_down(self) -> int | None:
        """A try fitted: its tallest column says how high the columns must be at the most
        (a try that high lays the same columns out): the height just under that is
        tried, then that height. When the height under it fits too, the content flows
        between the columns (the tallest column says little): halving goes on."""
        above = self.above
        used = None if above is None else self.hints.get(above)
        if above is None or used is None or self.hinted["down"] >= HINTED_TRIES:
            return None
        index = self._index_of(used)
        if self.below < index - 1 < above and index - 1 not in self.tried:
            self.hinted["down"] += 1
            self.under = index - 1
            return index - 1
        if index == self.below + 1 and index < above:
            self.hinted["down"] += 1
            return index
        return None

    def _give_up(self) -> float:
        self.done = self.overflows = True
        return self.max_height

    def _finish(self, height: float) -> float:
        if self.last == height:
            self.done = True
        else:
            self.final = height
        return height


def left_over_height(context, block_box_layout, remove_placeholders, column_box, skip_stack,
                     containing_block, first_letter_style, first_line_style) -> float:
    """The height of the content a try of the columns left over, laid out in one column
    with no bottom (as WeasyPrint lays the next box out to measure its need), then
    forgotten: nothing of it stays in the layout's context."""
    shapes = len(context.excluded_shapes)
    rest = block_box_layout(context, column_box, -inf, skip_stack, containing_block, True,
                            [], [], [], first_letter_style, first_line_style, discard=False,
                            max_lines=None)[0]
    del context.excluded_shapes[shapes:]
    if rest is None:
        return 0.0
    remove_placeholders(context, [rest], [], [])
    return rest.height


# printshop: the last try's columns stand in for the final layout (render/weasy/column_trial.py)
_TRIAL = (
    """            column_skip_stack = skip_stack
            consumed_heights = []
            new_boxes = []
            for i in range(count):
                # Render one column
                new_box, resume_at, next_page, _, _, _ = block_box_layout(
                    context, column_box,
                    context.page_bottom - current_position_y - height,
                    column_skip_stack, containing_block,
                    page_is_empty or not balancing, [], [], [], first_letter_style,
                    first_line_style, discard=False, max_lines=None)
                if new_box is None:
""",
    """            column_skip_stack = skip_stack
            consumed_heights = []
            new_boxes = []
            # printshop: a try at the chosen height after a search, laid out as the final
            # columns will be (render/weasy/column_balance.py)
            trial = ColumnTrial(
                context, context.page_bottom - current_position_y - height,
                (page_is_empty or not balancing or
                 (original_page_is_empty and search.final is not None)),
                column_children, style['direction'])
            for i in range(count):
                # Render one column
                trial_box = trial.column_box(
                    i, column_box, lambda: _create_column_box(
                        box, containing_block, column_children, width,
                        current_position_y), width, gap)
                new_box, resume_at, next_page, _, _, _ = block_box_layout(
                    context, trial_box, trial.bottom_space,
                    column_skip_stack, containing_block,
                    trial.page_is_empty, *trial.lists(i), [],
                    first_letter_style, first_line_style, discard=False, max_lines=None)
                trial.keep(i, column_skip_stack, new_box, resume_at, next_page)
                if new_box is None:
""")
_FINAL = (
    """            new_child, column_skip_stack, column_next_page, _, _, _ = (
                block_box_layout(
                    context, column_box, bottom_space, skip_stack, containing_block,
                    original_page_is_empty, absolute_boxes, fixed_boxes, None,
                    first_letter_style, first_line_style, discard=False,
                    max_lines=None))
""",
    """            # printshop: the last try's column, where it was laid out just so
            new_child, column_skip_stack, column_next_page = trial.take(
                i, column_box, bottom_space, skip_stack, original_page_is_empty,
                absolute_boxes, fixed_boxes)
            if new_child is trial.MISSING:
                new_child, column_skip_stack, column_next_page, _, _, _ = (
                    block_box_layout(
                        context, column_box, bottom_space, skip_stack, containing_block,
                        original_page_is_empty, absolute_boxes, fixed_boxes, None,
                        first_letter_style, first_line_style, discard=False,
                        max_lines=None))
""")
FUNCTION = "weasyprint.layout.column.columns_layout"
_REBIND = ("weasyprint.layout.block.columns_layout",)

BALANCE = Patch(
    name="column-balance",
    kind="speed",
    targets={FUNCTION: "7a05cce3272fc581"},
    why="WeasyPrint balances a run of columns by adding 1 px a layout while no box says "
        "how much more it needs (132 layouts for the guide's contents page)",
    gain="24.5 % of the guide's cold-build CPU, measured when its contents page took 16 "
         "layouts of its columns (WeasyPrint: 132; 4 tries now, on the tries' hints)",
    edits=(SourceEdit(FUNCTION, (_USED_FROM, _START, _USED, _STEP),
                      names=lambda: {"BalanceSearch": BalanceSearch,
                                     "left_over_height": left_over_height,
                                     "history_matters": history_matters},
                      rebind=_REBIND),),
)
TRIAL = Patch(
    name="column-trial",
    kind="speed",
    targets={FUNCTION: "7a05cce3272fc581"},
    why="the final layout of a run of columns repeats its last try at the same height",
    gain="11.8 % of the guide's cold-build CPU (render/weasy/column_trial.py)",
    edits=(SourceEdit(FUNCTION, (_TRIAL, _FINAL), names=lambda: {"ColumnTrial": ColumnTrial},
                      rebind=_REBIND),),
    requires=("column-balance",),
)
