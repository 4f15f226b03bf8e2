"""Pictures printed coarser than a press asks for (render/weasy/pictures.py), and the book
naming each at the line that places it (products/book/art.py)."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from conftest import run_cli
from printshop.render.weasy.pictures import coarse_pictures


def png(width: int, height: int) -> str:
    data = io.BytesIO()
    Image.new("RGB", (width, height), (120, 60, 30)).save(data, "PNG")
    return "data:image/png;base64," + base64.b64encode(data.getvalue()).decode()


def laid_out(body: str):
    from weasyprint import HTML

    return HTML(string="<style>@page { size: 200mm 200mm; margin: 10mm }</style>"
                + body).render()


def test_a_picture_is_as_fine_as_its_pixels_over_the_inches_it_takes():
    # 600 px across 2 in: 300 ppi; the same pixels across 4 in: 150 ppi
    two, four = png(600, 300), png(600, 300)
    document = laid_out(f'<img src="{two}" style="width: 2in; height: 1in">'
                        f'<div style="break-before: page"><img src="{four}#b" '
                        'style="width: 4in; height: 2in"></div>')
    found = coarse_pictures(document, 300)
    assert [(p.page, round(p.ppi), round(p.width_mm), round(p.height_mm)) for p in found] \
        == [(2, 150, 102, 51)]
    assert found[0].src.endswith("#b")
    assert coarse_pictures(document, 150) == []


@pytest.mark.parametrize("fit, ppi", [("cover", 100), ("contain", 200), ("fill", 100)])
def test_a_cropped_picture_counts_the_axis_it_is_scaled_by(fit, ppi):
    # 400 × 200 px in a 2 in × 2 in box: cover scales by the height (100 ppi), contain by
    # the width (200 ppi); stretched to fill, the coarser axis decides
    document = laid_out(f'<img src="{png(400, 200)}" '
                        f'style="width: 2in; height: 2in; object-fit: {fit}">')
    found, = coarse_pictures(document, 1000)
    assert round(found.ppi) == ppi


def test_a_picture_printed_twice_is_named_once_at_its_biggest():
    picture = png(300, 300)
    document = laid_out(f'<img src="{picture}" style="width: 1in">'
                        f'<img src="{picture}" style="width: 3in">')
    found, = coarse_pictures(document, 300)
    assert round(found.ppi) == 100


def test_vector_pictures_have_no_pixels_to_run_short_of():
    svg = ("data:image/svg+xml;base64," + base64.b64encode(
        b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        b'<rect width="10" height="10"/></svg>').decode())
    assert coarse_pictures(laid_out(f'<img src="{svg}" style="width: 5in">'), 300) == []


def test_a_press_book_names_each_coarse_picture_at_its_line(tmp_path):
    from printshop.scaffold import new_project

    new_project(tmp_path / "game", "Game")
    game = tmp_path / "game"
    (game / "art").mkdir()
    Image.new("RGB", (120, 90), (200, 100, 50)).save(game / "art" / "small.png")
    Image.new("RGB", (3000, 2000), (50, 100, 200)).save(game / "art" / "big.png")
    (game / "art" / "credits.yaml").write_text(
        "small.png: {author: Test, licence: CC0}\nbig.png: {author: Test, licence: CC0}\n")
    chapter = game / "guide" / "01-playing.md"
    chapter.write_text(chapter.read_text() + "\nA map: ![a map](../art/small.png)\n\n"
                       '::art[art/small.png]{caption="Spot"}\n\n'
                       '::art[art/big.png]{caption="Fine" place=right width=30%}\n')
    lines = chapter.read_text().splitlines()
    markdown = next(n for n, text in enumerate(lines, 1) if text.startswith("A map:"))
    art = lines.index('::art[art/small.png]{caption="Spot"}') + 1
    result = run_cli("build", "rules", "--profile", "dtrpg-book", "--out", tmp_path / "out",
                     cwd=game)
    coarse = [line for line in result.output.splitlines() if "prints at" in line]
    assert coarse == [
        f"guide/01-playing.md:{line}: warning: picture 'art/small.png' prints at 96 ppi on "
        "page 4 (32 × 24 mm), under the 300 ppi the dtrpg-book profile asks for: give it "
        "more pixels or print it smaller" for line in (markdown, art)], result.output
    # at home, nothing to say
    result = run_cli("build", "rules", "--out", tmp_path / "home", cwd=game)
    assert result.exit_code == 0 and "prints at" not in result.output, result.output
