"""Pictures, icons and markup on cards, checked in the pixels and the text of what prints:
art in its frame on home sheets, into the bleed on card-printer pages and PNGs, a back
picture, backs that run past their outer cut lines; a corner of 0 prints; Markdown and HTML
in a field render or warn where the field comes from; missing pictures and unknown icons
are located warnings (errors under --strict); a coarse picture on a press profile is named
with its resolution; credits come with the cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import pdf_text
from printshop.builder import build_project
from printshop.errors import PrintshopError

MM = 72 / 25.4
GREEN, ORANGE, PURPLE, KEY = (32, 160, 64), (230, 120, 20), (128, 48, 144), (200, 30, 30)
DECK = """\
title: Art Deck
code: AD
colour: art-blue
accent: art-sand
back: {title: Art, emblem: torch, image: art/back.png}
face: {title: name, text: [effect], corner: bonus}
art: {image: art/default.png}
columns:
  - {key: name, label: Name}
  - {key: effect, label: Effect}
  - {key: bonus, label: Bonus, type: int, optional: true}
  - {key: image, label: Picture, optional: true, print: false}
rows:
  - {name: Greenwood, effect: "**Bold** words, an :icon[torch] and <b>raw</b> html.", bonus: 0, image: art/green.png}
  - {name: Default, effect: "A key ![key](art/key.png) inline.", bonus: 2}
  - {name: Lost, effect: "Its picture is missing.", image: art/nope.png}
"""  # noqa: E501
PLAIN = DECK.replace(", image: art/back.png", "").replace("art: {image: art/default.png}\n",
                                                         "")
PRODUCTS = """\
title: Art test
products:
  home: {kind: cards, decks: [art]}
  printer: {kind: cards, decks: [art], layout: printshop}
  pngs: {kind: cards, decks: [art], formats: [png], png_bleed: true}
  plain: {kind: cards, decks: [plain]}
