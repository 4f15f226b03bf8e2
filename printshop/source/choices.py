"""Closed sets of values (kinds, papers, profiles, layouts, card sizes, emblems): a value
is taken whatever its case when that loses nothing (`A4` is `a4`), and a value that is not
in the set gets a "did you mean" naming the closest one."""

from __future__ import annotations

import difflib
from typing import Iterable


def fold_case(value: str, choices: Iterable[str]) -> str:
    """The choice `value` names whatever its case, when exactly one does; else `value`."""
    choices = list(choices)
    if value in choices:
        return value
    same = [c for c in choices if c.casefold() == value.casefold()]
    return same[0] if len(same) == 1 else value


def close_match(value: str, choices: Iterable[str]) -> str | None:
    """The choice `value` most likely misspells, or None."""
    choices = [str(c) for c in choices]
    by_folded = {c.casefold(): c for c in choices}
    folded = str(value).casefold()
    if folded in by_folded:
        return by_folded[folded]
    close = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=0.6)
    if close:
        return by_folded[close[0]]
    # a prefix or a plural/singular: `poke` → poker, `card` → cards
    starts = [c for f, c in by_folded.items() if len(folded) >= 2 and (
        f.startswith(folded) or folded.startswith(f))]
    return starts[0] if len(starts) == 1 else None


def did_you_mean(value: str, choices: Iterable[str], listing: bool = True) -> str:
    """' (did you mean 'x'?)', else ' (one of: a, b, c)' (with `listing`), else ''."""
    choices = list(choices)
    guess = close_match(value, choices)
    if guess is not None:
        return f" (did you mean '{guess}'?)"
    if listing and choices:
        return f" (one of: {', '.join(choices)})"
    return ""
