"""Faces laid out on pages of their own, placed on their sheets (render/pdf/impose.py), and the
card sheets made that way (products/cards/compose.py `imposed_sheets`)."""

from __future__ import annotations

import io

import pikepdf

from printshop.products.cards.job import CardFaces
from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.pdf.impose import MM_TO_PT, place_faces
from printshop.resources import TEMPLATES_DIR
from tests.conftest import pdf_reader

CSS = """
@page { size: 100mm 60mm; margin: 0; }
@page face { size: 30mm 40mm; margin: 0; }
body { margin: 0; font: 8pt "Roboto Condensed"; }
.sheet { position: relative; width: 100mm; height: 60mm; }
.mark { position: absolute; left: 1mm; top: 1mm; width: 2mm; height: 2mm; background: red; }
.face-page { page: face; break-before: page; position: relative; width: 30mm; height: 40mm; }
.face { position: absolute; left: 0; top: 0; width: 30mm; height: 40mm; background: #ccc; }
h2 { font-size: 9pt; margin: 2mm; }
"""


def _pdf() -> bytes:
    html = ('<html><body><div class="sheet"><div class="mark"></div></div>'
            '<div class="face-page"><div class="face"><h2 id="one">First card</h2>'
            '<p><a href="https://example.org/x">a link</a></p></div></div>'
            '<div class="face-page"><div class="face"><h2>Second card</h2></div></div>'
            '</body></html>')
    fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))
    result = render_job(RenderJob(html=html, stylesheets=(fonts, Stylesheet(text=CSS)),
                                  roots=(str(TEMPLATES_DIR),),
                                  base_url=TEMPLATES_DIR.as_uri() + "/", source="test"))
    assert result.pages == 3
    return result.pdf


def _words(pdf: bytes) -> dict[str, tuple[float, float]]:
    """Each word's top left corner on the first page, in points from the page's top left
    (poppler reads text inside form XObjects where it is drawn)."""
    import re
    import subprocess

    out = subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-bbox", "-", "-"],
                         input=pdf, capture_output=True, check=True).stdout.decode()
    return {m[3]: (float(m[1]), float(m[2])) for m in re.finditer(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]+)</word>', out)}


def test_faces_are_drawn_where_the_sheet_puts_them_and_their_pages_dropped():
    source = _pdf()
    alone = _words(_face_page(source, 1))
    # the first face at (10, 5) mm, the second at (60, 15)
    placed = place_faces(source, (((0, 10, 5, 30, 40), (1, 60, 15, 30, 40)),))
    with pikepdf.open(io.BytesIO(placed)) as doc:
        assert len(doc.pages) == 1
        assert len(doc.pages[0].Resources.XObject) == 2
    words = _words(placed)
    x, y = alone["First"]
    assert abs(words["First"][0] - (x + 10 * MM_TO_PT)) < 0.01
    assert abs(words["First"][1] - (y + 5 * MM_TO_PT)) < 0.01
    x, y = _words(_face_page(source, 2))["Second"]
    assert abs(words["Second"][0] - (x + 60 * MM_TO_PT)) < 0.01
    assert abs(words["Second"][1] - (y + 15 * MM_TO_PT)) < 0.01


def _face_page(pdf: bytes, index: int) -> bytes:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        keep = pikepdf.new()
        keep.pages.append(doc.pages[index])
        out = io.BytesIO()
        keep.save(out)
        return out.getvalue()


