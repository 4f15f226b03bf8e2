"""Fitting card text: a `data-fit` box whose text overflows is set one size smaller, down
to the smallest size its card's template allows. Which size each box of each card is set
at (FitState), and the probe render that finds the largest size that fits for every
overflowing box at once (fit_alone)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from printshop.cards.imposition import Box, Face, Imposition, Page
from printshop.errors import Problems
from printshop.products import BuildContext
from printshop.products.card_compose import CardComposer, fit_name, sheet_job
from printshop.products.card_settings import DeckGroup

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
    for overflow in result.overflows:
        gi, ci, box = _card_of(overflow.name)
        if gi is not None:
            found.setdefault((gi, ci, box), overflow)
    return found


def fit_alone(ctx: BuildContext, composer: CardComposer, groups: list[DeckGroup],
              fit: FitState, overflowing: dict, what: str) -> None:
    """Find the largest size at which each overflowing box fits, in one render: its card
    alone (the text box is the same on any sheet), once at every smaller size its template
    allows, a page each. Sets `fit`; a box that overflows even at its smallest size (or
    whose template does not shrink text) is a problem naming the card."""
    problems = Problems()
    # (group, card, box) → [(steps, fit name of the try)], smallest size last
    ladders: dict[tuple[int, int, str], list[tuple[dict[str, int], str]]] = {}
    for (gi, ci, box), overflow in sorted(overflowing.items()):
        group, steps = groups[gi], fit.of(gi, ci)
        html = composer.front(group, gi, ci, 0.0, steps)
        ladder = []
        while _smallest_size(html, fit_name(gi, ci) + f":{box}") is None and \
                len(ladder) < MAX_FIT_STEPS:
            steps = dict(steps, **{box: steps.get(box, 0) + 1})
            smaller = composer.front(group, gi, ci, 0.0, steps)
            if smaller == html:
                break   # the template does not shrink this box
            html = smaller
            ladder.append((steps, f"try-{gi}-{ci}-{len(ladder)}"))
        if not ladder:
            problems.add(*_does_not_fit(group, ci, box, overflow, html))
            continue
        ladders[(gi, ci, box)] = ladder
    problems.raise_if_any()
    if not ladders:
        return
    if ctx.progress:
        ctx.progress(f"{what}: setting the text of {len({k[:2] for k in ladders})} card(s) "
                     "smaller")
    jobs, job_groups = [], []
    for gi in sorted({gi for gi, _, _ in ladders}):
        group = groups[gi]
        width, height = group.size.width, group.size.height
        tries = [(ci, steps, name) for (g, ci, _), ladder in sorted(ladders.items())
                 if g == gi for steps, name in ladder]
        # pages twice the card's height: text running past the card is laid out in full,
        # so the overflow is measured, not cut off at the page's edge
        pages = [Page(width, 2 * height, "front", [Face(ci, "front", Box(0, 0, width, height))])
                 for ci, _, _ in tries]
        probe = DeckGroup(group.deck, group.cards, group.size, group.size_where,
                          Imposition("probe", width, 2 * height, False, 1, None, None, None,
                                     pages))
        jobs.append(sheet_job(ctx, composer, probe, gi, pages, fit, tries))
        job_groups.append(gi)
    failed: set[str] = set()   # "try-…:box" names that overflow
    found: dict[str, object] = {}
    for result in ctx.renderer.render(jobs):
        for overflow in result.overflows:
            failed.add(overflow.name)
            found[overflow.name] = overflow
    for (gi, ci, box), ladder in sorted(ladders.items()):
        fits = [steps for steps, name in ladder if f"{name}:{box}" not in failed]
        chosen = fits[0] if fits else ladder[-1][0]
        fit.steps[(gi, ci)] = dict(fit.of(gi, ci), **{box: chosen[box]})
        if not fits:
            last = found[f"{ladder[-1][1]}:{box}"]
            last = replace(last, name=fit_name(gi, ci) + f":{box}")
            html = composer.front(groups[gi], gi, ci, 0.0, fit.of(gi, ci))
            problems.add(*_does_not_fit(groups[gi], ci, box, last, html))
    problems.raise_if_any()


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


def _smallest_size(html: str, fit_name: str) -> str | None:
    """The size, if the box `fit_name` is set at the smallest its template allows (the
    template then marks it data-fit-smallest="SIZE")."""
    start = html.find(f'data-fit="{fit_name}"')
    if start < 0:
        return None
    tag_end = html.find(">", start)
    marker = 'data-fit-smallest="'
    at = html.find(marker, start, tag_end)
    if at < 0:
        return None
    end = html.find('"', at + len(marker))
    return html[at + len(marker):end]
