"""Pregen sheets drawn in layers: each class's form laid out once, each sheet only what was
rolled (printshop/render/layers.py has the drawing side).

1. `collect`: the pack's sheets are made in the template's "values" layer once, only to learn
   what each rolled slot prints (a stat of 13, a save of +1): the stamps each form needs.
2. `prepare`: one render job per form (class, and whether its sheets carry a kit's seat
   mark): the template's "form" layer for the first character of that form (and the "band"
   page: the form's bottom row alone) and its slots' geometry; then every distinct stamp
   of the pack laid out once (two jobs, one per worker).
3. `job`: a chunk of sheets in the "values" layer, the form's parts replaced by spacers of the
   form's sizes; the worker draws the form and the stamps over each page.

A sheet that would not come out the same this way (a stamp that wraps differently from the
form's text) is made the plain way ("full" layer) in the same chunk; a chunk whose values
page reports an overflow (the armour and weapons lines taller than the form leaves them) is
rendered again the plain way by the caller (`plain_job`), where a real overflow is an error.
"""

from __future__ import annotations

from types import SimpleNamespace

from printshop.render.layers import FormArt, Overlay, PageArt, place_stamp
from printshop.render.pdf import collect_warnings

STAMPS_PER_JOB = 40
NEEDED = ("page", "content", "lower", "bottom", "seed", "combat", "wearing")


def _zero():
    box = SimpleNamespace(x=0, y=0, width=0, height=0)
    return SimpleNamespace(top=0, bottom_margin=0, bottom_height=0, seed=box, mark=box,
                           wearing=box)


class LayeredSheets:
    def __init__(self, pregens, paper: str, pack: dict, make_job):
        self.pregens, self.paper, self.pack = pregens, paper, pack
        self.make_job = make_job     # html → RenderJob (the product's settings)
        self.texts: dict[int, dict[str, str]] = {}   # character → slot → text
        self.keys: dict[int, tuple] = {}
        self.forms: dict[tuple, SimpleNamespace] = {}
        self.enabled = True

    # --- 1. what each sheet prints in its slots --------------------------------------------
    def collect(self, characters, marks: dict[int, str] | None = None) -> None:
        marks = marks or {}
        for c in characters:
            texts: dict[str, str] = {}
            self.pregens._render("sheets", [c], self.paper, self.pack, marks=marks,
                                 layers={c.index: "values"}, geometry={c.index: _zero()},
                                 collect=lambda n, t, into=texts: into.__setitem__(
                                     str(n), str(t)) or "")
            self.texts[c.index] = texts
            self.keys[c.index] = (c.class_id, bool(marks.get(c.index)))

    # --- 2. the forms and their stamps ---------------------------------------------------------
    def prepare(self, renderer, characters, marks: dict[int, str] | None = None,
                warn=None) -> None:
        """`warn`: called with each warning of the forms and stamps (a label in the form
        that no font can print is the pack's problem like any other)."""
        marks = marks or {}
        firsts: dict[tuple, object] = {}
        for c in characters:
            firsts.setdefault(self.keys[c.index], c)
        order = sorted(firsts)
        jobs = []
        for key in order:
            first = firsts[key]
            html = self.pregens._render("sheets", [first], self.paper, self.pack,
                                        marks={first.index: marks[first.index]} if key[1]
                                        else {}, layers={first.index: "form"})
            job = self.make_job(html)
            job.slots = True
            job.fit_check = False   # what fits is checked on the values pages
            jobs.append(job)
        results = renderer.render(jobs)
        for key, result in zip(order, results):
            self.forms[key] = self._form(key, result)
        results += self._stamps(renderer, characters)
        for warning in collect_warnings(results):
            if warn:
                warn(warning)

    def _form(self, key, result):
        slots = result.slots[0] if result.slots and result.pages == 2 else {}
        band = result.slots[1] if slots else {}
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
                                    height=combat.y + combat.height - wearing.y))
        return SimpleNamespace(art=FormArt(pdf=result.pdf, band_top_px=band["bottom"].top),
                               geometry=geometry, slots=slots, places={})

    def _stamps(self, renderer, characters) -> list:
        """Every distinct stamp of the pack laid out once: a slot's text looks the same in
        every form where the slot has the same ancestors and width, so forms share them."""
        distinct: dict[tuple, tuple] = {}   # look → (slot, text)
        uses: list[tuple] = []              # (form key, slot name, text, look)
        for c in characters:
            key = self.keys[c.index]
            form = self.forms.get(key)
            if form is None:
                continue
            for name, text in self.texts[c.index].items():
                slot = form.slots.get(name)
                if slot is None:
                    continue
                look = (slot.chain, slot.tag, slot.cls, round(slot.content_width, 3), text)
                distinct.setdefault(look, (slot, text))
                uses.append((key, name, text, look))
        looks = sorted(distinct)
        # small jobs: both workers lay stamps out, and neither grows by a big job's memory
        parts = [looks[i:i + STAMPS_PER_JOB] for i in range(0, len(looks), STAMPS_PER_JOB)]
        jobs = []
        for part in parts:
            job = self.make_job("")
            job.stamps = tuple(distinct[look] for look in part)
            job.slots, job.fit_check = True, False
            jobs.append(job)
        results = renderer.render(jobs) if jobs else []
        self.stamp_pdfs = {n: result.pdf for n, result in enumerate(results)}
        found = {}
        for n, (part, result) in enumerate(zip(parts, results)):
            for i, look in enumerate(part):
                stamp = result.slots[i].get(f"s{i}") if i < len(result.slots) else None
                found[look] = (n, i, stamp)
        for key, name, text, look in uses:
            form = self.forms[key]
            if (name, text) in form.places:
                continue
            source, page, stamp = found[look]
            moved = place_stamp(form.slots[name], stamp)
            form.places[(name, text)] = None if moved is None else (source, page) + moved
        return results

    # --- 3. a chunk ------------------------------------------------------------------------------
    def job(self, characters, marks: dict[int, str] | None = None):
        marks = marks or {}
        layers, geometry, forms, pages, sources = {}, {}, {}, [], set()
        for c in characters:
            key = self.keys.get(c.index)
            form = self.forms.get(key)
            art = None
            if form is not None:
                stamps = [form.places.get((name, text))
                          for name, text in sorted(self.texts[c.index].items())]
                if all(stamps):
                    art = PageArt(form=key, stamps=list(stamps))
                    layers[c.index], geometry[c.index] = "values", form.geometry
                    forms[key] = form.art
                    sources.update(stamp[0] for stamp in stamps)
            pages.append(art)
            if self.pregens.options.backs:
                pages.append(None)
        html = self.pregens._render("sheets", characters, self.paper, self.pack,
                                    marks=marks, layers=layers, geometry=geometry,
                                    collect=lambda name, text: "")
        job = self.make_job(html)
        if forms:
            job.overlay = Overlay(forms=forms, pages=pages,
                                  stamps={n: self.stamp_pdfs[n] for n in sorted(sources)})
        return job

    def redo_overflowing(self, renderer, work, results, chunk_of):
        """Chunks whose values pages overflowed (or came out as more pages than sheets),
        rendered again the plain way
        (`work` items are the product's; `chunk_of(n)`: item n's characters and marks)."""
        again = [n for n, (item, result) in enumerate(zip(work, results))
                 if item[2] and (result.overflows or result.pages != item[1])]
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
