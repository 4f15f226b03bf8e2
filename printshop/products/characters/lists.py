"""The rolled lists of a sheet drawn in layers (skills, languages, spells, equipment, ...):
each distinct piece laid out once as a stamp, stacked as CSS would stack it.

The lists are two columns of sections; a section is a heading and its pieces: paragraphs,
the items of a list, or the items of a two-column list (inline blocks, side by side). On a
values page WeasyPrint spent more than half of a sheet's time on them, though the same
items ("Backpack", "Tanning hides CON") come back on sheet after sheet. So:

- the template marks every piece (`piece` in templates/pregens.html.j2): its name says its
  column, section, kind and number ("L1.equipment.li2.4");
- the form job's third page ("lists", never drawn: WeasyPrint draws a hidden table's
  collapsed borders) lays out the lists of the form's first character. Each kind's first
  piece there gives what stacking needs: margins, borders and padding, where its content
  starts across the column, its width (`ListsModel`);
- each distinct piece is laid out once, as a stamp of that width (render/pdf/layers.py), which
  gives its height;
- `ListsModel.stack` places a sheet's pieces from their heights: block boxes one under the
  other, adjoining margins collapsed (the largest wins), a two-column list's items in lines
  as wide as they fit, each line as tall as its tallest item;
- the values page keeps only the columns, each a spacer of the stacked height, and the
  pieces are drawn over it where `stack` put them.

`ListsModel.check` stacks the sample character's own pieces and compares the result with
where WeasyPrint put them on the lists page. A template whose lists stack in some way this
does not model (floats, a table, a flex box, a line taller than its items) fails the check,
and its sheets keep their lists laid out on the values page as before.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

NAME_RE = re.compile(r"^L(\d+)\.([\w-]+)\.(h2|p|div|li|li2)\.(\d+)$")
LISTED = ("li", "li2")   # pieces inside a list element (the section's `ul` slot)
TOLERANCE_PX = 0.01


@dataclass(frozen=True)
class Placed:
    name: str
    column: int
    x: float    # the piece's content box, from its column's content box (CSS px)
    y: float


def kind_of(name: str) -> str | None:
    """"L0.skills.li2.3" → "L0.skills.li2" (None for a name that is not a piece's)."""
    return name.rsplit(".", 1)[0] if NAME_RE.match(name) else None


def _collapse(margins: list[float]) -> float:
    return max([m for m in margins if m > 0], default=0.0) + \
        min([m for m in margins if m < 0], default=0.0)


def _inner_top(slot) -> float:
    return slot.content_y - slot.y


def _inner_bottom(slot) -> float:
    return slot.height - _inner_top(slot) - slot.content_height


def _margin_bottom(slot) -> float:
    return slot.top + slot.margin_height - slot.y - slot.height


class ListsModel:
    """What stacking a sheet's lists needs, read from the lists page's slots."""

    def __init__(self, slots: dict):
        self.slots = slots

    def sample(self, kind: str):
        """The slot of the first piece of this kind on the lists page (chain, tag, width)."""
        return self.slots.get(kind + ".0")

    def stack(self, pieces: list[tuple[str, float]]):
        """(column heights, [Placed]) for pieces in document order, each (name, content
        height); None when a piece, its section or its column is of a kind the lists page
        did not show (that sheet keeps its lists laid out)."""
        columns: dict[int, list] = {}
        for name, height in pieces:
            match = NAME_RE.match(name)
            if match is None:
                return None
            column = int(match.group(1))
            columns.setdefault(column, []).append((name, match, height))
        if sorted(columns) != list(range(len(columns))):
            return None
        heights: list[float] = []
        placed: list = []
        for column in sorted(columns):
            stacked = self._column(column, columns[column], placed)
            if stacked is None:
                return None
            heights.append(stacked)
        return heights, placed

    def _column(self, column: int, pieces, placed: list[Placed]) -> float | None:
        col = self.slots.get(f"L{column}")
        if col is None:
            return None
        flow = _Flow(column, col, placed)
        section = container = None
        for name, match, height in pieces:
            slot = self.sample(name.rsplit(".", 1)[0])
            section_name = f"L{column}.{match.group(2)}"
            listed = match.group(3) in LISTED
            if section_name != section or (container is not None and not listed):
                flow.close(container)
                container = None
            if section_name != section:
                flow.close(self.slots.get(section))
                section = section_name
                if section not in self.slots:
                    return None
                flow.open(self.slots[section])
            if slot is None:
                return None
            if listed and container is None:
                container = self.slots.get(f"{section}.ul")
                if container is None:
                    return None
                flow.open(container)
            if match.group(3) == "li2":
                flow.inline_block(name, slot, height, container)
            else:
                flow.block(name, slot, height)
        flow.close(container)
        flow.close(self.slots.get(section))
        return flow.end()

    def check(self, pieces: list[str]) -> bool:
        """Does stacking the sample's own pieces (by name, in order) put each where the lists
        page has it, and make each column as tall?"""
        if not pieces or any(name not in self.slots for name in pieces):
            return False
        stacked = self.stack([(name, self.slots[name].content_height) for name in pieces])
        if stacked is None:
            return False
        heights, placed = stacked
        for column, height in enumerate(heights):
            if abs(self.slots[f"L{column}"].content_height - height) > TOLERANCE_PX:
                return False
        for piece in placed:
            slot, col = self.slots[piece.name], self.slots[f"L{piece.column}"]
            if abs(slot.content_x - col.content_x - piece.x) > TOLERANCE_PX or \
                    abs(slot.content_y - col.content_y - piece.y) > TOLERANCE_PX:
                return False
        return True


class _Flow:
    """One column's block flow, a box at a time: `y` is where the next box's border edge
    would go before the margins waiting above it (`pending`) are collapsed in."""

    def __init__(self, column: int, col, placed: list[Placed]):
        self.column, self.col, self.placed = column, col, placed
        self.y = 0.0
        self.pending: list[float] = []
        self.line: list = []      # a two-column list's items waiting for their line

    def _flush(self) -> None:
        self.y += _collapse(self.pending)
        self.pending.clear()

    def _place(self, name: str, x: float, y: float) -> None:
        self.placed.append(Placed(name, self.column, x, y))

    def open(self, box) -> None:
        """A box's top: its margin joins those above unless a border or padding parts them."""
        self.pending.append(box.margin_top)
        if _inner_top(box):
            self._flush()
            self.y += _inner_top(box)

    def close(self, box) -> None:
        self._end_line()
        if box is None:
            return
        if _inner_bottom(box):
            self._flush()
            self.y += _inner_bottom(box)
        self.pending.append(_margin_bottom(box))

    def block(self, name: str, slot, height: float) -> None:
        """A block of text: the margins above collapse into one, then the box."""
        self._end_line()
        self.pending.append(slot.margin_top)
        self._flush()
        self._place(name, slot.content_x - self.col.content_x, self.y + _inner_top(slot))
        self.y += _inner_top(slot) + height + _inner_bottom(slot)
        self.pending.append(_margin_bottom(slot))

    def inline_block(self, name: str, slot, height: float, container) -> None:
        """An item of a two-column list: as many a line as fit across the list."""
        per_line = max(1, math.floor((container.content_width + TOLERANCE_PX) /
                                     slot.margin_width)) if slot.margin_width else 1
        self.line.append((name, slot, height))
        if len(self.line) == per_line:
            self._end_line()

    def _end_line(self) -> None:
        """A line of inline blocks (aligned at its top) is as tall as its tallest margin
        box; their margins stay inside it."""
        if not self.line:
            return
        self._flush()
        tallest = 0.0
        for n, (name, slot, height) in enumerate(self.line):
            self._place(name, slot.content_x - self.col.content_x + n * slot.margin_width,
                        self.y + slot.margin_top + _inner_top(slot))
            tallest = max(tallest, slot.margin_top + _inner_top(slot) + height +
                          _inner_bottom(slot) + _margin_bottom(slot))
        self.y += tallest
        self.line.clear()

    def end(self) -> float:
        """The column's height: a table cell's takes its last child's bottom margin in."""
        self._end_line()
        self._flush()
        return self.y