"""


def png(path: Path, size, colour) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


def make_project(root: Path, products: str = PRODUCTS) -> Path:
    (root / "decks").mkdir(parents=True)
    (root / "printshop.yaml").write_text(products)
    (root / "decks" / "art.yaml").write_text(DECK)
    (root / "decks" / "plain.yaml").write_text(PLAIN)
    (root / "palette.yaml").write_text(   # a press profile prints the deck in CMYK
        'colours:\n  art-blue: {srgb: "#1f4a8a", cmyk: "80 50 0 30"}\n'
        '  art-sand: {srgb: "#ddccaa", cmyk: "5 10 30 5"}\n')
    png(root / "art" / "green.png", (900, 600), GREEN)
    png(root / "art" / "default.png", (120, 80), ORANGE)     # coarse: ~40 ppi on a card
    png(root / "art" / "back.png", (800, 1100), PURPLE)
    png(root / "art" / "key.png", (60, 60), KEY)
    (root / "art" / "credits.yaml").write_text('"*": {author: A. Painter, licence: CC0 1.0}\n')
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("art")
    project = make_project(tmp / "project")
    out = tmp / "build"
    report = build_project(project, out, strict=False)
    return project, out, report


def render(pdf: Path, page: int, dpi: int = 60):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    image = document[page].render(scale=dpi / 72).to_pil().convert("RGB")
    document.close()
    return image, dpi / 25.4


def near(rgb, target, tolerance=30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, target))


# Letter, poker cards 3 × 3: the grid's top left corner, a card's size
X0, Y0, W, H = (215.9 - 3 * 63.5) / 2, (279.4 - 3 * 88.9) / 2, 63.5, 88.9
ART_MIDDLE = 3 + 10.5 + 0.40 * H / 2      # below the card's top: the art frame's middle


def test_art_prints_in_its_frame_on_a_home_sheet(built):
    _, out, _ = built
    image, per_mm = render(out / "home.pdf", 0)

    def at(x_mm, y_mm):
        return image.getpixel((round(x_mm * per_mm), round(y_mm * per_mm)))

    assert near(at(X0 + W / 2, Y0 + ART_MIDDLE), GREEN)          # its own picture
    assert near(at(X0 + W + W / 2, Y0 + ART_MIDDLE), ORANGE)     # the deck's default
    assert near(at(X0 + 0.6, Y0 + ART_MIDDLE), GREEN)            # edge to edge
    assert not near(at(X0 + W / 2, Y0 + H - 12), GREEN)          # the text's part: no art


def test_art_runs_into_the_bleed_on_card_printer_pages_and_pngs(built):
    from PIL import Image

    _, out, _ = built
    image, per_mm = render(out / "printer.pdf", 0)
    assert near(image.getpixel((round(1 * per_mm), round((3 + ART_MIDDLE) * per_mm))), GREEN)
    front = Image.open(out / "pngs" / "AD-01-front.png").convert("RGB")
    per_mm = 300 / 25.4
    assert front.size == (round((W + 6) * per_mm), round((H + 6) * per_mm))
    assert near(front.getpixel((4, round((3 + ART_MIDDLE) * per_mm))), GREEN)
    back = Image.open(out / "pngs" / "AD-back.png").convert("RGB")
    assert near(back.getpixel((4, 4)), PURPLE)
    assert near(back.getpixel((back.width // 2, back.height // 2)), PURPLE)


def test_backs_run_past_their_outer_cut_lines_on_a_home_sheet(built):
    _, out, _ = built
    fronts, per_mm = render(out / "plain.pdf", 0)
    backs, _ = render(out / "plain.pdf", 1)

    def at(image, x_mm, y_mm):
        return image.getpixel((round(x_mm * per_mm), round(y_mm * per_mm)))

    # three cards fill the top row; turned on the long edge, card 1's back is top right
    right, top, middle = X0 + 3 * W, Y0, Y0 + H / 2
    blue = (31, 74, 138)
    for x, y in ((right + 1.5, middle), (X0 + W / 2, top - 1.5), (X0 - 1.5, middle)):
        assert near(at(backs, x, y), blue), (x, y)       # past the cut line: still the back
        assert at(fronts, x, y) == (255, 255, 255)       # (the fronts' margin is paper)
    assert at(backs, right + 3.5, middle) == (255, 255, 255)   # 2.5 mm, no more
    # the frame keeps 3.5 mm inside the trim: no accent colour in the outer 3 mm
    accent = (221, 204, 170)
    for step in range(1, 6):
        assert not near(at(backs, right - step * 0.5, Y0 + H / 2), accent, 20)


def test_a_zero_and_the_fields_markup_print_as_meant(built):
    _, out, _ = built
    text = pdf_text(out / "printer.pdf")
    first = text.split("AD-01")[0]
    assert "0" in first.split("Greenwood")[0]          # the corner's 0
    assert "Bold words, an" in text and "raw html." in text
    for literal in ("**", "<b>", "![", ":icon["):
        assert literal not in text


def test_an_inline_picture_and_an_icon_are_drawn(built):
    _, out, _ = built
    image, per_mm = render(out / "printer.pdf", 2, dpi=100)     # card 2's front
    assert any(near(image.getpixel((x, y)), KEY, 20) for x in range(image.width)
               for y in range(image.height // 2, image.height))


def test_missing_picture_coarse_picture_and_html_are_located_warnings(built):
    project, _, report = built
    warnings = [str(w).replace(f"{project}/", "") for w in report.warnings]
    missing = [w for w in warnings if "art/nope.png" in w]
    assert missing and missing[0].startswith("decks/art.yaml:16: card AD-03 (row 3: Lost): "
                                             "picture 'art/nope.png' file not found")
    assert "placeholder" in missing[0]
    assert not [w for w in warnings if "ppi where it prints" in w]   # not for home printing


def test_a_picture_too_coarse_for_a_press_is_named_at_its_card(tmp_path):
    root = make_project(tmp_path / "project", "title: T\nproducts:\n  press: {kind: cards, "
                        "decks: [art], profile: dtc-cards}\n")
    with pytest.raises(PrintshopError) as info:
        build_project(root, tmp_path / "build")
    problems = [str(p).replace(f"{root}/", "") for p in info.value.problems]
    coarse = [p for p in problems if "ppi where it prints" in p]
    assert any(p.startswith("decks/art.yaml:15: card AD-02 (row 2: Default): picture "
                            "'art/default.png' is 120×80 pixels: 44 ppi where it prints")
               for p in coarse), problems
    assert any("art/back.png' is 800×1100 pixels: 291 ppi" in p for p in coarse)
    assert any("E-PPI" in p for p in problems)      # and preflight agrees


def test_credits_name_every_picture_and_icon(built):
    _, out, _ = built
    credits = (out / "home-credits.txt").read_text()
    for line in ("art/green.png: Green: A. Painter, CC0 1.0",
                 "art/default.png: Default: A. Painter, CC0 1.0",
                 "art/back.png: Back: A. Painter, CC0 1.0", "art/key.png"):
        assert line in credits
    assert "Icons (game-icons.net, CC BY 3.0)" in credits and "Delapouite: torch" in credits


def test_strict_makes_a_missing_picture_an_error(tmp_path):
    root = make_project(tmp_path / "project",
                        "title: T\nproducts:\n  home: {kind: cards, decks: [art]}\n")
    with pytest.raises(PrintshopError) as info:
        build_project(root, tmp_path / "build", strict=True)
    assert any("art/nope.png" in str(p) and "card AD-03" in str(p)
               for p in info.value.problems)
    assert not (tmp_path / "build" / "home.pdf").exists()
