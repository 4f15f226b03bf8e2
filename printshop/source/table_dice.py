"""Dice tables: proving that the rows cover every result of the dice exactly once, and
the parted lists (`part_die` picks a part, `dice` the row within it) with their "roll
again" results (`reroll`), so a list of any length gives every row the same chance. Used by
`printshop.source.tables` as it loads a table."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from printshop.dice import Dice, parse_dice
from printshop.errors import Problems
from printshop.source.yamlfile import YamlDoc

if TYPE_CHECKING:
    from printshop.source.spreadsheets import SheetRowsDoc

RANGE_RE = re.compile(r"^\s*(-?\d+)\s*(?:[-–]\s*(-?\d+))?\s*$")


def range_text(span: tuple[int, int] | None) -> str:
    if span is None:
        return ""
    low, high = span
    return str(low) if low == high else f"{low}–{high}"


@dataclass(frozen=True)
class Part:
    """One part of a parted list: the part die's results that pick it."""

    results: tuple[int, int]

    @property
    def text(self) -> str:
        return range_text(self.results)


def parse_range(value) -> tuple[int, int] | None:
    match = RANGE_RE.match(str(value))
    if not match:
        return None
    low = int(match[1])
    high = int(match[2]) if match[2] is not None else low
    return (low, high) if low <= high else None


def parts_and_reroll(spec, dice: Dice | None, doc: YamlDoc | SheetRowsDoc, base: tuple,
                      problems: Problems):
    """The part die, the parts and the reroll range, checked (not yet against the rows)."""
    path = doc.path
    part_die, parts, reroll = None, [], None
    if (spec.part_die is None) != (spec.parts is None):
        key = "part_die" if spec.part_die is not None else "parts"
        problems.add(path, f"{key}: a parted list needs both part_die (the die that picks "
                     "the part) and parts (its results for each part)",
                     doc.pos(base + (key,)).line)
    for key in ("part_die", "reroll"):
        if getattr(spec, key) is not None and spec.dice is None:
            problems.add(path, f"{key}: only a dice table can have one (add dice:)",
                         doc.pos(base + (key,)).line)
    if spec.part_die is not None and spec.parts is not None and spec.dice is not None:
        try:
            part_die = parse_dice(spec.part_die)
        except ValueError as exc:
            pos = doc.pos(base + ("part_die",))
            problems.add(path, f"part_die: {exc}", pos.line, pos.column)
        spans: list[tuple[int, int] | None] = []
        for i, text in enumerate(spec.parts):
            span = parse_range(text)
            if span is None:
                pos = doc.pos(base + ("parts", i))
                problems.add(path, f"parts[{i}]: '{text}' is not a number or a range like "
                             "1-3", pos.line, pos.column)
            spans.append(span)
        ranges = [span for span in spans if span is not None]
        if part_die is not None and len(ranges) == len(spans):
            owner: dict[int, int] = {}
            outcomes = part_die.outcomes()
            for i, (low, high) in enumerate(ranges):
                for value in range(low, high + 1):
                    if value not in outcomes or value in owner:
                        why = ("is outside what " + part_die.text + " can roll"
                               if value not in outcomes else
                               f"overlaps parts[{owner[value]}]")
                        pos = doc.pos(base + ("parts", i))
                        problems.add(path, f"parts[{i}]: {range_text((low, high))} {why}",
                                     pos.line, pos.column)
                        break
                    owner[value] = i
            missing = [v for v in outcomes if v not in owner]
            if missing:
                problems.add(path, f"parts: no part for {_ranges(missing)} on "
                             f"{part_die.text}: every result of the part die needs a part",
                             doc.pos(base + ("parts",)).line)
            parts = [Part(span) for span in ranges]
    if spec.reroll is not None and dice is not None:
        reroll = parse_range(spec.reroll)
        pos = doc.pos(base + ("reroll",))
        outcomes = dice.outcomes()
        if reroll is None:
            problems.add(path, f"reroll: '{spec.reroll}' is not a number or a range like "
                         "93-100", pos.line, pos.column)
        elif reroll[0] < outcomes[0] or reroll[1] > outcomes[-1]:
            problems.add(path, f"reroll: {range_text(reroll)} is outside what {dice.text} "
                         f"can roll ({outcomes[0]}–{outcomes[-1]})", pos.line, pos.column)
            reroll = None
    return part_die, parts, reroll


def check_parts(dice: Dice, part_die: Dice | None, parts: list[Part],
                reroll: tuple[int, int] | None, rows: list, doc: YamlDoc | SheetRowsDoc,
                base: tuple,
                problems: Problems) -> list:
    """Split a parted list where a row's roll starts again at the die's lowest result, and
    prove each part covers the dice exactly once (the last part with its reroll results).
    Returns the rows, each knowing its part."""
    lowest = dice.outcomes()[0]
    groups: list[list] = [[]]
    for row in rows:
        if part_die is not None and groups[-1] and row.roll and row.roll[0] == lowest:
            groups.append([])
        groups[-1].append(row)
    if part_die is not None and len(groups) != len(parts):
        problems.add(doc.path, f"parts: {len(parts)} parts, but the rows make {len(groups)} "
                     f"(a part starts where a row's roll starts again at {lowest})",
                     doc.pos(base + ("parts",)).line)
        return rows
    result: list = []
    for i, group in enumerate(groups):
        last = i == len(groups) - 1
        where = f" in part {i + 1} ({part_die.text} {parts[i].text})" if part_die else ""
        check_coverage(dice, group, doc, problems, reroll if last else None, where)
        if part_die is not None:
            result.extend(dataclasses.replace(r, part=i) for r in group)
        else:
            result.extend(group)
    return result


def check_coverage(dice: Dice, rows: list, doc: YamlDoc | SheetRowsDoc, problems: Problems,
                   reroll: tuple[int, int] | None = None, where: str = "") -> None:
    outcomes = dice.outcomes()
    possible = set(outcomes)
    # result → how a message names the row (or reroll:) that has it
    owner: dict[int, str] = {}
    if reroll is not None:
        for value in range(reroll[0], reroll[1] + 1):
            if value in possible:
                owner[value] = f"the row on line {doc.pos(('reroll',)).line}"
    for row in rows:
        low, high = row.roll
        covered = [v for v in range(low, high + 1) if v in possible]
        outside = [v for v in (low, high) if v < outcomes[0] or v > outcomes[-1]]
        at = getattr(row, "path", None) or doc.path   # a spreadsheet's row: its own place
        if outside or not covered:
            problems.add(at, f"roll {row.roll_text} is outside what {dice.text} can roll "
                         f"({outcomes[0]}–{outcomes[-1]})", row.line)
            continue
        clashes = [v for v in covered if v in owner]
        if clashes:
            problems.add(at, f"roll {row.roll_text}{where} overlaps {owner[clashes[0]]} "
                         f"(both cover {_ranges(clashes)})", row.line)
        for value in covered:
            owner.setdefault(value, f"row {row.line}" if getattr(row, "path", None)
                             else f"the row on line {row.line}")
    missing = [v for v in outcomes if v not in owner]
    if missing:
        line = rows[0].line if where and rows else doc.pos(("rows",)).line
        problems.add(doc.path, f"no row for {_ranges(missing)} on {dice.text}{where}: every "
                     "result needs exactly one row (or say reroll: for the last part)", line)


def _ranges(values: list[int]) -> str:
    parts, start, prev = [], values[0], values[0]
    for v in values[1:] + [None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}")
        if v is not None:
            start = prev = v
    return ", ".join(parts)


