"""A pack's stamps laid out in one flow and cut into a page each (render/pdf/stamp_pages.py):
each stamp's page draws what a page of its own would, at the same place relative to its
box, and nothing of the others; what the cut cannot attribute is laid out a page a stamp."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from printshop.products.characters.job import LayeredSheet
from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.pdf import stamp_pages
from printshop.render.weasy.slots import Slot

CSS = """
@page { size: 150mm 60mm; margin: 8mm; }
body { font: 10pt/1.3 "Roboto Condensed"; color: #222; }
.box { border: 1px solid #333; padding: 2mm; }
.dim { color: #8a7f70; }
.num { font: 700 13pt "Roboto Condensed"; text-align: center; }
table { border-collapse: collapse; }
td { border-bottom: 0.6pt solid #555; padding: 0.4mm 1mm; }
"""
CHAIN = (("body", "pack"), ("section", "sheet"), ("div", "box"))
ICON = ('<svg viewBox="0 0 10 10" style="width: 1em; height: 1em"><path fill="#a00" '
        'd="M1 1 L9 1 L5 9 Z"/></svg>')


def _slot(tag: str, cls: str, width: float, chain=CHAIN) -> Slot:
    return Slot(x=0, y=0, width=width, height=0, top=0, margin_top=0, margin_height=0,
                content_x=0, content_y=0, content_width=width, chain=chain, tag=tag,
                cls=cls, margin_width=width)


REQUESTS = (
    (_slot("span", "num", 40.0), "13"),
    (_slot("span", "num", 40.0), "+1"),
    (_slot("p", "", 300.0), '<span class="dim">Looks:</span> Eyepatch over a perfectly good '
                            "eye, and a story about it for anyone who asks twice"),
    (_slot("div", "", 260.0, CHAIN[:2]),
     "<table><tr><td>Climb</td><td>DEX</td></tr><tr><td>Sneak</td><td>DEX</td></tr></table>"),
    (_slot("p", "", 200.0), f"{ICON} Torch, 6 turns"),
    (_slot("span", "num", 40.0), "−2"),
)


def _stamps(monkeypatch=None, cut=True):
    if monkeypatch is not None and not cut:
        monkeypatch.setattr(stamp_pages, "cut", lambda *args: None)
    job = RenderJob(html="", stylesheets=(Stylesheet(text=CSS),), roots=(), base_url="",
                    source="stamps").extended(LayeredSheet(slots=True, stamps=REQUESTS))
    result = render_job(job)
    assert not result.warnings and not result.lost
    return result


def _drawn(pdf: bytes, number: int, slot: Slot) -> tuple[str, list]:
    """A page's text and each thing it draws (kind, box in pt) from the slot's top."""
    page = pdfium.PdfDocument(pdf)[number]
    height = page.get_height()
    ref = height - slot.top * 0.75
    things = sorted((obj.type, *(round(v - (ref if i % 2 else 0), 1)
                                 for i, v in enumerate(obj.get_bounds())))
                    for obj in page.get_objects(max_depth=3))
    return page.get_textpage().get_text_range(), things


def test_each_stamp_page_draws_what_a_page_of_its_own_does(monkeypatch):
    cuts = []
    real = stamp_pages.cut
    monkeypatch.setattr(stamp_pages, "cut", lambda *a: cuts.append(real(*a)) or cuts[-1])
    flowed = _stamps()
    assert cuts and cuts[0] is not None       # text, borders and an icon's path: all cut
    monkeypatch.undo()
    paged = _stamps(monkeypatch, cut=False)
    assert flowed.pages == paged.pages == len(REQUESTS)
    ours, theirs = LayeredSheet.slots_in(flowed), LayeredSheet.slots_in(paged)
    assert sum(slot.top > 40 for page in ours for slot in page.values()) >= 3  # in one flow
    for number in range(len(REQUESTS)):
        mine, own = ours[number][f"s{number}"], theirs[number][f"s{number}"]
        assert (mine.lines, mine.content_width) == (own.lines, own.content_width)
        text, things = _drawn(flowed.pdf, number, mine)
        assert (text, things) == _drawn(paged.pdf, number, own), number
    # each page prints the words of its own stamp's source text, nothing of the others
    for number, (_, source) in enumerate(REQUESTS):
        text = _drawn(flowed.pdf, number, ours[number][f"s{number}"])[0]
        assert text.split() == re.sub(r"<[^>]+>", " ", source).split(), number


def test_what_the_cut_cannot_place_is_laid_out_a_page_a_stamp(monkeypatch):
    # (a picture: the cut does not attribute images; here forced by saying None)
    result = _stamps(monkeypatch, cut=False)
    slots = LayeredSheet.slots_in(result)
    assert result.pages == len(REQUESTS)
    assert all(f"s{n}" in slots[n] for n in range(len(REQUESTS)))


@pytest.mark.parametrize("operators, why", [
    ("1 0 0 -1 0 100 cm q 0.75 0 0 0.75 0 0 cm BT /F1 10 Tf 1 0 0 -1 5 20 Tm (a) Tj "
     "0 12 Td (b) Tj ET Q", "a relative move inside a text object"),
    ("1 0 0 -1 0 100 cm q 0.75 0 0 0.75 0 0 cm q /Im0 Do Q Q", "a picture"),
    ("1 0 0 -1 0 100 cm q 0.75 0 0 0.75 0 0 cm 0 0 m 5 80 l S Q", "a path across stamps"),
    ("q BT /F1 10 Tf 1 0 0 -1 5 20 Tm (a) Tj ET Q", "no base transforms"),
])
def test_content_the_cut_cannot_attribute_is_refused(operators, why):
    import pikepdf

    pdf = pikepdf.new()
    stream = pikepdf.Stream(pdf, operators.encode())
    ops = pikepdf.parse_content_stream(stream)
    stamps = [(0, Slot(x=0, y=10, width=50, height=15, top=10, margin_top=0,
                       margin_height=15, content_x=0, content_y=10, content_width=50)),
              (1, Slot(x=0, y=25, width=50, height=15, top=25, margin_top=0,
                       margin_height=15, content_x=0, content_y=25, content_width=50))]
    assert stamp_pages._cut_page(ops, stamps) is None, why


def test_a_clip_and_the_transforms_around_it_are_written_again_in_their_order():
    # an icon: clipped to its box, then scaled; written for its stamp as it was drawn
    import pikepdf

    pdf = pikepdf.new()
    ops = pikepdf.parse_content_stream(pikepdf.Stream(pdf, (
        b"1 0 0 -1 0 100 cm q 0.75 0 0 0.75 0 0 cm q 0 10 50 15 re W n 2 0 0 2 0 0 cm "
        b"0.5 0 0 rg 1 6 m 5 6 l 5 9 l f Q Q")))
    stamps = [(0, Slot(x=0, y=10, width=50, height=15, top=10, margin_top=0,
                       margin_height=15, content_x=0, content_y=10, content_width=50))]
    made = pikepdf.unparse_content_stream(stamp_pages._cut_page(ops, stamps)[0]).split()
    drawn = made[made.index(b"q", 14):]    # (after the base and its q)
    assert drawn[:drawn.index(b"f") + 1] == (
        b"q 0 10 50 15 re W n 2 0 0 2 0 0 cm 0.5 0 0 rg 1 6 m 5 6 l 5 9 l f").split()
