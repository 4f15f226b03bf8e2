"""render/weasy/cell_widths.py: a table cell measured once for what decides its widths. A
document laid out after another in the same worker (a chapter a fit step tighter) comes
out byte for byte as WeasyPrint makes it alone, its cells measured again only where
something that sets a width differs."""

from __future__ import annotations

import itertools

import pytest

from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.weasy import cell_widths, registry
from printshop.resources import TEMPLATES_DIR

_EPOCHS = itertools.count(7_000_001)   # a build of its own: the memo starts empty

ROWS = ["Acting", "Alchemy", "Anchor hauling", "Bagpipe playing", "Bare-knuckle boxing",
        "Basket weaving", "Beekeeping", "Astronomy and star lore"]


def _html(table_class: str, extra: str = "") -> str:
    rows = "".join(
        f"<tr><td class='roll'>{2 * i + 1}–{2 * i + 2}</td><td>{name}</td>"
        f"<td><b>STR</b> or <i>DEX</i>, {'never ' * (i % 3)}both</td></tr>"
        for i, name in enumerate(ROWS))
    return (f"<html lang='en'><body><div class='{table_class}'><table><thead><tr>"
            f"<th>d16</th><th>Skill</th><th>Stat</th></tr></thead><tbody>{rows}</tbody>"
            f"</table><table class='collapsed'><tr><td>roll</td><td class='thick'>what "
            f"happens</td></tr><tr><td>2–12</td><td>nothing good</td></tr></table>"
            f"{extra}</div></body></html>")


CSS = """
@page { size: 110mm 150mm; margin: 8mm; }
body { font: 9pt/1.3 "Vollkorn"; hyphens: auto; }
table { margin-bottom: 2mm; }
td, th { padding: 0.5mm 1.5mm; }
td.roll { white-space: nowrap; font-variant-numeric: tabular-nums; }
table.collapsed { border-collapse: collapse; } table.collapsed td { border: 0.5pt solid; }
table.collapsed td.thick { border-left-width: 3pt; }
.tight { line-height: 1.1; } .tight td { padding-top: 0.2mm; padding-bottom: 0.2mm; }
.spaced td { letter-spacing: 0.08em; }
.padded td { padding-left: 4mm; }
.bold td { font-weight: bold; }
"""


def _render(table_class: str, epoch: int, extra: str = "") -> bytes:
    fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))
    job = RenderJob(html=_html(table_class, extra), stylesheets=(fonts, Stylesheet(text=CSS)),
                    roots=(str(TEMPLATES_DIR),), base_url=TEMPLATES_DIR.as_uri() + "/",
                    source="test")
    job.epoch = epoch
    return render_job(job).pdf


def _stock(table_class: str, extra: str = "") -> bytes:
    with registry.switched({"cell-widths"}):
        return _render(table_class, next(_EPOCHS), extra)


@pytest.fixture
def measured(monkeypatch):
    """How many cells WeasyPrint's own code measured."""
    from weasyprint.layout import preferred

    count = {"cells": 0}
    original = preferred.table_cell_min_content_width

    def counted(*args):
        count["cells"] += 1
        return original(*args)

    monkeypatch.setattr(preferred, "table_cell_min_content_width", counted)
    return count


def test_the_patch_is_active_here():
    assert registry.active("cell-widths")


@pytest.mark.parametrize("second", ["tight", "spaced", "padded", "bold"])
def test_a_document_after_another_is_as_weasyprint_makes_it(second):
    # the second document differs from the first by one thing: its line height and vertical
    # padding (a fit step: its cells' widths are those measured), or a thing that sets a
    # width (letter spacing, padding, weight: measured again)
    epoch = next(_EPOCHS)
    first = _render("plain", epoch)
    after = _render(second, epoch)
    assert first == _stock("plain")
    assert after == _stock(second)
    assert after != first


def test_a_fit_step_measures_no_cell_again(measured):
    epoch = next(_EPOCHS)
    _render("plain", epoch)
    first = measured["cells"]
    _render("tight", epoch)
    assert first > 20 and measured["cells"] == first      # every cell of "tight" kept
    _render("spaced", epoch)
    assert measured["cells"] > first + 20                  # letter spacing: measured again


def test_a_new_build_measures_again(measured):
    _render("plain", next(_EPOCHS))
    first = measured["cells"]
    _render("plain", next(_EPOCHS))
    assert measured["cells"] == 2 * first


def test_a_cell_holding_something_else_is_measured_every_time(measured):
    # an inline block (and so a picture, a nested table) is not among the plain boxes a
    # measure is kept for
    extra = ("<table><tr><td><span style='display: inline-block; width: 12mm'>box</span>"
             "</td><td>text</td></tr></table>")
    epoch = next(_EPOCHS)
    _render("plain", epoch, extra)
    first = measured["cells"]
    _render("plain", epoch, extra)
    assert measured["cells"] == first + 1
    assert _render("tight", epoch, extra) == _stock("tight", extra)


def test_a_property_left_out_of_the_key_would_show(monkeypatch):
    # the check above has teeth: were letter spacing not part of what a measure is kept
    # for, the spaced table would take the plain one's widths and come out otherwise
    monkeypatch.setattr(cell_widths, "KEYS", tuple(k for k in cell_widths.KEYS
                                                   if k != "letter_spacing"))
    epoch = next(_EPOCHS)
    _render("plain", epoch)
    assert _render("spaced", epoch) != _stock("spaced")
