"""Dealing a deck's cards from its table: one card per row (`rows`), one per way the dice
fall (`dice`), or the 52 cards of a standard deck (`playing-cards`). Each function appends
`Card`s to the deck and reports what it cannot deal to `problems`."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from printshop.errors import Problems
from printshop.source.deck_spec import DEFAULT_TEMPLATES, MAX_DICE_CARDS, RANKS, SUITS, Card, Deck
from printshop.source.tables import Row, Table, row_name


def _fields(table: Table, row) -> dict:
    return dict(row.values)


def _columns(table: Table) -> list[dict]:
    return [{"key": c.key, "label": c.label, "type": c.type, "print": c.print}
            for c in table.columns]


def _labels(table: Table) -> dict[str, str]:
    return {c.key: c.label for c in table.columns}


def _deal_rows(deck: Deck, problems: Problems) -> None:
    """A card per row; a row with `copies: N` deals N cards of it (0: none)."""
    table = deck.tables[0]
    number = 0
    for i, row in enumerate(table.rows):
        title = row.get(deck.spec.face.title) if deck.spec.face.title else None
        for copy in range(row.copies):
            number += 1
            label = f"row {row.line if row.path else i + 1}" + (f": {title}" if title
                                                                else "")
            if row.copies > 1:
                label += f", copy {copy + 1} of {row.copies}"
            deck.cards.append(Card(
                number=number, id="", template=_front_template(deck),
                data={"kind": "row", "fields": _fields(table, row), "roll": row.roll_text,
                      "dice": table.dice.text if table.dice else None,
                      "columns": _columns(table), "labels": _labels(table)},
                path=Path(row.path) if row.path else table.path, line=row.line,
                label=label))
    if not deck.cards:
        problems.add(table.path, "every row says copies: 0, so the deck has no cards",
                     deck.line_of("rows"))


def _no_copies(deck: Deck, table: Table, problems: Problems) -> None:
    """Only a deck dealt by rows deals copies; elsewhere `copies` would be quietly lost."""
    for row in table.rows:
        if row.copies != 1:
            problems.add(row.path or table.path, f"copies: only a deck dealt by rows (deal: "
                         f"rows) deals copies of a row; this one deals {deck.spec.deal}",
                         row.line)


def _deal_dice(deck: Deck, problems: Problems) -> None:
    tables = deck.tables
    dice_of = {t.dice.text if t.dice else None for t in tables}
    if None in dice_of or len(dice_of) != 1:
        problems.add(deck.path, "deal: dice needs dice tables that all use the same dice "
                     f"(found: {', '.join(sorted(str(d) for d in dice_of))})",
                     deck.line_of("deal"))
        return
    rolled_again = [t.id for t in tables if t.part_die is not None or t.reroll is not None]
    if rolled_again:
        problems.add(deck.path, f"deal: dice needs tables read off one roll; "
                     f"{', '.join(rolled_again)} has parts or results to roll again",
                     deck.line_of("deal"))
        return
    for table in tables:
        _no_copies(deck, table, problems)
    dice = tables[0].dice
    assert dice is not None    # (checked above: every table has the same dice)
    combinations = dice.sides ** dice.count
    if combinations > MAX_DICE_CARDS:
        problems.add(deck.path, f"deal: dice: {dice.text} falls {combinations} ways, too many "
                     f"cards (at most {MAX_DICE_CARDS})", deck.line_of("deal"))
        return
    for i, faces in enumerate(itertools.product(range(1, dice.sides + 1), repeat=dice.count)):
        total = 10 * faces[0] + faces[1] if dice.d66 else sum(faces) + dice.modifier
        sections = []
        for table in tables:
            row = table.row_for(total)
            sections.append({"table": table.id, "title": table.title,
                             "fields": _fields(table, row), "columns": _columns(table),
                             "roll": row.roll_text})
        deck.cards.append(Card(
            number=i + 1, id="", template=_front_template(deck),
            data={"kind": "dice", "dice": dice.text, "faces": list(faces), "total": total,
                  "sections": sections},
            path=deck.path, line=deck.line_of("tables"),
            label=f"{dice.text} = {total} ({' + '.join(map(str, faces))})"))


_RANK_RANGE_RE = re.compile(r"^\s*(A|[1-9]|10|J|Q|K)\s*(?:[-–]\s*(A|[1-9]|10|J|Q|K))?\s*$",
                            re.IGNORECASE)


def parse_ranks(text: str) -> list[str]:
    """`A-8`, `1-8` (1 is the ace), `9-10`, `J-Q`, `K` → ranks in order."""
    match = _RANK_RANGE_RE.match(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a rank or a range of ranks (A, 2-10, J, Q, K; "
                         "e.g. A-8, 9-10, J-Q)")

    def index(rank: str) -> int:
        rank = rank.upper()
        return 0 if rank in ("A", "1") else RANKS.index(rank)

    low = index(match[1])
    high = index(match[2]) if match[2] else low
    if high < low:
        raise ValueError(f"'{text}' runs backwards")
    return list(RANKS[low:high + 1])


def _deal_playing_cards(deck: Deck, problems: Problems) -> None:
    table = deck.tables[0]
    keys = {c.key: c for c in table.columns}
    if "suits" not in keys or "ranks" not in keys or keys["suits"].type != "list":
        problems.add(deck.path, "deal: playing-cards needs columns 'suits' (type: list) and "
                     "'ranks'", deck.line_of("columns"))
        return
    _no_copies(deck, table, problems)
    owner: dict[tuple[str, str], Row] = {}
    dealt: dict[tuple[str, str], Any] = {}
    fields_of: dict[int, dict] = {}
    for i, row in enumerate(table.rows):
        at = row.path or deck.path      # (a spreadsheet's row: the row's own place)
        fields_of[i] = {k: v for k, v in row.values.items() if v is not None}
        die = row.get("die")
        if die is not None:
            if deck.results is None:
                problems.add(at, "die: needs 'results_from: TABLE' in the deck", row.line)
                continue
            try:
                fields_of[i] = {**deck.results.row_for(int(die)).values, **fields_of[i]}
            except (KeyError, ValueError):
                rolled = deck.results.dice.text if deck.results.dice else "its roll"
                problems.add(at, f"die: {die} is not a result of "
                             f"{rolled} on '{deck.results.id}'", row.line)
                continue
        bad = [s for s in row["suits"] if s not in SUITS]
        if bad:
            pos = deck.doc.pos(("rows", i, "suits"))
            problems.add(at, f"suits: {', '.join(bad)} is not a suit ({', '.join(SUITS)})",
                         *((row.line, None) if row.path else (pos.line, pos.column)))
            continue
        try:
            ranks = parse_ranks(row["ranks"])
        except ValueError as exc:
            pos = deck.doc.pos(("rows", i, "ranks"))
            problems.add(at, f"ranks: {exc}",
                         *((row.line, None) if row.path else (pos.line, pos.column)))
            continue
        for suit in row["suits"]:
            for rank in ranks:
                if (suit, rank) in owner:
                    problems.add(at, f"the {rank} of {suit} is already dealt by "
                                 f"{row_name(owner[(suit, rank)])}", row.line)
                    continue
                owner[(suit, rank)] = row
                dealt[(suit, rank)] = (row, fields_of[i])
    missing = [f"{rank} of {suit}" for suit in SUITS for rank in RANKS
               if (suit, rank) not in owner]
    if missing and not problems:
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6
                                          else "")
        problems.add(deck.path, f"no row deals {shown}: every card of the 52 needs exactly one "
                     "row", deck.line_of("rows"))
    if problems:
        return
    number = 0
    for suit in SUITS:
        for rank in RANKS:
            row, fields = dealt[(suit, rank)]
            number += 1
            deck.cards.append(Card(
                number=number, id="", template=_front_template(deck),
                data={"kind": "playing-card", "suit": suit, "rank": rank,
                      "rank_value": RANKS.index(rank) + 1,
                      "red": suit in ("hearts", "diamonds"),
                      "fields": fields, "columns": _columns(table),
                      "labels": _labels(table)},
                path=row.path or deck.path, line=row.line, label=f"{rank} of {suit}"))


def _front_template(deck: Deck) -> str:
    return deck.spec.template or DEFAULT_TEMPLATES[deck.spec.deal]
