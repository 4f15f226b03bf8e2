"""Balanced columns (render/weasy/column_balance.py): the pages WeasyPrint's own balancing makes,
in far fewer layouts of the columns."""

from __future__ import annotations

import random
from math import inf

import pytest

from conftest import pdf_text
from printshop.render.job import RenderJob, render_job
from printshop.render.weasy import column_balance, registry
from printshop.render.weasy.column_balance import BalanceSearch


def weasyprint_steps(start, max_height, lost0, model):
    """WeasyPrint 70's rule, as its column layout applies it: (height, overflows, tries)."""
    height, step, tries = start, lost0, 0
    while True:
        fits, lost, *_ = model(height)
        tries += 1
        step = min(step, lost)
        if fits:
            return height, False, tries
        height += 1 if step == inf else step
        if height > max_height:
            return max_height, True, tries


def searched(start, max_height, lost0, model, exact=False, count=2):
    """The same loop driven by BalanceSearch: (height, overflows, tries, last height tried).
    A model may also say what a try left over and how high its tallest column was."""
    search, height, tries = BalanceSearch(start, max_height, lost0, exact, count), start, 0
    while True:
        fits, lost, *hints = model(height)
        tries += 1
        last = height
        height = search.next(height, fits, lost, *hints)
        if search.done:
            return height, search.overflows, tries, last


