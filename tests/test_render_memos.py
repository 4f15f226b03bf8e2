"""What render/weasy/memos.py remembers (line splits, used lengths, Pango set-ups): the pages
are byte for byte the ones WeasyPrint makes without them, and the work is done less."""

from __future__ import annotations

from printshop.render.job import RenderJob, Stylesheet, render_job
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


def test_remembered_work_makes_the_same_pages_and_is_done_less(monkeypatch):
    from weasyprint.layout import inline, percent, preferred
    from weasyprint.text import line_break
    from weasyprint.text.line_break import Layout

    _render()     # a worker's first render puts the memos in place
    split, lengths, setup = (inline.split_first_line, percent.resolve_percentages,
                             Layout.setup)
    assert all(getattr(f, "printshop", False) for f in (split, lengths, setup))
    # the real work, counted where the originals call it from their modules
    work = {"shaped": 0, "resolved": 0}
    create_layout, resolve_one = line_break.create_layout, percent.resolve_one_percentage

    def shaped(*args):
        work["shaped"] += 1
        return create_layout(*args)

    def resolved(*args):
        work["resolved"] += 1
        return resolve_one(*args)

    monkeypatch.setattr(line_break, "create_layout", shaped)
    monkeypatch.setattr(percent, "resolve_one_percentage", resolved)

    with monkeypatch.context() as plain:       # WeasyPrint as it comes
        plain.setattr(inline, "split_first_line", split.original)
        plain.setattr(preferred, "split_first_line", split.original)
        for module in lengths.modules:
            plain.setattr(module, "resolve_percentages", lengths.original)
        plain.setattr(Layout, "setup", setup.original)
        theirs = _render()
        their_work = dict(work)
    work.update(shaped=0, resolved=0)
    ours = _render()
    assert ours == theirs
    assert work["shaped"] < their_work["shaped"] * 0.8, (work, their_work)
    assert work["resolved"] < their_work["resolved"] * 0.8, (work, their_work)


def test_a_style_copied_to_change_it_does_not_take_the_originals_lengths():
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout import percent

    _render()
    style = _a_style()
    box = boxes.BlockBox("div", style, None, [])
    percent.resolve_percentages(box, (200, 100))
    assert box.width == 100 and style.printshop_used
    changed = style.copy()
    changed["width"] = _dimension(25, "%")
    other = boxes.BlockBox("div", changed, None, [])
    percent.resolve_percentages(other, (200, 100))
    assert other.width == 50
    again = boxes.BlockBox("div", style, None, [])
    percent.resolve_percentages(again, (400, 100))     # another containing block
    assert again.width == 200


def _dimension(value, unit):
    from weasyprint.css.properties import Dimension

    return Dimension(value, unit)


def _a_style():
    from weasyprint import CSS, HTML
    from weasyprint.css import get_all_computed_styles
    from weasyprint.text.fonts import FontConfiguration

    html = HTML(string='<div style="width: 50%">x</div>')
    fonts = FontConfiguration()
    styles = get_all_computed_styles(html, user_stylesheets=[CSS(string="")],
                                     font_config=fonts)
    element = html.etree_element.find(".//div")
    return styles(element)


def test_elements_with_the_same_style_attribute_share_one_computed_style(monkeypatch):
    from weasyprint import CSS, HTML, css

    _render()     # the memos are in place
    assert getattr(css.find_style_attributes, "printshop", False)

    def styles(find):
        monkeypatch.setattr(css, "find_style_attributes", find)
        html = HTML(string="<body>" + "".join(
            f'<div class="card" style="position: absolute; left: 0mm; top: 0mm;"><p>{n}</p>'
            "</div>" for n in range(9)) + "</body>")
        style_for = css.get_all_computed_styles(html, user_stylesheets=[CSS(string="")])
        cards = html.etree_element.iter("div")
        return {id(style_for(card)) for card in cards}, html

    shared, _ = styles(css.find_style_attributes)
    apart, _ = styles(css.find_style_attributes.original)
    assert len(shared) == 1 and len(apart) == 9
