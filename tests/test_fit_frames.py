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