def random_model(rng, start, max_height, monotonic=True):
    """Content that fits from `fit_at` up, and from `need_from` up a column's next box
    says how much more height it needs (`monotonic`), or only at some heights."""
    fit_at = rng.uniform(start, max_height + 40)
    need_from = rng.uniform(start, fit_at + 20)
    if monotonic:   # needs that only shrink as the columns grow
        needs = sorted((rng.uniform(1.5, 30) for _ in range(200)), reverse=True)
    else:
        needs = [rng.choice([rng.uniform(1.5, 30), inf]) for _ in range(200)]

    def model(height):
        lost = needs[min(199, int((height - need_from) // 7))] if height >= need_from else inf
        return height >= fit_at, lost
    return model


def test_the_search_ends_where_weasyprint_would_in_fewer_tries():
    rng = random.Random(13)
    fewer = 0
    for _ in range(400):
        start = rng.uniform(20, 400)
        max_height = start + rng.uniform(0, 700)
        lost0 = rng.choice([inf, inf, rng.uniform(2, 20)])
        model = random_model(rng, start, max_height)
        expected, overflows, their_tries = weasyprint_steps(start, max_height, lost0, model)
        height, our_overflows, our_tries, last = searched(start, max_height, lost0, model)
        assert (height, our_overflows) == (pytest.approx(expected), overflows)
        if not overflows:
            assert last == pytest.approx(height)   # the layout left behind is the chosen one
        fewer += our_tries < their_tries
        assert our_tries <= their_tries + 3
    assert fewer > 200


def test_where_fitting_does_not_grow_with_height_the_columns_still_fit():
    # no longer exactly WeasyPrint's height (the search skips heights the crawl would
    # try), but always a height at which the content was seen to fit
    rng = random.Random(14)
    for _ in range(400):
        start = rng.uniform(20, 400)
        max_height = start + rng.uniform(0, 700)
        model = random_model(rng, start, max_height, monotonic=False)
        height, overflows, _, last = searched(start, max_height, inf, model)
        assert overflows or (model(height)[0] and last == height)


def test_where_history_matters_the_search_makes_weasyprints_own_tries():
    rng = random.Random(15)
    for _ in range(200):
        start = rng.uniform(20, 400)
        max_height = start + rng.uniform(0, 700)
        lost0 = rng.choice([inf, rng.uniform(2, 20)])
        model = random_model(rng, start, max_height, monotonic=False)
        expected, overflows, their_tries = weasyprint_steps(start, max_height, lost0, model)
        height, our_overflows, our_tries, last = searched(start, max_height, lost0, model,
                                                          exact=True)
        assert (height, our_overflows, our_tries) == (expected, overflows, their_tries)


def test_a_long_crawl_takes_a_few_tries():
    # the guide's contents page: fits 130 px above the average, no box ever says by how much
    height, overflows, tries, _ = searched(120.0, 916.0, inf, lambda h: (h >= 250, inf))
    assert (height, overflows) == (250.0, False)
    assert tries <= 20   # WeasyPrint: 131 layouts
    assert weasyprint_steps(120.0, 916.0, inf, lambda h: (h >= 250, inf))[2] == 131


def crawl_with_hints(fit_at: float, count: int = 2, error: float = 0.0):
    """Content that fits from `fit_at` up, in `count` columns: a try below it leaves over
    what the columns lack (about `error` px off), a try that fits says its tallest
    column is up to a line lower than the height tried."""
    def model(height):
        if height >= fit_at:
            return True, inf, 0.0, fit_at - 0.4
        return False, inf, max(1.0, count * (fit_at - height) + error), height - 10
    return model


def test_what_a_try_left_over_finds_the_height_in_a_few_tries():
    # the guide's contents page, no box ever saying by how much: 15 tries, now 4
    height, overflows, tries, last = searched(740.52, 1000.0, inf, crawl_with_hints(825.3))
    assert (height, overflows, last) == (825.52, False, 825.52)
    assert tries <= 4


@pytest.mark.parametrize("seed", range(6))
def test_hints_that_mislead_cost_a_few_tries_never_another_height(seed):
    rng = random.Random(seed)
    hinted_tries = plain_tries = 0
    for _ in range(200):
        start = rng.uniform(20, 400)
        max_height = start + rng.uniform(0, 700)
        fit_at = rng.uniform(start, max_height + 40)
        good = rng.random() < 0.5
        error = 0.0 if good else rng.uniform(-300, 300)

        hinted = crawl_with_hints(fit_at, error=error)

        def model(height, hinted=hinted, good=good):
            fits, lost, left, used = hinted(height)
            return fits, lost, left, (used if good or rng.random() < 0.5
                                      else rng.uniform(0, 900))
        expected, overflows, _ = weasyprint_steps(start, max_height, inf, model)
        height, our_overflows, our_tries, last = searched(start, max_height, inf, model)
        assert (height, our_overflows) == (pytest.approx(expected), overflows)
        if not overflows:
            assert last == pytest.approx(height)
        # the same search told nothing: a few tries fewer at the most (two hints that
        # mislead on the way up, two on the way down, and the halving they shifted)
        plain = searched(start, max_height, inf, lambda h: model(h)[:2])
        assert plain[:2] == (height, our_overflows)
        assert our_tries <= plain[2] + 6
        if good:
            hinted_tries, plain_tries = hinted_tries + our_tries, plain_tries + plain[2]
    assert hinted_tries < plain_tries / 2


def test_a_long_run_of_equal_steps_takes_a_few_tries():
    # chapter 05's last columns: every box needs 5.9 px more, until 841 px
    model = lambda h: (h >= 841, 5.9)   # noqa: E731
    theirs = weasyprint_steps(747.0, 916.0, 5.9, model)
    ours = searched(747.0, 916.0, 5.9, model)
    assert ours[:2] == theirs[:2] and theirs[2] == 17 and ours[2] <= 10


def test_content_that_never_fits_overflows_at_the_page_height():
    assert searched(100.0, 300.5, inf, lambda h: (False, inf))[:2] == (300.5, True)
    assert searched(100.0, 300.5, 40.0, lambda h: (False, inf))[:2] == (300.5, True)


# --- against WeasyPrint's own column layout ---------------------------------------------

def _document(sections: int) -> str:
    body = "".join(f"<h3 style='margin: 4px 0'>Section {i}</h3><p style='margin: 0'>Some "
                   "words here, and more words that make this paragraph run over three or "
                   "four lines in a narrow column of text.</p>" for i in range(sections))
    return (f"<html><body><div style='columns: 2; font-size: 11px'>{body}"
            "<div style='column-span: all'>After the columns</div></div></body></html>")


@pytest.fixture
def column_layouts(monkeypatch):
    """Counts the layouts of column boxes, and switches WeasyPrint's own balancing back on."""
    from weasyprint.layout import block

    states = {s.name: s.state for s in registry.apply_all()}
    assert states["column-balance"] == "active", \
        "WeasyPrint's column layout is not the text patched"
    patched = block.columns_layout
    # WeasyPrint's own balancing, with the fix printshop always makes to the same function
    theirs = registry.edited_function(column_balance.FUNCTION,
                                      frozenset({"column-span-resume"}))
    counted = {"layouts": 0}
    real = block.block_box_layout

    def counting(context, box, *args, **kwargs):
        if getattr(box, "is_column", False):
            counted["layouts"] += 1
        return real(context, box, *args, **kwargs)

    monkeypatch.setattr(block, "block_box_layout", counting)

    def render(html: str, original: bool) -> tuple[bytes, int]:
        counted["layouts"] = 0
        monkeypatch.setattr(block, "columns_layout",
                            theirs if original else patched)
        result = render_job(RenderJob(html=html, stylesheets=(), roots=("/nonexistent",),
                                      base_url="file:///nonexistent/", source="test"))
        monkeypatch.setattr(block, "columns_layout", patched)
        return result.pdf, counted["layouts"]
    return render


@pytest.mark.parametrize("sections", [3, 8])
def test_the_same_pdf_as_weasyprints_balancing(column_layouts, sections):
    theirs, their_layouts = column_layouts(_document(sections), original=True)
    ours, our_layouts = column_layouts(_document(sections), original=False)
    assert ours == theirs
    if sections == 3:        # a 1 px crawl of about 60 layouts of both columns
        # (42 layouts before the tries took hints from what was left over)
        assert their_layouts > 100 and our_layouts < their_layouts / 5


# --- the last try's columns taken for the final layout (render/weasy/column_trial.py) ---------

def _long_document(extra: str = "", style: str = "") -> str:
    """Columns over several pages (full pages, then a balanced end), with list markers
    (absolutely positioned boxes) and whatever `extra` puts in each section."""
    sections = "".join(
        f"<h3 style='margin: 4px 0'>Section {i}</h3>{extra}<p style='margin: 0'>Some words "
        "here, and more words that make this paragraph run over three or four lines in a "
        f"narrow column of text.</p><ul><li>one thing</li><li>another {i}</li></ul>"
        for i in range(60))
    return (f"<html><head><style>@page {{ size: 120mm 90mm; margin: 8mm }}</style></head>"
            f"<body><p>Before the columns.</p><div style='columns: 2; font-size: 9px; "
            f"{style}'>{sections}<div style='column-span: all'>Spanning</div>"
            f"{sections[:600]}</div></body></html>")


@pytest.mark.parametrize("extra, style", [
    ("", ""),
    ("<span style='float: left; width: 8mm; height: 4mm; background: red'></span>", ""),
    ("", "direction: rtl"),
    ("<span style='position: absolute; left: 0'>*</span>", "position: relative"),
    # what a try left over is laid out once more and forgotten: its footnotes too
    ("<span style='float: footnote'>A note.</span>", ""),
])
def test_taking_the_last_try_gives_weasyprints_pdf(column_layouts, extra, style):
    html = _long_document(extra, style)
    theirs, their_layouts = column_layouts(html, original=True)
    ours, our_layouts = column_layouts(html, original=False)
    assert ours == theirs
    assert our_layouts <= their_layouts
    if not extra and not style:
        assert our_layouts < their_layouts * 0.75
    # and against the source: every section of it on the pages, in order (a try laid out
    # once more to measure what it left over must leave nothing out, nor print it twice)
    text = " ".join(pdf_text(ours).split())
    at = 0
    for i in range(60):
        for words in (f"Section {i}", f"another {i}"):
            found = text.find(words, at)
            assert found >= 0, f"{words!r} is missing from the pages"
            at = found + len(words)
    assert text.count("Spanning") == 1



def _count_takes(monkeypatch) -> list[bool]:
    """For each final column layout, whether it came from the last try."""
    from printshop.render.weasy import column_trial

    taken = []
    real = column_trial.ColumnTrial.take

    def counting(self, *args):
        result = real(self, *args)
        taken.append(result[0] is not column_trial.ColumnTrial.MISSING)
        return result

    monkeypatch.setattr(column_trial.ColumnTrial, "take", counting)
    return taken


def test_full_pages_of_columns_are_laid_out_once(column_layouts, monkeypatch):
    taken = _count_takes(monkeypatch)
    column_layouts(_long_document(), original=False)
    # the columns of the full pages come from the last try; not those after the paragraph
    # on the first page (its try says the page is empty, the final layout that it is
    # not), nor a balanced run whose last try was not at the height chosen
    assert sum(taken) > 10 and sum(taken) > 0.8 * len(taken)


def test_floats_keep_weasyprints_own_tries(column_layouts, monkeypatch):
    taken = _count_takes(monkeypatch)
    column_layouts(_long_document("<span style='float: right'>f</span>"), original=False)
    assert taken and not any(taken)


# --- content whose fit is not monotonic in the height: WeasyPrint's own tries ----------------

def _grid_in_columns(style: str = "", extra: str = "") -> str:
    """WeasyPrint's own test_grid_in_columns (its tests/layout/test_grid.py), with text after
    the columns: a grid container keeps where its items broke from one layout to the next,
    and whether the columns fit is not monotonic in their height."""
    return ("<html><head><style>@page { size: 12cm; margin: 0 } body { margin: 0 } "
            "section { height: 10cm }</style></head><body>"
            f"<div style='columns: 2; {style}'>{extra}<div style='display: grid'><div>"
            "<section></section><section></section><section></section></div></div></div>"
            "<p>After the columns</p></body></html>")


@pytest.mark.parametrize("style, extra", [
    ("", ""),
    ("direction: rtl", ""),
    ("", "<div style='float: left; width: 1cm; height: 1cm'></div>"),
])
def test_a_grid_in_columns_is_balanced_as_weasyprint_balances_it(column_layouts, style, extra):
    import pypdfium2 as pdfium

    html = _grid_in_columns(style, extra)
    theirs, _ = column_layouts(html, original=True)
    ours, _ = column_layouts(html, original=False)
    assert ours == theirs
    pages = pdfium.PdfDocument(ours)
    assert len(pages) == 2      # (the search alone put "After the columns" on a third)
    assert "After the columns" in pages[1].get_textpage().get_text_range()