def test_a_faces_links_bookmarks_and_destinations_move_onto_its_sheet():
    source = _pdf()
    with pikepdf.open(io.BytesIO(source)) as doc:
        link, = [a for a in doc.pages[1].Annots if a.Subtype == "/Link"]
        x0, y0 = float(link.Rect[0]), float(link.Rect[1])
        with doc.open_outline() as outline:
            first = outline.root[0].destination
            top = float(first[3])
    placed = place_faces(source, (((0, 10, 5, 30, 40), (1, 60, 15, 30, 40)),))
    dx, dy = 10 * MM_TO_PT, 60 * MM_TO_PT - 45 * MM_TO_PT
    with pikepdf.open(io.BytesIO(placed)) as doc:
        sheet = doc.pages[0]
        moved, = [a for a in sheet.Annots if a.Subtype == "/Link"]
        assert abs(float(moved.Rect[0]) - (x0 + dx)) < 0.01
        assert abs(float(moved.Rect[1]) - (y0 + dy)) < 0.01
        assert moved.A.URI == "https://example.org/x"
        with doc.open_outline() as outline:
            titles = [(item.title, item.destination) for item in outline.root]
        assert [t for t, _ in titles] == ["First card", "Second card"]
        assert all(dest[0].objgen == sheet.obj.objgen for _, dest in titles)
        assert abs(float(titles[0][1][3]) - (top + dy)) < 0.01
        names = doc.Root.Names.Dests.Names
        assert str(names[0]) == "one" and names[1][0].objgen == sheet.obj.objgen


def test_a_sheet_of_one_face_shown_nine_times_lays_it_out_once(tmp_path):
    from printshop.builder import build_project
    from tests.test_products_cards import TINY, make_project

    seen = []
    from printshop.products.cards import compose as card_compose

    imposed = card_compose.CardComposer.imposed_sheets

    def recording(self, *args):
        html, placements, css = imposed(self, *args)
        seen.append(("face-back" in html, html.count(' face-page"'),
                     sum(len(p) for p in placements)))
        # a face's page is classed as its sheet was: `.sheet-back .x` still finds it
        side = "back" if "face-back" in html else "front"
        assert html.count(f'class="sheet sheet-{side} face-page"') == seen[-1][1]
        return html, placements, css

    card_compose.CardComposer.imposed_sheets = recording
    try:
        project = make_project(tmp_path / "p", "products:\n  tiny:\n    kind: cards\n"
                               "    decks: [tiny]\n", {"tiny": TINY})
        build_project(project, tmp_path / "out", strict=True)
    finally:
        card_compose.CardComposer.imposed_sheets = imposed
    # the tiny deck on one sheet: two different fronts; one back, laid out once, placed twice
    assert sorted(seen) == [(False, 2, 2), (True, 1, 2)]
    text = pdf_reader((tmp_path / "out" / "tiny.pdf").read_bytes()).pages[0].extract_text()
    assert "TD-01" in text and "TD-02" in text


def test_faces_that_did_not_come_out_one_a_page_are_not_placed_anywhere():
    # (a project's stylesheet that let a face run over onto a second page)
    import pytest

    with pytest.raises(ValueError, match="1 sheets and 1 card faces came out as 3 pages"):
        place_faces(_pdf(), (((0, 10, 5, 30, 40),),))


def test_a_sheet_job_whose_faces_ran_over_is_a_problem_naming_its_template():
    from dataclasses import replace

    fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))
    def sheet(text: str) -> str:
        return ('<html><body><div class="sheet"></div><div class="face-page"><div '
                f'class="face">{text}</div></div></body></html>')

    html = sheet("<p>too tall</p>" * 20)
    grows = CSS.replace(".face { position: absolute;", ".face { position: static;").replace(
        "position: relative; width: 30mm; height: 40mm;", "width: 30mm;").replace(
        "width: 30mm; height: 40mm; background", "width: 30mm; background")
    job = RenderJob(html=html, stylesheets=(fonts, Stylesheet(text=grows)),
        roots=(str(TEMPLATES_DIR),), base_url=TEMPLATES_DIR.as_uri() + "/",
        source="cards/sheet.html.j2 (tiny)",
        extensions=(CardFaces((((0, 0, 0, 30, 40),),)),))
    result = render_job(job)
    problem, = result.refused
    assert str(problem.path) == "cards/sheet.html.j2 (tiny)"
    assert "each card face must fit on one page" in problem.message
    assert render_job(replace(job, html=sheet("<p>fits</p>"))).refused == []
