"""render/weasy/fit.py: blocks that run past their data-fit-frame column are named."""

from __future__ import annotations

from printshop.render.weasy.fit import find_overflows

PAGE = """
<style>@page {{ size: 100mm 100mm; margin: 0 }} body {{ margin: 0; font: 10pt/1.4 serif }}
.col {{ display: inline-block; vertical-align: top; width: 40mm; height: 60mm }}
.block {{ margin-bottom: 2mm }}</style>
<div class="col" {frame}>
  <div class="block" data-fit="first">one<br>two</div>
  <div class="block" data-fit="second">{lines}</div>
  <div class="block" data-fit="third">last</div>
</div>
"""


def layout(frame: str, lines: int):
    from weasyprint import HTML

    html = PAGE.format(frame=frame, lines="line<br>" * lines)
    return HTML(string=html).render()


def test_blocks_past_the_frame_are_reported_with_the_frame():
    overflows = find_overflows(layout('data-fit-frame="column 1"', 30))
    by_name = {o.name: o for o in overflows}
    assert set(by_name) == {"second", "third"}
    assert by_name["second"].frame == "column 1" and by_name["second"].how == "bottom"
    assert by_name["third"].by_mm > by_name["second"].by_mm > 0
    assert by_name["third"].describe().startswith("third reaches past the bottom of column 1")


def test_blocks_that_fit_are_not_reported():
    assert find_overflows(layout('data-fit-frame="column 1"', 3)) == []


def test_without_a_frame_growing_blocks_are_not_overflows():
    assert find_overflows(layout("", 30)) == []


COLUMNS = """
<style>@page {{ size: 100mm 50mm; margin: 0 }} body {{ margin: 0 }}
section {{ columns: 2; column-gap: 0; column-fill: auto; height: 50mm }}
div {{ margin: 0 0 {margin}; height: {height} }}</style>
<section data-source="01-a.md"><div data-line="3">a</div><div data-line="5">b</div></section>
"""


def test_a_trailing_margin_past_the_page_is_not_a_block_outside_its_column():
    """Cairn's d100 table ended at its column's foot, its wrapper's bottom margin hanging
    past the page: WeasyPrint's column box counts that margin in its height, and the column
    box itself was reported as "a block 1.3 mm past the bottom of its column"."""
    from weasyprint import HTML

    from printshop.render.weasy.fit import find_outside

    document = HTML(string=COLUMNS.format(margin="5mm", height="50mm")).render()
    assert len(document.pages) == 1
    assert find_outside(document) == []
    # what does reach past the page still is: a block taller than the column
    outside = find_outside(HTML(string=COLUMNS.format(margin="0", height="55mm")).render())
    assert outside and outside[0].how == "bottom" and outside[0].source == "01-a.md"
