"""Fitting card text: a `data-fit` box whose text overflows is set one size smaller, down
to the smallest size its card's template allows. Which size each box of each card is set
at (FitState), the sizes to try (ladder) and the probe render trying a card alone at them
(probe_job); card_sheets runs them as the sheets render."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field, replace

from printshop.products import BuildContext
from printshop.products.cards.compose import CardComposer, fit_name, sheet_job
from printshop.products.cards.geometry import Box
from printshop.products.cards.imposition import Face, Imposition, Page
from printshop.products.cards.settings import DeckGroup
from printshop.render.checks import FitCheck

MAX_FIT_STEPS = 40      # sizes a fit_box may list


@dataclass
class FitState:
    """How many sizes down each text box of each card is set: (group, card) → box → step.
    A card may have several boxes (a name in a band, the body) that shrink separately."""

    steps: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)

    def of(self, group_index: int, card_index: int) -> dict[str, int]:
        return self.steps.get((group_index, card_index), {})

    def bumped(self, group_index: int, card_index: int, box: str) -> dict[str, int]:
        steps = dict(self.of(group_index, card_index))
        steps[box] = steps.get(box, 0) + 1
        return steps


def overflows_by_box(result) -> dict[tuple[int, int, str], object]:
    """A rendered sheet's overflowing card boxes: (group, card, box) → its first overflow."""
    found: dict[tuple[int, int, str], object] = {}
    for overflow in FitCheck.overflows(result):
        gi, ci, box = _card_of(overflow.name)
        if gi is not None and ci is not None:
            found.setdefault((gi, ci, box), overflow)
    return found


@dataclass
class Ladder:
    """The sizes to try for an overflowing box: `tries`, (steps, fit name of the try) for
    every smaller size its template allows, largest first; `sizes`, each try's font size
    (pt, None if its template sets none); `size`, the box's size now."""

    tries: list[tuple[dict[str, int], str]]
    sizes: list[float | None]
    size: float | None


def ladder(composer: CardComposer, group: DeckGroup, gi: int, ci: int, box: str,
           steps: dict[str, int]) -> Ladder:
    """The ladder of `box` of a card set at `steps`; no tries when it is at its smallest
    already or its template does not shrink it."""
    name = fit_name(gi, ci) + f":{box}"
    html = composer.front(group, gi, ci, 0.0, steps)
    found = Ladder([], [], _font_size(html, name))
    while _smallest_size(html, name) is None and len(found.tries) < MAX_FIT_STEPS:
        steps = dict(steps, **{box: steps.get(box, 0) + 1})
        smaller = composer.front(group, gi, ci, 0.0, steps)
        if smaller == html:
            break   # the template does not shrink this box
        html = smaller
        found.tries.append((steps, f"try-{gi}-{ci}-{len(found.tries)}"))
        found.sizes.append(_font_size(html, name))
    return found


def predicted_try(found: Ladder, size: float | None, overflow) -> int | None:
    """The try whose size the box's text is predicted to fit at, from how much too much it
    was at `size` (measured alone, on a probe page, where nothing cuts it off): text set
    smaller takes less room both ways, so the height it needs goes as the square of its
    size; a line that cannot wrap (too wide) as its size. None when nothing says (a box
    split over pages, sizes the template does not say)."""
    extent, by = overflow.extent_px, overflow.by_px
    if size is None or extent <= 0 or None in found.sizes or not found.sizes:
        return None
    if overflow.how == "bottom":
        target = size * (extent / (extent + by)) ** 0.5
    elif overflow.how == "right":
        target = size * extent / (extent + by)
    else:
        return None
    return next((i for i, s in enumerate(found.sizes) if s <= target + 1e-6),
                len(found.sizes) - 1)


def probe_job(ctx: BuildContext, composer: CardComposer, groups: list[DeckGroup],
              fit: FitState, gi: int, tries: list[tuple[int, dict[str, int], str]]):
    """The render job trying cards alone: a page for each (card, steps, fit name) of
    `tries`, the card's front at those steps (the text box is the same on any sheet)."""
    group = groups[gi]
    width, height = group.size.width, group.size.height
    # pages twice the card's height: text running past the card is laid out in full,
    # so the overflow is measured, not cut off at the page's edge
    pages = [Page(width, 2 * height, "front", [Face(ci, "front", Box(0, 0, width, height))])
             for ci, _, _ in tries]
    probe = DeckGroup(group.deck, group.cards, group.size, group.size_where,
                      Imposition("probe", width, 2 * height, False, 1, None, None, None,
                                 pages))
    # only the overflows are wanted: laid out, not drawn (a quarter of a render)
    return dataclasses.replace(sheet_job(ctx, composer, probe, gi, pages, fit, tries),
                               layout_only=True)


def does_not_fit(composer: CardComposer, groups: list[DeckGroup], fit: FitState, gi: int,
                 ci: int, box: str, overflow, steps: dict[str, int] | None = None):
    """(path, message, line) for a box that overflows at `steps` (default: as `fit` has
    it), its smallest size or one its template does not shrink."""
    overflow = replace(overflow, name=fit_name(gi, ci) + f":{box}")
    html = composer.front(groups[gi], gi, ci, 0.0, fit.of(gi, ci) if steps is None
                          else steps)
    return _does_not_fit(groups[gi], ci, box, overflow, html)


def _does_not_fit(group: DeckGroup, ci: int, box: str, overflow, html: str):
    """(path, message, line) for a box whose text overflows at its smallest size."""
    card = group.cards[ci]
    smallest = _smallest_size(html, overflow.name)
    what_box = "its text box" if box == "text" else f"its {box} box"
    how = overflow.describe().replace(overflow.name, what_box)
    at = (f"even at {smallest} pt, the smallest size {card.template} allows"
          if smallest else f"and {card.template} does not shrink text")
    return (card.path, f"card {card.id} ({card.label}) of deck '{group.deck.id}': "
            f"the text does not fit: {how} {at}; shorten it", card.line)


def _card_of(name: str) -> tuple[int | None, int | None, str]:
    card, _, box = name.partition(":")
    parts = card.split("-")
    if len(parts) == 3 and parts[0] == "card" and parts[1].isdigit() and parts[2].isdigit():
        return int(parts[1]), int(parts[2]), box or "text"
    return None, None, ""


_FONT_SIZE = re.compile(r"font-size:\s*([0-9.]+)pt")


def _fit_tag(html: str, fit_name: str) -> str:
    """The start tag of the box `fit_name` ("" if there is none)."""
    start = html.find(f'data-fit="{fit_name}"')
    if start < 0:
        return ""
    return html[html.rfind("<", 0, start):html.find(">", start)]


def _font_size(html: str, fit_name: str) -> float | None:
    """The font size (pt) the box `fit_name`'s own style sets, if any."""
    found = _FONT_SIZE.search(_fit_tag(html, fit_name))
    return float(found[1]) if found else None


_SMALLEST = re.compile(r'data-fit-smallest="([^"]*)"')


def _smallest_size(html: str, fit_name: str) -> str | None:
    """The size, if the box `fit_name` is set at the smallest its template allows (the
    template then marks it data-fit-smallest="SIZE")."""
    found = _SMALLEST.search(_fit_tag(html, fit_name))
    return found[1] if found else None
