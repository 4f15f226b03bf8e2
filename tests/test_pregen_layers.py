"""Sheets drawn in layers (products/characters/layers.py, render/pdf/layers.py): each class's form
laid out once, the rolled values over it. Whatever the layers, a pack must read and look
as if every sheet had been laid out whole, fail the same way when a sheet does not fit,
and come out byte-identical for the same seed.
"""

from __future__ import annotations

import re
import subprocess

import pypdfium2 as pdfium
import pytest

from conftest import RULES_SRC, own_pregens_css, pdf_reader
from printshop.errors import PrintshopError
from printshop.render.pdf.layers import SHARED_PREFIX
from test_pregens import roll

COUNT = 8   # several classes, some of them more than once


def words_and_boxes(pdf: bytes, tmp_path) -> list[list[tuple[str, float, float]]]:
    """Per page, its words in poppler's reading order, each with its top left corner."""
    path = tmp_path / "pack.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [[(word, float(x), float(y)) for x, y, word in re.findall(
        r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<', page)]
        for page in out.split("<page ")[1:]]


def in_lines(page: list[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    """A page's words line by line, left to right. (poppler's reading order follows the
    order a page draws its text in, which layers change: a form first, values after.)"""
    return sorted(page, key=lambda word: (round(word[2]), word[1]))


def pixels(pdf: bytes, page: int):
    document = pdfium.PdfDocument(pdf)
    image = document[page].render(scale=60 / 72).to_pil().convert("L")
    document.close()
    return image


@pytest.fixture(scope="module")
def layered():
    return roll(count=COUNT, seed="layers", layered=True).data


@pytest.fixture(scope="module")
def whole():
    return roll(count=COUNT, seed="layers", layered=False).data


def drawn_layers(pdf: bytes) -> list[list[int]]:
    """Per sheet, the objects of the forms and stamps drawn over it."""
    return [sorted(xobject.indirect_reference.idnum
                   for name, xobject in page["/Resources"].get("/XObject", {}).items()
                   if name.startswith(SHARED_PREFIX))
            for page in pdf_reader(pdf).pages[1:]]


def test_layers_are_smaller_jobs_than_whole_sheets(layered, whole):
    """The values pages really are drawn in layers: each sheet draws a form (an XObject),
    and the file holds each form and stamp once however many sheets draw it."""
    drawn = drawn_layers(layered)
    assert all(drawn) and len(drawn) == COUNT
    uses = sum(len(objects) for objects in drawn)
    assert len({n for objects in drawn for n in objects}) < uses / 2
    assert not any(drawn_layers(whole))


def test_every_word_of_every_sheet_is_where_the_whole_sheet_has_it(layered, whole, tmp_path):
    ours, theirs = words_and_boxes(layered, tmp_path), words_and_boxes(whole, tmp_path)
    assert len(ours) == len(theirs) == COUNT + 1
    for number, (a, b) in enumerate(zip(ours, theirs), start=1):
        # the same words, line by line, left to right
        a, b = in_lines(a), in_lines(b)
        assert [w for w, _, _ in a] == [w for w, _, _ in b], number
        # ... at the same place: WeasyPrint rounds glyph widths per document, so a word at
        # the end of a long line may sit a fraction of a point away, never more
        worst = max(max(abs(xa - xb), abs(ya - yb)) for (_, xa, ya), (_, xb, yb) in zip(a, b))
        assert worst < 0.5, (number, worst)


def test_the_pages_look_the_same(layered, whole):
    from PIL import ImageChops

    for page in range(1, COUNT + 1):
        a, b = pixels(layered, page), pixels(whole, page)
        diff = ImageChops.difference(a, b)
        different = sum(diff.histogram()[64:])
        # anti-aliasing of a few glyph edges, not a box, a rule or a word out of place
        assert different < 0.004 * a.width * a.height, (page, different)


def test_the_same_seed_gives_the_same_bytes_on_any_number_of_workers(layered):
    assert roll(count=COUNT, seed="layers", layered=True, jobs=1).data == layered


def test_a_kit_mark_is_printed_on_layered_sheets(tmp_path):
    from printshop.builder import build_project

    build_project(RULES_SRC, tmp_path, names=["con-kit"], strict=True)
    texts = [page.extract_text() for page in pdf_reader(
        (tmp_path / "con-kit.pdf").read_bytes()).pages]
    sheets = [t for t in texts if "named by the player on your left" in t]
    assert sheets and all("TABLE" in t.upper() and "SEAT" in t.upper() for t in sheets)


def test_armour_and_weapons_taller_than_the_form_leaves_them_fall_back_to_whole_sheets(
        project_copy):
    """The form's top row is laid out without the rolled armour and weapons lines; when
    they need more room than it leaves, those sheets are laid out whole instead."""
    own_pregens_css(project_copy, after="\n.wearing { font-size: 16pt; }\n")
    same_chunks = {"sheets_per_chunk": 4}   # layered packs chunk bigger by default
    layered = roll(count=COUNT, seed="layers", layered=True, source=project_copy,
                   **same_chunks).data
    whole = roll(count=COUNT, seed="layers", layered=False, source=project_copy,
                 **same_chunks).data
    assert layered == whole


def test_a_sheet_that_does_not_fit_is_still_an_error_naming_the_character(project_copy):
    own_pregens_css(project_copy, after="\n.abilities li { font-size: 30pt; }\n")
    with pytest.raises(PrintshopError) as exc:
        roll(count=2, source=project_copy, layered=True)
    messages = [p.message for p in exc.value.problems]
    assert len(messages) == 2 and "the sheet of #1" in messages[0]
    assert "overflows its bottom" in messages[0]


def test_a_cached_form_keeps_its_slots(tmp_path):
    """`serve` and the builder keep render results by content (render/chunks.py): a form
    taken from there must still say where its slots are, or every sheet is made whole."""
    from printshop.products.characters.job import LayeredSheet
    from printshop.render.chunks import ChunkCache
    from printshop.render.job import RenderResult
    from printshop.render.pdf.layers import Slot

    slot = Slot(x=1.5, y=2.0, width=30.0, height=12.25, top=1.0, margin_top=1.0,
                margin_height=14.0, content_x=2.5, content_y=3.0, content_width=28.0,
                line_y=3.0, lines=(12.25,), chain=(("body", "pregens"), ("div", "stat prime")),
                tag="span", cls="stat-score ps-hide")
    result = RenderResult(pdf=b"%PDF-1.7 form", pages=1,
                          found={LayeredSheet.name: [{"score-STR": slot}]})
    cache = ChunkCache(tmp_path)
    cache.put("k", result)
    cache.commit()
    assert LayeredSheet.slots_in(ChunkCache(tmp_path).get("k")) == [{"score-STR": slot}]


def test_stamp_jobs_take_about_the_same_time_however_long_their_texts():
    """A thief's skills table costs a stamp ~15 times a stat's (in one flow: ~21 ms and
    ~1.4 ms, measured on a 200-pack's jobs): the jobs are cut by text as well as by count,
    in order (stamps with the same ancestors stay together), an even number of them."""
    from printshop.products.characters.layers import _stamp_jobs

    looks = [(("stat",), "13")] * 300 + [(("thief",), "x" * 570)] * 40   # sorted, long last
    jobs = _stamp_jobs(looks)
    assert len(jobs) % 2 == 0 and [look for job in jobs for look in job] == looks

    def cost(job):   # ms, as measured: 1 a stamp, 1 more every ~25 characters
        return sum(1 + len(text) / 25 for _, text in job)

    costs = [cost(job) for job in jobs]
    assert max(costs) < 1.1 * min(costs)
    # cut by count alone, the job holding the tables would take twice the others' time
    assert any(len(job) < 100 for job in jobs)
    assert _stamp_jobs(looks[:30]) == [looks[:30]]    # a few stamps: one job
