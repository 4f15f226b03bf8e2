"""What a recipe's values can be, worked out when it loads, without rolling: the checker's
(`check.py`) view of an expression.

A value is `Known` (the tables and the recipe's data say exactly what it is), a `Choice`
among a few known values (the class's hit die: d4, d6, d8 or d10), a `Span` of whole numbers
(3d6: 3–18; `die` when it is a roll's total as thrown), `Rows` of some tables (a row picked
from them), a `Rec` with known fields (the stats placed from six rolls), a `ListOf` values,
or `ANY`. That is enough to say, before any character is rolled, that `row.skil` names no
column, that 2d6 cannot reach a d66 table's rows, or that INT 18 needs more skills than the
table has.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

MAX_CHOICES = 64


class Abs:
    pass


@dataclass
class AnyValue(Abs):
    def __repr__(self):
        return "ANY"


ANY = AnyValue()


@dataclass
class Known(Abs):
    value: object


@dataclass
class Choice(Abs):
    options: list


@dataclass
class Span(Abs):
    low: int | None
    high: int | None
    die: bool = False   # a roll's total as thrown (a table it is looked up in should
                        # have a row for every total, and no row it can never reach)


@dataclass
class Rows(Abs):
    tables: tuple[str, ...]


@dataclass
class Rec(Abs):
    fields: dict = field(default_factory=dict)
    closed: bool = True


@dataclass
class ListOf(Abs):
    element: Abs


def is_number(value) -> bool:
    return isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)


def choice(options: list) -> Abs:
    """A Choice, or a Known for one option, or a Span when too many numbers."""
    unique: list = []
    for option in options:
        if option not in unique:
            unique.append(option)
    if len(unique) == 1:
        return Known(unique[0])
    if len(unique) > MAX_CHOICES:
        numbers = [o for o in unique if is_number(o)]
        if len(numbers) == len(unique):
            return Span(int(min(numbers)), int(max(numbers) + 0.999))
        return ANY
    return Choice(unique)


def options_of(value: Abs) -> list | None:
    """The concrete values `value` may be, when known."""
    if isinstance(value, Known):
        return [value.value]
    if isinstance(value, Choice):
        return list(value.options)
    if isinstance(value, Span) and value.low is not None and value.high is not None and \
            value.high - value.low < MAX_CHOICES:
        return list(range(value.low, value.high + 1))
    return None


def span_of(value: Abs) -> Span | None:
    """The whole numbers `value` may be, as a span (None if not numbers)."""
    if isinstance(value, Span):
        return value
    options = options_of(value)
    if options and all(is_number(o) for o in options):
        return Span(int(min(options) // 1), int(-(-max(options) // 1)))
    return None


def join(a: Abs, b: Abs) -> Abs:
    """A value that is `a` or `b`."""
    if isinstance(a, AnyValue) or isinstance(b, AnyValue):
        return ANY
    if _none(b) and isinstance(a, (Rows, ListOf, Rec)):
        return a      # reading a part of none gives none: the shape is what matters
    if _none(a) and isinstance(b, (Rows, ListOf, Rec)):
        return b
    if isinstance(a, Rows) and isinstance(b, Rows):
        return Rows(tuple(dict.fromkeys(a.tables + b.tables)))
    if isinstance(a, Rows) and _none(b):
        return a
    if isinstance(b, Rows) and _none(a):
        return b
    if isinstance(a, ListOf) and isinstance(b, ListOf):
        return ListOf(join(a.element, b.element))
    if isinstance(a, Rec) and isinstance(b, Rec):
        keys = list(dict.fromkeys(list(a.fields) + list(b.fields)))
        return Rec({k: join(a.fields.get(k, Known(None)), b.fields.get(k, Known(None)))
                    for k in keys}, a.closed and b.closed)
    a_options, b_options = options_of(a), options_of(b)
    if isinstance(a, Span) or isinstance(b, Span):
        sa, sb = span_of(a), span_of(b)
        if sa is not None and sb is not None:
            return Span(_low(sa.low, sb.low), _high(sa.high, sb.high),
                        sa.die and sb.die)
    if a_options is not None and b_options is not None:
        return choice(a_options + b_options)
    if isinstance(a, ListOf) and isinstance(b, Known) and isinstance(b.value, list):
        return ListOf(_join_all([a.element] + [Known(v) for v in b.value]))
    if isinstance(b, ListOf) and isinstance(a, Known) and isinstance(a.value, list):
        return join(b, a)
    if isinstance(a, Rec) and isinstance(b, Known) and isinstance(b.value, dict):
        return join(a, Rec({k: Known(v) for k, v in b.value.items()}))
    if isinstance(b, Rec) and isinstance(a, Known) and isinstance(a.value, dict):
        return join(b, a)
    return ANY


def _join_all(values: list) -> Abs:
    result = values[0] if values else ANY
    for value in values[1:]:
        result = join(result, value)
    return result


def join_all(values: list) -> Abs:
    return _join_all(values) if values else ANY


def _none(value: Abs) -> bool:
    return isinstance(value, Known) and value.value is None


def _low(a, b):
    return None if a is None or b is None else min(a, b)


def _high(a, b):
    return None if a is None or b is None else max(a, b)


def elements(value: Abs) -> Abs:
    """What each element of a list (or each value of a record) may be."""
    if isinstance(value, ListOf):
        return value.element
    if isinstance(value, Rec):
        return join_all(list(value.fields.values()))
    options = options_of(value)
    if options is not None:
        items = []
        for option in options:
            if isinstance(option, dict):
                items += list(option.values())
            elif isinstance(option, (list, tuple)):
                items += list(option)
            elif option is not None:
                return ANY
        return choice(items) if items else ANY
    return ANY


def arithmetic(op: str, a: Abs, b: Abs) -> Abs:
    """+ − × // of whole numbers, as spans; anything else: ANY."""
    sa, sb = span_of(a), span_of(b)
    if sa is None or sb is None:
        return ANY
    if op in ("+", "-"):
        if op == "-":
            sb = Span(None if sb.high is None else -sb.high, None if sb.low is None else -sb.low)
        return Span(None if sa.low is None or sb.low is None else sa.low + sb.low,
                    None if sa.high is None or sb.high is None else sa.high + sb.high)
    if sa.low is None or sa.high is None or sb.low is None or sb.high is None:
        return ANY
    if op == "*":
        corners = [x * y for x in (sa.low, sa.high) for y in (sb.low, sb.high)]
        return Span(min(corners), max(corners))
    if op == "//" and sb.low == sb.high and sb.low:
        corners = [sa.low // sb.low, sa.high // sb.low]
        return Span(min(corners), max(corners))
    return ANY


def extreme(pick, values: list[Abs]) -> Abs:
    spans = [span for span in map(span_of, values) if span is not None]
    if len(spans) < len(values):
        return ANY
    lows = [s.low for s in spans]
    highs = [s.high for s in spans]
    known_lows = [x for x in lows if x is not None]
    known_highs = [x for x in highs if x is not None]
    if pick is max:
        low = max(known_lows, default=None)
        high = max(known_highs) if len(known_highs) == len(highs) and highs else None
    else:
        low = min(known_lows) if len(known_lows) == len(lows) and lows else None
        high = min(known_highs, default=None)
    return Span(low, high)
