"""What render/weasy/memos.py remembers (line splits, Pango set-ups): the pages are byte for
byte the ones WeasyPrint makes without each of them (switched off in the registry), and the
work is done less; the two memos that did not pay are gone."""

from __future__ import annotations

import pytest

from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.weasy import registry
from printshop.resources import TEMPLATES_DIR

PARAGRAPH = ("The hammer falls and the torch gutters, and somebody has to carry the "
             "treasure out of the dark. ")
HTML = f"""<html lang="en"><body>
<div class="cols">{"".join(f"<p>Paragraph {i}: {PARAGRAPH * 4}</p>" for i in range(8))}
<h1>Spanning heading</h1>
<table class="collapsed"><tr><td>roll</td><td>what happens when the dice say so</td></tr>
<tr><td>2-12</td><td>nothing good, and then something worse</td></tr></table>
{"".join(f"<p>More {i}: {PARAGRAPH * 3}</p>" for i in range(8))}</div>
<div class="narrow"><div class="half">Half of a narrow box, <u>underlined</u>,
<s>struck</s>, <span class="caps">small caps</span> and 0123 in tabular figures.</div></div>
<div class="wide"><div class="half">Half of a wide box: the same style, another width.
</div></div>
<p lang="fr">Une phrase en français, avec des césures automatiques bienvenues.</p>
<p dir="rtl" lang="ar">نص من اليمين إلى اليسار</p>
{"".join(f'<p class="cut">{PARAGRAPH * 3}</p>' for _ in range(2))}
<table class="separate"><tr><td style="width: 30%">A third or so</td><td>the rest of the
row, in a table whose borders do not collapse</td></tr></table>
</body></html>"""
CSS = """
@page { size: 120mm 160mm; margin: 10mm; }
body { font: 9pt/1.3 "Vollkorn"; hyphens: auto; }
.cols { columns: 2; column-gap: 5mm; }
h1 { column-span: all; font: 14pt "Pirata One"; }
p { text-align: justify; margin: 0 0 0.4em; }
table { width: 100%; }
table.collapsed { border-collapse: collapse; } table.collapsed td { border: 1pt solid; }
table.separate td { border: 0.5pt solid; padding: 2%; }
.narrow { width: 40mm; } .wide { width: 90mm; }
.half { width: 50%; min-width: 10%; max-width: 80%; padding: 1mm 5%; margin: 0 auto 2mm;
        border: 1pt solid; box-sizing: border-box; }
.caps { font-variant: small-caps; font-variant-numeric: tabular-nums; }
.cut { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
u { text-decoration: underline wavy; }
"""


def _render() -> bytes:
    fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))
    return render_job(RenderJob(html=HTML, stylesheets=(fonts, Stylesheet(text=CSS)),
                                roots=(str(TEMPLATES_DIR),),
                                base_url=TEMPLATES_DIR.as_uri() + "/", source="test")).pdf


@pytest.mark.parametrize("name", ["line-splits", "pango-setups"])
def test_each_memo_makes_weasyprints_own_pdf(name):
    ours = _render()
    with registry.switched({name}):
        assert not registry.active(name)
        theirs = _render()
    assert ours == theirs


def test_remembered_work_is_done_less(monkeypatch):
    from weasyprint.text import line_break

    # the real work, counted where the original calls it from its module
    work = {"shaped": 0}
    create_layout = line_break.create_layout

    def shaped(*args):
        work["shaped"] += 1
        return create_layout(*args)

    monkeypatch.setattr(line_break, "create_layout", shaped)
    with registry.switched({"line-splits"}):
        _render()
        their_work = dict(work)
    work.update(shaped=0)
    _render()
    assert work["shaped"] < their_work["shaped"] * 0.8, (work, their_work)


def test_the_memos_that_did_not_pay_are_gone():
    # issue 27: used-lengths (0.8 % of the kit's CPU), style-attributes (1.4 % of three
    # decks') and cell-widths (a table cell's widths kept across documents: 1.01x the
    # guide's CPU, 10 pairs) were dropped; WeasyPrint's own functions run
    import inspect

    from weasyprint import css
    from weasyprint.layout import percent, preferred

    assert {"used-lengths", "style-attributes", "cell-widths"}.isdisjoint(
        p.name for p in registry.patches())
    assert "printshop" not in inspect.getsource(preferred.table_cell_min_max_content_width)
    assert "printshop" not in inspect.getsource(percent.resolve_percentages)
    assert "printshop" not in inspect.getsource(css.find_style_attributes)
