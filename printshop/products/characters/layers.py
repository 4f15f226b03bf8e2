"""Pregen sheets drawn in layers: each class's form laid out once, each sheet only what was
rolled (printshop/render/pdf/layers.py has the drawing side).

1. `collect`: the pack's sheets are made in the template's "values" layer once, only to learn
   what each rolled slot prints (a stat of 13, a save of +1) and the pieces of its lists
   (products/characters/lists.py): the stamps each form needs.
2. `prepare`: one render job per form (class, and whether its sheets carry a kit's seat
   mark): the template's "form" layer for the first character of that form, the "band"
   page (the form's bottom row alone) and the "lists" page (that character's lists, to
   stack the others' from), and their slots' geometry; then every distinct stamp of the
   pack laid out once (in an even number of equal jobs).
3. `job`: a chunk of sheets in the "values" layer, the form's parts replaced by spacers of the
   form's sizes and the lists by their columns' stacked heights; the worker draws the form
   and the stamps over each page.

A sheet that would not come out the same this way (a stamp that wraps differently from the
form's text) is made the plain way ("full" layer) in the same chunk; a chunk whose values
page reports an overflow (the armour and weapons lines taller than the form leaves them) is
rendered again the plain way by the caller (`plain_job`), where a real overflow is an error.
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from printshop.products.characters.job import LayeredSheet
from printshop.products.characters.lists import ListsModel, kind_of
from printshop.render.checks import FitCheck
from printshop.render.job_warnings import collect_warnings
from printshop.render.pdf.layers import FormArt, Overlay, PageArt, place_stamp

# Stamps go in an even number of equal jobs (two workers finish them together; constants,
# not the machine's cores, so the pack's bytes do not depend on the machine) of
# STAMPS_PER_JOB to MOST_STAMPS_PER_JOB: each job's PDF has its own subset of each font,
# which every chunk drawing one of its stamps copies, and a job of 400 stamps grew a
# worker to 103 MB (the 1,000-sheet pack's peak)
STAMPS_PER_JOB = 40
MOST_STAMPS_PER_JOB = 150
# A stamp costs ~4 ms, a piece laid out on its sheet ~1 ms: the lists are stacked from stamps
# when the pack is big enough for its pieces to repeat (47 sheets took the same time
# either way, 80 a tenth less stacked, 12 a tenth more)
LISTS_FROM = 50
NEEDED = ("page", "content", "lower", "bottom", "seed", "combat", "wearing")


def _stamp_jobs(looks: list[tuple]) -> list[list[tuple]]:
    """The stamps (sorted: those with the same ancestors together) cut into an even number
    of jobs that take about the same time. A stamp's time grows with its text (laid out in
    one flow, render/pdf/stamp_pages.py: a thief's skills table, ~550 characters of HTML,
    ~21 ms, a stat ~1.4 ms): cut by count, one job held all the thief tables and took 2.7
    times as long as the others."""
    pairs = -(-len(looks) // (2 * MOST_STAMPS_PER_JOB))
    count = 2 * pairs if len(looks) > STAMPS_PER_JOB else 1
    # ~1 ms a stamp and 1 ms a 25 characters: fitted to the six jobs of a 200-pack (twice),
    # the longest job 0.38 s of CPU where it was 0.65-0.91 s (1 ms and 1 ms an 80 characters,
    # what a stamp a page cost)
    weights = [1 + len(look[-1]) / 25 for look in looks]
    share = sum(weights) / count
    parts: list[list[tuple]] = [[] for _ in range(count)]
    done = 0.0
    for look, weight in zip(looks, weights):
        # each stamp goes to the job its middle falls in
        parts[min(count - 1, int((done + weight / 2) / share))].append(look)
        done += weight
    return [part for part in parts if part]


@lru_cache(maxsize=None)
def _column_slot(column: int) -> str:
    return f"L{column}"   # one string per column, not one per piece of every sheet


def _zero():
    box = SimpleNamespace(x=0, y=0, width=0, height=0)
    return SimpleNamespace(top=0, bottom_margin=0, bottom_height=0, seed=box, mark=box,
                           wearing=box, lists=None)


class LayeredSheets:
    def __init__(self, pregens, paper: str, pack: dict, make_job):
        self.pregens, self.paper, self.pack = pregens, paper, pack
        self.make_job = make_job     # html → RenderJob (the product's settings)
        self.texts: dict[int, dict[str, str]] = {}   # character → slot → text
        self.pieces: dict[int, list[tuple[str, str]]] = {}  # character → its lists' pieces
        self.lists: dict[int, tuple] = {}   # character → (column heights, PageArt.pieces)
        self.keys: dict[int, tuple] = {}
        self.forms: dict[tuple, SimpleNamespace] = {}
        self.enabled = True

    # --- 1. what each sheet prints in its slots --------------------------------------------
    def collect(self, characters, marks: dict[int, str] | None = None) -> None:
        marks = marks or {}
        shared: dict[str, str] = {}
        for c in characters:
            texts: dict[str, str] = {}
            pieces: dict[str, str] = {}

            def sink(name, text, texts=texts, pieces=pieces) -> str:
                # one copy of each name and text however many sheets print it (a
                # 1,000-sheet pack's parent holds ~40,000 of them until its chunks are made)
                name, text = str(name), str(text)
                name, text = shared.setdefault(name, name), shared.setdefault(text, text)
                (pieces if kind_of(name) else texts)[name] = text
                return ""

            self.pregens._render("sheets", [c], self.paper, self.pack, marks=marks,
                                 layers={c.index: "values"}, geometry={c.index: _zero()},
                                 collect=sink)
            self.texts[c.index] = texts
            self.pieces[c.index] = list(pieces.items())
            self.keys[c.index] = (c.class_id, bool(marks.get(c.index)))

    # --- 2. the forms and their stamps ---------------------------------------------------------
    def prepare(self, renderer, characters, marks: dict[int, str] | None = None,
                warn=None) -> None:
        """`warn`: called with each warning of the forms and stamps (a label in the form
        that no font can print is the pack's problem like any other)."""
        marks = marks or {}
        firsts: dict[tuple, Any] = {}
        for c in characters:
            firsts.setdefault(self.keys[c.index], c)
        order = sorted(firsts)
        jobs = []
        for key in order:
            first = firsts[key]
            html = self.pregens._render("sheets", [first], self.paper, self.pack,
                                        marks={first.index: marks[first.index]} if key[1]
                                        else {}, layers={first.index: "form"})
            # what fits is checked on the values pages
            jobs.append(self.make_job(html).without(FitCheck).extended(
                LayeredSheet(slots=True)))
        results = renderer.render(jobs)
        for key, result in zip(order, results):
            self.forms[key] = self._form(key, result, firsts[key],
                                         stack_lists=len(characters) >= LISTS_FROM)
        results += self._stamps(renderer, characters)
        for warning in collect_warnings(results):
            if warn:
                warn(warning)

    def _form(self, key, result, first, stack_lists: bool = True):
        found = LayeredSheet.slots_in(result)
        slots = found[0] if found and result.pages in (2, 3) else {}
        band = found[1] if slots else {}
        if any(name not in slots for name in NEEDED) or "bottom" not in band or \
                (key[1] and "mark" not in slots):
            return None   # a template without layers (a project's own): sheets made plainly
        page = slots["page"]

        def rel(slot):
            return SimpleNamespace(x=slot.x - page.x, y=slot.y - page.y, width=slot.width)

        lower, bottom, combat, wearing = (slots[n] for n in ("lower", "bottom", "combat",
                                                             "wearing"))
        geometry = SimpleNamespace(
            top=lower.top - slots["content"].content_y,
            bottom_margin=bottom.margin_top,
            bottom_height=bottom.margin_height - bottom.margin_top,
            seed=rel(slots["seed"]), mark=rel(slots["mark"]) if key[1] else None,
            wearing=SimpleNamespace(x=wearing.x - page.x, y=wearing.y - page.y,
                                    width=wearing.width,
                                    height=combat.y + combat.height - wearing.y),
            lists=None)
        # a third page holds the first character's lists: stacked from there, if they
        # stack there as WeasyPrint laid them out
        lists: ListsModel | None = ListsModel(found[2] if result.pages == 3 else {})
        if not stack_lists or lists is None or \
                not lists.check([name for name, _ in self.pieces.get(first.index, ())]):
            lists = None
        return SimpleNamespace(art=FormArt(pdf=result.pdf, band_top_px=band["bottom"].top),
                               geometry=geometry, slots=slots, places={}, lists=lists,
                               first=first.index)

    def _stamps(self, renderer, characters) -> list:
        """Every distinct stamp of the pack laid out once: a slot's text looks the same in
        every form where the slot has the same ancestors and width, so forms share them.
        The pieces of the sheets' lists are stamps too (products/characters/lists.py)."""
        distinct: dict[tuple, tuple] = {}   # look → (slot, text)
        uses: list[tuple] = []              # (form key, slot name, text, look)
        piece_looks: dict[int, list | None] = {}   # character → its pieces' looks, or None

        def look_of(slot, text):
            look = (slot.chain, slot.tag, slot.cls, round(slot.content_width, 3), text)
            distinct.setdefault(look, (slot, text))
            return look

        for c in characters:
            key = self.keys[c.index]
            form = self.forms.get(key)
            if form is None:
                continue
            for name, text in self.texts[c.index].items():
                slot = form.slots.get(name)
                if slot is None:
                    continue
                uses.append((key, name, text, look_of(slot, text)))
            if form.lists is not None:
                samples = [form.lists.sample(kind_of(name)) for name, _ in self.pieces[c.index]]
                piece_looks[c.index] = None if None in samples else [
                    (name, look_of(slot, text)) for slot, (name, text)
                    in zip(samples, self.pieces[c.index])]
        parts = _stamp_jobs(sorted(distinct))
        jobs = []
        for part in parts:
            jobs.append(self.make_job("").without(FitCheck).extended(LayeredSheet(
                slots=True, stamps=tuple(distinct[look] for look in part))))
        results = renderer.render(jobs) if jobs else []
        self.stamp_pdfs = {n: result.pdf for n, result in enumerate(results)}
        found = {}
        for n, (part, result) in enumerate(zip(parts, results)):
            stamps = LayeredSheet.slots_in(result)
            for i, look in enumerate(part):
                stamp = stamps[i].get(f"s{i}") if i < len(stamps) else None
                found[look] = (n, i, stamp)
        for key, name, text, look in uses:
            form = self.forms[key]
            if (name, text) in form.places:
                continue
            source, page, stamp = found[look]
            moved = place_stamp(form.slots[name], stamp)
            form.places[(name, text)] = None if moved is None else (source, page) + moved
        self._check_pieces(found, piece_looks)
        for index, looks_of_pieces in piece_looks.items():
            if looks_of_pieces is not None and self.forms[self.keys[index]].lists is not None:
                self.lists[index] = self._stack(self.forms[self.keys[index]].lists,
                                                looks_of_pieces, found)
        self.pieces = {}   # stacked: their HTML is in the stamps (a big pack's parent: MBs)
        return results

    def _check_pieces(self, found, piece_looks) -> None:
        """A form's lists are stacked from stamps only if the stamps of its first character
        came out as that character's pieces did on the lists page (same lines, same height):
        otherwise a stamp is not what the sheet would show, and its sheets keep their lists."""
        for form in self.forms.values():
            if form is None or form.lists is None:
                continue
            for name, look in piece_looks.get(form.first) or ():
                stamp, slot = found[look][2], form.lists.slots[name]
                if stamp is None or stamp.lines != slot.lines or \
                        abs(stamp.content_height - slot.content_height) > 0.001:
                    form.lists = None
                    break

    @staticmethod
    def _stack(lists, looks_of_pieces, found):
        pieces = []
        for name, look in looks_of_pieces:
            stamp = found[look][2]
            if stamp is None:
                return None
            pieces.append((name, stamp.content_height))
        stacked = lists.stack(pieces)
        if stacked is None:
            return None
        heights, placed = stacked
        looks = dict(looks_of_pieces)
        art = []
        for piece in placed:
            source, page, stamp = found[looks[piece.name]]
            art.append((source, page, piece.x - stamp.content_x, piece.y - stamp.content_y,
                        _column_slot(piece.column)))
        return heights, art

    # --- 3. a chunk ------------------------------------------------------------------------------
    def job(self, characters, marks: dict[int, str] | None = None):
        marks = marks or {}
        layers: dict = {}
        geometry: dict = {}
        forms: dict = {}
        pages: list = []
        sources: set = set()
        for c in characters:
            key = self.keys.get(c.index)
            form = self.forms.get(key) if key is not None else None
            art = None
            if form is not None:
                stamps = [form.places.get((name, text))
                          for name, text in sorted(self.texts[c.index].items())]
                if all(stamps):
                    lists = self.lists.get(c.index)
                    art = PageArt(form=key, stamps=list(stamps),
                                  pieces=list(lists[1]) if lists else [])
                    layers[c.index], geometry[c.index] = "values", form.geometry
                    if lists:
                        geometry[c.index] = SimpleNamespace(
                            **{**vars(form.geometry), "lists": lists[0]})
                    forms[key] = form.art
                    sources.update(stamp[0] for stamp in stamps + art.pieces)
            pages.append(art)
            if self.pregens.options.backs:
                pages.append(None)
        html = self.pregens._render("sheets", characters, self.paper, self.pack,
                                    marks=marks, layers=layers, geometry=geometry,
                                    collect=lambda name, text: "")
        job = self.make_job(html)
        if forms:
            job = job.extended(LayeredSheet(overlay=Overlay(
                forms=forms, pages=pages, stamps={n: self.stamp_pdfs[n] for n in sorted(sources)})))
        return job

    def redo_overflowing(self, renderer, work, results, chunk_of):
        """Chunks whose values pages overflowed (or came out as more pages than sheets),
        rendered again the plain way
        (`work` items are the product's; `chunk_of(n)`: item n's characters and marks)."""
        again = [n for n, (item, result) in enumerate(zip(work, results))
                 if item[2] and (FitCheck.overflows(result) or result.pages != item[1])]
        if not again:
            return results
        redone = renderer.render([self.plain_job(*chunk_of(n)) for n in again])
        results = list(results)
        for n, result in zip(again, redone):
            results[n] = result
        return results

    def plain_job(self, characters, marks: dict[int, str] | None = None):
        return self.make_job(self.pregens._render("sheets", characters, self.paper,
                                                  self.pack, marks=marks or {}))
