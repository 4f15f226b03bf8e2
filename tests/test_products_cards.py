"""Card products rendered for real (small decks): page boxes, duplex positions in the
rendered pixels, PNG sizes, text fit, bad input, and no WeasyPrint warnings."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from conftest import RULES_SRC, SMALL_DECK, folder_snapshot, pdf_reader, pdf_text, run_cli
from printshop.builder import build_project
from printshop.errors import PrintshopError

MM = 72 / 25.4  # PDF points per mm

TINY = SMALL_DECK

PRODUCTS = """\
products:
  tiny-home:
    kind: cards
    decks: [tiny]
  tiny-printshop:
    kind: cards
    decks: [tiny]
    layout: printshop
  tiny-fold:
    kind: cards
    decks: [tiny]
    layout: foldover
    paper: a4
  tiny-png:
    kind: cards
    decks: [tiny]
    formats: [png]
  tiny-png-bleed:
    kind: cards
    decks: [tiny]
    formats: [png]
    png_bleed: true
  town:
    kind: cards
    decks: [hirelings]
    seed: test
    per_tier: {0: 1, 5: 1}
"""


def make_project(folder: Path, products: str = PRODUCTS, decks: dict | None = None) -> Path:
    shutil.copytree(RULES_SRC, folder)
    manifest = folder / "printshop.yaml"
    head = manifest.read_text().split("products:")[0]
    manifest.write_text(head + products)
    for name, text in (decks or {"tiny": TINY}).items():
        (folder / "decks" / f"{name}.yaml").write_text(text)
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("cards")
    project = make_project(root / "project")
    out = root / "build"
    report = build_project(project, out, strict=True)
    return out, report, project


def test_builds_without_a_single_weasyprint_warning(built):
    out, report, _ = built
    assert report.warnings == []
    assert {p.name for p in out.iterdir()} >= {"tiny-home.pdf", "tiny-printshop.pdf",
                                               "tiny-fold.pdf", "tiny-png", "tiny-png-bleed",
                                               "town.pdf"}


def test_home_layout_is_a_fronts_page_then_a_backs_page_on_letter(built):
    out, _, _ = built
    reader = pdf_reader(out / "tiny-home.pdf")
    assert len(reader.pages) == 2
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width), 1), round(float(box.height), 1)) == (612.0, 792.0)
    fronts = reader.pages[0].extract_text()
    assert "First Card" in fronts and "TD-01" in fronts and "TD-02" in fronts
    assert "Print at 100 %" in fronts and "flip on long edge" in fronts
    assert "Tiny" in reader.pages[1].extract_text()


def pixels(pdf: Path, page: int, dpi: int = 40):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    image = document[page].render(scale=dpi / 72).to_pil().convert("RGB")
    document.close()
    return image, dpi / 25.4


def is_colour(rgb, target="#1f4a8a", tolerance=40) -> bool:
    want = [int(target[i:i + 2], 16) for i in (1, 3, 5)]
    return all(abs(a - b) <= tolerance for a, b in zip(rgb, want))


def test_backs_print_behind_their_fronts_in_the_rendered_pdf(built):
    """Two cards on a 3 × 3 Letter sheet fill the first two slots of the top row; turned
    about the long edge, their backs must be in the last two slots of the top row."""
    out, _, _ = built
    width, x0, y0, card_w, card_h = 215.9, (215.9 - 3 * 63.5) / 2, (279.4 - 3 * 88.9) / 2, \
        63.5, 88.9
    back, per_mm = pixels(out / "tiny-home.pdf", 1)
    front, _ = pixels(out / "tiny-home.pdf", 0)

    def centre(column, row):
        return (round((x0 + (column + 0.5) * card_w) * per_mm),
                round((y0 + (row + 0.5) * card_h) * per_mm))

    # fronts: paper-coloured cards in columns 0 and 1, nothing in column 2
    assert front.getpixel(centre(2, 0)) == (255, 255, 255)
    assert front.getpixel(centre(0, 0)) != (255, 255, 255)
    # backs: the deck's colour in columns 1 and 2 (mirrored), nothing in column 0 or row 1
    assert back.getpixel(centre(0, 0)) == (255, 255, 255)
    assert is_colour(back.getpixel((centre(1, 0)[0], centre(1, 0)[1] + 12)))
    assert is_colour(back.getpixel((centre(2, 0)[0], centre(2, 0)[1] + 12)))
    assert back.getpixel(centre(1, 1)) == (255, 255, 255)
    assert abs(width - 215.9) < 1e-9


def test_printshop_pages_set_trim_and_bleed_boxes(built):
    out, _, _ = built
    reader = pdf_reader(out / "tiny-printshop.pdf")
    assert len(reader.pages) == 4  # front, back, front, back
    for page in reader.pages:
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        media = [float(v) for v in page.mediabox]
        assert trim[2] - trim[0] == pytest.approx(63.5 * MM, abs=0.01)
        assert trim[3] - trim[1] == pytest.approx(88.9 * MM, abs=0.01)
        for t, b, sign in zip(trim, bleed, (-1, -1, 1, 1)):
            assert b - t == pytest.approx(sign * 3 * MM, abs=0.01)
        assert bleed == pytest.approx(media)
    assert "TD-01" in reader.pages[0].extract_text()


def test_printshop_backgrounds_run_into_the_bleed_and_text_stays_in_the_safe_zone(built):
    out, _, _ = built
    back, per_mm = pixels(out / "tiny-printshop.pdf", 1, dpi=100)
    assert is_colour(back.getpixel((1, 1)))                       # corner of the bleed
    assert is_colour(back.getpixel((back.width - 2, back.height - 2)))
    reader = pdf_reader(out / "tiny-printshop.pdf")
    trim = [float(v) for v in reader.pages[0].trimbox]
    positions = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            positions.append((cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]))

    reader.pages[0].extract_text(visitor_text=visit)
    assert positions
    # every line of text starts inside the trim inset by the 3 mm safe margin
    for x, _y in positions:
        assert x >= trim[0] + 3 * MM - 0.5


def test_foldover_puts_fronts_and_backs_on_one_landscape_page(built):
    out, _, _ = built
    reader = pdf_reader(out / "tiny-fold.pdf")
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (842, 595)
    text = reader.pages[0].extract_text()
    assert "fold" in text and "TD-02" in text and "Tiny" in text


def png_size(path: Path):
    from PIL import Image

    with Image.open(path) as image:
        return image.size, tuple(round(d) for d in image.info["dpi"])


def test_png_export_one_image_per_face_at_300_dpi(built):
    out, _, _ = built
    trimmed = sorted(p.name for p in (out / "tiny-png").iterdir())
    assert trimmed == ["TD-01-front.png", "TD-02-front.png", "TD-back.png"]
    for name in trimmed:  # 63.5 × 88.9 mm at 300 dpi
        assert png_size(out / "tiny-png" / name) == ((750, 1050), (300, 300))
    for name in sorted(p.name for p in (out / "tiny-png-bleed").iterdir()):
        assert png_size(out / "tiny-png-bleed" / name) == ((821, 1121), (300, 300))


def test_the_town_hirelings_print_their_seed_tier_and_hit_points(built):
    out, _, _ = built
    text = pdf_text(out / "town.pdf")
    assert "SEED test T0 #1" in text and "SEED test T5 #1" in text
    assert "1d4" in text and "5d6" in text and "1 ration" in text
    assert "Rally save" in text and "Hiring Help" in text


def test_same_inputs_same_bytes(built, tmp_path):
    out, _, project = built
    again = build_project(project, tmp_path, ["tiny-home", "town"], strict=True)
    for path in again.written:
        assert path.read_bytes() == (out / path.name).read_bytes()


# --- text fit -------------------------------------------------------------------------------

LONG = " ".join(["The blade bites deep and the foe reels back, bleeding."] * 12)
TOO_LONG = " ".join(["The blade bites deep and the foe reels back, bleeding."] * 30)


def body_sizes(pdf: Path, page: int = 0) -> set[float]:
    sizes = set()

    def visit(text, cm, tm, font, size):
        if "blade bites" in text or "first card" in text:
            sizes.add(round(size * cm[0], 2))

    pdf_reader(pdf).pages[page].extract_text(visitor_text=visit)
    return sizes


def test_text_that_overflows_is_set_smaller_until_it_fits(tmp_path):
    deck = TINY.replace("The second card's text.", f'"{LONG}"')
    project = make_project(tmp_path / "p", "products:\n  tiny:\n    kind: cards\n"
                           "    decks: [tiny]\n", {"tiny": deck})
    report = build_project(project, tmp_path / "out", strict=True)
    assert report.warnings == []
    sizes = body_sizes(tmp_path / "out" / "tiny.pdf")
    first_size = 10.5  # the first size cards/result.html.j2 tries
    assert any(s < first_size for s in sizes), sizes       # the long card shrank
    assert all(s >= 8.6 for s in sizes), sizes              # not below the template's minimum
    assert first_size in sizes                               # the short card did not


def test_an_overflowing_card_is_fitted_at_the_largest_size_that_fits(tmp_path):
    """The size chosen is the largest that fits: the same card one size larger overflows."""
    deck = TINY.replace("The second card's text.", f'"{LONG}"')
    project = make_project(tmp_path / "p", "products:\n  tiny:\n    kind: cards\n"
                           "    decks: [tiny]\n", {"tiny": deck})
    build_project(project, tmp_path / "out", strict=True)
    size = min(body_sizes(tmp_path / "out" / "tiny.pdf"))
    larger = {10.0: 10.5, 9.5: 10.0, 9.0: 9.5, 8.6: 9.0}[size]
    template = project / "templates" / "cards" / "result.html.j2"
    template.parent.mkdir(parents=True, exist_ok=True)
    original = (RULES_SRC.parent / "templates" / "cards" / "result.html.j2").read_text()
    assert "[10.5, 10, 9.5, 9, 8.6]" in original
    # the same deck with a template whose smallest size is one step larger
    template.write_text(original.replace("[10.5, 10, 9.5, 9, 8.6]",
                                         f"[{larger:g}]"))
    result = run_cli("build", "--source", project, "--out", tmp_path / "out2")
    assert result.exit_code == 2 and "does not fit" in result.output, result.output


def test_a_card_tried_alone_is_fitted_from_a_few_sizes_not_every_one(tmp_path, monkeypatch):
    """The first probe measures how much too much the text is; the size predicted from it
    is tried with its neighbours, and the largest that fits is taken once the next larger
    one is seen to overflow: the same size as trying every size (the test above)."""
    from printshop.products.cards import sheets as card_sheets

    asked = []
    probe = card_sheets.SheetRun._probe

    def recording(self, fitting, *which):
        asked.append((len(fitting.tries), which))
        return probe(self, fitting, *which)

    monkeypatch.setattr(card_sheets.SheetRun, "_probe", recording)
    deck = TINY.replace("The second card's text.", f'"{TOO_LONG[:620]}"')
    project = make_project(tmp_path / "p", "products:\n  tiny:\n    kind: cards\n"
                           "    decks: [tiny]\n", {"tiny": deck})
    build_project(project, tmp_path / "out", strict=True)
    size = min(body_sizes(tmp_path / "out" / "tiny.pdf"))
    assert size < 9.5                     # well down the ladder, not its first step
    (ladder, _), *_ = asked
    tried = [n for _, which in asked for n in which]
    assert len(tried) < ladder, asked     # not every size of the ladder
    assert len(asked) <= 2, asked         # one probe job, a second at most


AXE = " ".join(["The axe falls hard and the shield splits, ringing."] * 11)


def sizes_of(pdf: Path, words: str) -> set[float]:
    sizes = set()

    def visit(text, cm, tm, font, size):
        if words in text:
            sizes.add(round(size * cm[0], 2))

    pdf_reader(pdf).pages[0].extract_text(visitor_text=visit)
    return sizes


def test_cards_fitted_on_their_sheet_or_alone_first_get_the_same_sizes(tmp_path):
    """A deck's card with the most text is tried alone before its sheet renders; any other
    card is fitted when its sheet shows it overflowing. Either way it gets the same size,
    and the deck the same bytes on one core or two."""
    decks = {"axe": TINY.replace("The first card's text.", f'"{AXE}"'),
             "blade": TINY.replace("The second card's text.", f'"{LONG}"'),
             "both": TINY.replace("The first card's text.", f'"{AXE}"')
                         .replace("The second card's text.", f'"{LONG}"')}
    products = "products:\n" + "".join(f"  {name}:\n    kind: cards\n    decks: [{name}]\n"
                                       for name in decks)
    project = make_project(tmp_path / "p", products, decks)
    out = tmp_path / "out"
    build_project(project, out, strict=True)
    axe, blade = sizes_of(out / "axe.pdf", "axe falls"), sizes_of(out / "blade.pdf",
                                                                   "blade bites")
    assert len(axe) == len(blade) == 1 and max(axe | blade) < 10.5    # both shrank
    # in "both", the blade card (more text) is tried alone first and the axe card is found
    # overflowing on the sheet: the same sizes as when each was the only long card
    assert sizes_of(out / "both.pdf", "axe falls") == axe
    assert sizes_of(out / "both.pdf", "blade bites") == blade
    one_core = build_project(project, tmp_path / "one", ["both"], strict=True, jobs=1)
    assert one_core.written[0].read_bytes() == (out / "both.pdf").read_bytes()


def test_text_that_cannot_fit_fails_naming_deck_line_and_card(tmp_path):
    deck = TINY.replace("The second card's text.", f'"{TOO_LONG}"')
    project = make_project(tmp_path / "p", "products:\n  tiny:\n    kind: cards\n"
                           "    decks: [tiny]\n", {"tiny": deck})
    out = tmp_path / "out"
    out.mkdir()
    (out / "tiny.pdf").write_bytes(b"yesterday's deck")
    result = run_cli("build", "--source", project, "--out", out)
    assert result.exit_code == 2, result.output
    assert "decks/tiny.yaml:12: error: card TD-02 (row 2: Second Card)" in result.output
    assert "does not fit" in result.output and "8.6 pt" in result.output  # 7 pt at 0.82 em
    assert folder_snapshot(out) == {"tiny.pdf": b"yesterday's deck"}


def test_every_card_that_cannot_fit_is_named_in_one_build(tmp_path):
    axe = " ".join(["The axe falls hard and the shield splits, ringing."] * 40)
    deck = TINY.replace("The first card's text.", f'"{axe}"') \
        .replace("The second card's text.", f'"{TOO_LONG}"')
    project = make_project(tmp_path / "p", "products:\n  tiny:\n    kind: cards\n"
                           "    decks: [tiny]\n", {"tiny": deck})
    result = run_cli("build", "--source", project, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "card TD-01 (row 1: First Card)" in result.output
    assert "card TD-02 (row 2: Second Card)" in result.output
    assert result.output.index("TD-01") < result.output.index("TD-02")    # in card order


# --- bad input through the command line ----------------------------------------------------

@pytest.fixture
def tiny_project(tmp_path) -> Path:
    return make_project(tmp_path / "p", "products:\n  tiny:\n    kind: cards\n"
                        "    decks: [tiny]\n")


def test_an_unknown_card_size_on_the_command_line(tiny_project, tmp_path):
    result = run_cli("build", "--source", tiny_project, "--out", tmp_path / "o",
                     "--card-size", "jumbo")
    assert result.exit_code == 2
    assert "--card-size: error: unknown card size 'jumbo'" in result.output
    assert not (tmp_path / "o").exists()


def test_an_unknown_paper_is_refused(tiny_project, tmp_path):
    result = run_cli("build", "--source", tiny_project, "--out", tmp_path / "o",
                     "--paper", "b5")
    assert result.exit_code == 2 and "b5" in result.output
    manifest = tiny_project / "printshop.yaml"
    manifest.write_text(manifest.read_text() + "    paper: b5\n")
    result = run_cli("build", "--source", tiny_project, "--out", tmp_path / "o")
    assert result.exit_code == 2 and "printshop.yaml:" in result.output
    assert "paper" in result.output and not (tmp_path / "o").exists()


def test_a_card_larger_than_the_paper_names_where_the_size_was_chosen(tiny_project,
                                                                      tmp_path):
    (tiny_project / "card-sizes.yaml").write_text(textwrap.dedent("""\
        title: Our sizes
        columns:
          - {key: id, label: Size}
          - {key: name, label: Name}
          - {key: width, label: Width, type: number}
          - {key: height, label: Height, type: number}
        rows:
          - {id: poster, name: Poster, width: 300, height: 400}
        """))
    deck = tiny_project / "decks" / "tiny.yaml"
    deck.write_text(deck.read_text().replace("code: TD\n", "code: TD\nsize: poster\n"))
    result = run_cli("build", "--source", tiny_project, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "decks/tiny.yaml:3: error: card size 'poster' on letter" in result.output
    assert "does not fit" in result.output
    assert not (tmp_path / "o").exists()


def test_a_template_outside_the_project_fails_the_build(tiny_project, tmp_path):
    deck = tiny_project / "decks" / "tiny.yaml"
    deck.write_text(deck.read_text().replace("code: TD\n",
                                             "code: TD\ntemplate: ../../etc/passwd\n"))
    result = run_cli("build", "--source", tiny_project, "--out", tmp_path / "o")
    assert result.exit_code == 2
    assert "decks/tiny.yaml:3" in result.output and "outside the project" in result.output
    assert not (tmp_path / "o").exists()


def test_a_rolled_deck_needs_a_seed(tiny_project, tmp_path):
    manifest = tiny_project / "printshop.yaml"
    manifest.write_text(manifest.read_text().replace("decks: [tiny]", "decks: [hirelings]"))
    with pytest.raises(PrintshopError, match="is rolled: give a seed"):
        build_project(tiny_project, tmp_path / "o")


def test_roll_hirelings_writes_pngs_for_one_tier(tmp_path):
    out = tmp_path / "pngs"
    result = run_cli("roll", "hirelings", "--count", "2", "--seed", "inn", "--tier", "3",
                     "--format", "png", "--out", out, "--source", RULES_SRC)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["HI-back.png", "HI-inn-t3-001-front.png", "HI-inn-t3-002-front.png"]
    assert png_size(out / names[1]) == ((750, 1050), (300, 300))


def test_a_long_name_shrinks_on_its_own_band_and_the_body_keeps_its_size(tmp_path):
    project = make_project(tmp_path / "p", "products:\n  town:\n    kind: cards\n"
                           "    decks: [hirelings]\n    seed: s\n    per_tier: {1: 1}\n")
    names = project / "tables" / "hireling-first-names.yaml"
    names.write_text("title: First names\ncolumns:\n  - {key: name, label: Name}\nrows:\n"
                     "  - {name: Bartholomew-Maximilian Ignatius}\n")
    build_project(project, tmp_path / "out", strict=True)
    sizes = {}

    def visit(text, cm, tm, font, size):
        if "Bartholomew" in text:
            sizes["name"] = size * cm[0]
        if "GOOD AT" in text.upper() and "good" not in sizes:
            sizes["good"] = size * cm[0]

    pdf_reader(tmp_path / "out" / "town.pdf").pages[0].extract_text(visitor_text=visit)
    assert sizes["name"] < 14.5            # the first size of the name band
    assert sizes["good"] == pytest.approx(10 * 0.82, abs=0.05)  # body at its first size


def test_a_character_no_font_has_is_said_once_at_its_line(tmp_path):
    # before rendering, at the deck's line, with the fix; the render's own summary of the
    # same empty boxes (a template's name, no fix) is not said a second time
    deck = TINY.replace("The second card's text.", "The second card's text 🐉.")
    project = make_project(tmp_path / "p", "products:\n  tiny:\n    kind: cards\n"
                           "    decks: [tiny]\n", {"tiny": deck})
    result = run_cli("build", "--source", project, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "🐉 U+1F409" in line]
    assert len(lines) == 1, result.output
    assert "decks/tiny.yaml:12:" in lines[0] and "add an Emoji font to fonts/" in lines[0]
