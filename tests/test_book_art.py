"""The book's pictures: a cover over the whole first page and its bleed, a chapter opener and
spot art with captions and credits, icons in a chapter, a missing picture warned about at
its line, and a colophon naming every picture and icon with its author and licence."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import pdf_text
from printshop.builder import build_project

COVER, CAVE = (140, 30, 30), (30, 110, 140)
CHAPTER = """\
# Caves

::art[art/cave.png]{caption="The *deep* cave" place=opener}

Caves are dark. Bring a :icon[torch] and chalk.

::art[art/none.png]{caption="Lost"}

More about caves.
"""


def png(path: Path, size, colour) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("book") / "project"
    (root / "guide").mkdir(parents=True)
    (root / "guide" / "01-caves.md").write_text(CHAPTER)
    (root / "printshop.yaml").write_text(
        "title: Cave Book\nproducts:\n  book:\n    kind: guide\n    chapters: guide\n"
        "    cover: {image: art/cover.png}\n    formats: [pdf]\n"
        "  wrap: {kind: cover, book: book, profile: dtrpg-book}\n")
    png(root / "art" / "cover.png", (2700, 3450), COVER)    # 300 ppi over page and bleed
    png(root / "art" / "cave.png", (2600, 1100), CAVE)
    (root / "art" / "credits.yaml").write_text(
        '"*": {author: A. Painter, licence: CC0 1.0}\ncover.png: {title: Red cover}\n')
    out = root.parent / "build"
    report = build_project(root, out)
    return root, out, report


def page_pixels(pdf: Path, page: int = 0):
    import pikepdf
    import pypdfium2 as pdfium

    with pikepdf.open(pdf) as doc:
        media = [float(v) for v in doc.pages[page].MediaBox]
        trim = [float(v) for v in doc.pages[page].obj.get("/TrimBox", doc.pages[page].MediaBox)]
        bleed = [float(v) for v in doc.pages[page].obj.get("/BleedBox",
                                                            doc.pages[page].MediaBox)]
    document = pdfium.PdfDocument(str(pdf))
    image = document[page].render(scale=1).to_pil().convert("RGB")
    document.close()

    def at(x_pt, y_pt):   # PDF points, from the bottom left of the media box
        return image.getpixel((round(x_pt - media[0]), round(media[3] - y_pt)))
    return at, trim, bleed


def is_cover(rgb) -> bool:
    return all(abs(a - b) < 30 for a, b in zip(rgb, COVER))   # (after CMYK, on a press)


def test_the_cover_covers_the_first_page(built):
    _, out, _ = built
    at, trim, _ = page_pixels(out / "book.pdf")
    for x, y in ((trim[0] + 2, trim[3] - 2), (trim[2] - 2, trim[1] + 2)):
        assert is_cover(at(x, y)), (x, y)
    assert "Cave Book" in pdf_text(out / "book.pdf").split("\f")[0]  # the title on it


def test_the_cover_is_the_front_of_the_wrap_into_its_bleed(built):
    _, out, _ = built
    at, trim, bleed = page_pixels(out / "wrap.pdf")
    assert bleed[2] > trim[2]
    # the front is the wrap's right-hand panel: its outer corners, in the bleed
    for x, y in ((bleed[2] - 2, bleed[3] - 2), (bleed[2] - 2, bleed[1] + 2)):
        assert is_cover(at(x, y)), (x, y)
    assert not is_cover(at(trim[0] + 20, (trim[1] + trim[3]) / 2))   # not on the back


def test_opener_spot_art_icons_and_colophon_credits(built):
    _, out, report = built
    text = pdf_text(out / "book.pdf")
    chapter = text[text.index("Caves are dark"):]
    assert text.index("The deep cave") < text.index("Caves are dark")   # under the title
    assert "Bring a" in chapter and ":icon[" not in text
    colophon = text[text.index("Pictures"):]
    assert "Red cover: A. Painter, CC0 1.0" in colophon
    assert "Cave: A. Painter, CC0 1.0" in colophon
    assert "Icons by Delapouite (game-icons.net, CC BY 3.0): torch." in colophon


def test_a_missing_picture_is_a_warning_at_its_line(built):
    root, _, report = built
    warnings = [str(w).replace(f"{root}/", "") for w in report.warnings]
    assert any(w.startswith("guide/01-caves.md:7: ::art: picture 'art/none.png' file not "
                            "found") for w in warnings), warnings


def test_an_icon_in_a_chapter_is_drawn_where_its_text_says(built):
    # a chapter's raw HTML is cleaned by an allow-list (the default); the icon is
    # printshop's own markup and must come through it: the torch dropped with its <svg>
    # left a plain space between "Bring a" and "and chalk", the colophon crediting it still
    import pypdfium2 as pdfium

    _, out, _ = built
    document = pdfium.PdfDocument(str(out / "book.pdf"))
    for page in document:
        text = page.get_textpage()
        found = text.search("Bring a", match_case=True).get_next()
        if found:
            break
    else:
        raise AssertionError("no page says 'Bring a'")
    first, count = found
    left = text.get_charbox(first + count - 1)[2]            # right edge of "a"
    after = text.search("and chalk", match_case=True).get_next()
    right = text.get_charbox(after[0])[0]                    # left edge of "and"
    bottom, top = text.get_charbox(first)[1], text.get_charbox(first)[3]
    assert right - left > 8, (left, right)                   # room for an icon, not a space
    image = page.render(scale=4).to_pil().convert("L")
    height = page.get_height()
    box = (int(left * 4) + 2, int((height - top) * 4), int(right * 4) - 2,
           int((height - bottom) * 4))
    darkest = image.crop(box).getextrema()[0]
    document.close()
    assert darkest < 100, darkest                            # the torch, in the ink
