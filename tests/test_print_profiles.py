"""Print profiles end to end on small inputs: a book and a deck built for a CMYK PDF/X press
(bleed, DeviceCMYK only, images converted, no links or bookmarks, even page count), the
build refusing to write a file that fails its own preflight, and located errors for
unknown profiles and colours the palette cannot print."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pikepdf
import pytest

from conftest import FIXTURES, RULES_SRC, SMALL_DECK, pdf_colours, pdf_reader, pdf_text, run_cli
from printshop.builder import build_project, check_project
from printshop.errors import PrintshopError
from printshop.preflight import preflight
from printshop.profiles import get_profile
from printshop.render.pdf.press import finish
from printshop.source.palette import Colours, UnknownColour

PT = 72 / 25.4
LETTER = (215.9 * PT, 279.4 * PT)
BLEED = 0.125 * 72


def png(width: int, height: int, colour=(160, 40, 30)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()


def manuscript(folder: Path, image: bytes) -> Path:
    folder.mkdir()
    (folder / "art.png").write_bytes(image)
    (folder / "01-start.md").write_text(
        "# The Start\n\nSome words [with a link](#the-end).\n\n![Art](art.png)\n\n"
        "## A Section\n\nMore words.\n")
    (folder / "02-end.md").write_text("# The End\n\nLast words.\n")
    return folder


@pytest.fixture(scope="module")
def press_book(tmp_path_factory):
    base = tmp_path_factory.mktemp("press-book")
    # 1100 px across a column of about 3.3 in: over 300 ppi as placed
    source = manuscript(base / "my-book", png(1100, 60))
    report = build_project(source, base / "out", strict=True, profile="dtrpg-book")
    return (base / "out" / "my-book.pdf").read_bytes(), report


def test_the_press_book_passes_its_own_preflight(press_book):
    pdf, _ = press_book
    profile = get_profile("dtrpg-book")
    findings = preflight(pdf, profile, (215.9, 279.4), profile.icc_path().read_bytes())
    assert [str(f) for f in findings] == []


def test_press_book_boxes_colours_links_and_pages(press_book):
    pdf, _ = press_book
    doc = pikepdf.open(io.BytesIO(pdf))
    assert len(doc.pages) % 2 == 0 and len(doc.pages) >= 18   # blank pages added
    for page in doc.pages:
        trim = [float(v) for v in page.TrimBox]
        media = [float(v) for v in page.MediaBox]
        assert trim[2] - trim[0] == pytest.approx(LETTER[0], abs=0.1)
        assert trim[3] - trim[1] == pytest.approx(LETTER[1], abs=0.1)
        assert [trim[0] - media[0], trim[1] - media[1], media[2] - trim[2],
                media[3] - trim[3]] == pytest.approx([BLEED] * 4, abs=0.05)
        assert "/Annots" not in page.obj
    assert "/Outlines" not in doc.Root
    assert str(doc.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1:2003"
    assert str(doc.docinfo["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"
    assert doc.pdf_version == "1.4"
    images = [x for page in doc.pages for x in page.get_images().values()]
    assert images and all(str(i.ColorSpace) == "/DeviceCMYK" for i in images)
    # no cover inside the interior (the wrap is a file of its own, tests/test_cover.py):
    # page 1 is a plain title page, the title in the palette's blood red, no rich black
    ops = pikepdf.parse_content_stream(doc.pages[0])
    cmyk = [[float(v) for v in op.operands] for op in ops if str(op.operator) == "scn"
            and len(op.operands) == 4]
    assert [0.6, 0.4, 0.4, 1.0] not in cmyk and [0.0, 0.66, 0.51, 0.7] in cmyk


def test_the_press_books_image_is_the_picture_converted_to_cmyk(press_book):
    # what prints is the art in the profile's CMYK: a JPEG whose pixels are the source
    # colour through the ICC profile (not the source PNG's bytes under a DCTDecode filter,
    # which no RIP can decode)
    from pikepdf import PdfImage
    from PIL import Image, ImageCms

    pdf, _ = press_book
    doc = pikepdf.open(io.BytesIO(pdf))
    images = [x for page in doc.pages for x in page.get_images().values()]
    assert images
    icc = get_profile("dtrpg-book").icc_path()
    to_cmyk = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), str(icc), "RGB", "CMYK",
                                      renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                      flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    wanted = ImageCms.applyTransform(Image.new("RGB", (1, 1), (160, 40, 30)),
                                     to_cmyk).getpixel((0, 0))
    for image in images:
        assert image.read_raw_bytes()[:2] == b"\xff\xd8"        # a JPEG stream
        picture = PdfImage(image).as_pil_image()
        assert picture.mode == "CMYK" and picture.size == (1100, 60)
        got = picture.getpixel((550, 30))
        assert all(abs(a - b) <= 4 for a, b in zip(got, wanted)), (got, wanted)


def test_a_low_resolution_image_stops_the_build_and_nothing_is_written(tmp_path):
    source = manuscript(tmp_path / "low-res", png(200, 20))
    out = tmp_path / "out"
    with pytest.raises(PrintshopError) as failed:
        build_project(source, out, profile="dtrpg-book")
    message = str(failed.value)
    assert "preflight (dtrpg-book) fails" in message and "E-PPI" in message
    assert not out.exists() or not any(out.iterdir())


def test_home_book_fails_dtrpg_preflight_naming_bleed_rgb_and_links(tmp_path):
    source = manuscript(tmp_path / "home", png(1100, 60))
    build_project(source, tmp_path / "out", strict=True)
    pdf = tmp_path / "out" / "home.pdf"
    result = run_cli("preflight", pdf, "--profile", "dtrpg-book", "--source", RULES_SRC)
    assert result.exit_code == 1
    for code in ("E-BLEED: no bleed", "E-RGB: DeviceRGB fill colour in text", "E-LINKS",
                 "E-PDFX", "E-INTENT"):
        assert code in result.output


def test_dtc_cards_back_then_front_in_cmyk(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(RULES_SRC, project)
    manifest = project / "printshop.yaml"
    manifest.write_text(manifest.read_text().split("products:")[0]
                        + "products:\n  tiny:\n    kind: cards\n    decks: [tiny]\n"
                        "    profile: dtc-cards\n")
    deck = project / "decks" / "tiny.yaml"
    deck.write_text(SMALL_DECK)
    # hex colours that the palette does not hold cannot be printed in CMYK
    with pytest.raises(PrintshopError) as failed:
        check_project(project)
    assert "decks/tiny.yaml:3: colour: colour '#1f4a8a' is not in the palette" in \
        str(failed.value).replace("\\", "/")
    deck.write_text(SMALL_DECK.replace('"#1f4a8a"', "encounter-green")
                    .replace('"#ddccaa"', "encounter-brass"))
    build_project(project, tmp_path / "out", strict=True)
    doc = pikepdf.open(tmp_path / "out" / "tiny.pdf")
    assert len(doc.pages) == 2 * 2
    page = doc.pages[0]
    trim = [float(v) for v in page.TrimBox]
    assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((180, 252), abs=0.1)
    assert float(page.TrimBox[0]) - float(page.MediaBox[0]) == pytest.approx(BLEED, abs=0.05)
    reader = pdf_reader(tmp_path / "out" / "tiny.pdf")
    texts = [page.extract_text() for page in reader.pages]
    # page 1 is the back of card 1, page 2 its front (DriveThruCards' order)
    assert "First Card" not in texts[0] and "First Card" in texts[1]
    assert "Second Card" in texts[3]
    profile = get_profile("dtc-cards")
    assert [str(f) for f in preflight(doc_bytes(doc), profile, (63.5, 88.9))] == []


@pytest.mark.parametrize("layout", ["home", "foldover"])
def test_home_card_sheets_for_a_cmyk_book_press_draw_their_lines_in_cmyk(tmp_path, layout):
    # a deck on home sheets (no card printer's layout in the profile) built for a CMYK
    # press: the cut marks and the fold line are SVG lines, whose default fill (black, never
    # seen) was written as DeviceRGB and failed the build's preflight
    project = tmp_path / "project"
    shutil.copytree(RULES_SRC, project)
    manifest = project / "printshop.yaml"
    manifest.write_text(manifest.read_text().split("products:")[0]
                        + f"products:\n  tiny:\n    kind: cards\n    decks: [tiny]\n"
                        f"    layout: {layout}\n    profile: dtrpg-book\n")
    (project / "decks" / "tiny.yaml").write_text(
        SMALL_DECK.replace('"#1f4a8a"', "encounter-green")
        .replace('"#ddccaa"', "encounter-brass"))
    build_project(project, tmp_path / "out", strict=True)   # its preflight passed
    pdf = (tmp_path / "out" / "tiny.pdf").read_bytes()
    drawn = colours_drawn(pdf)
    assert not [c for c in drawn if c.startswith("#")], "DeviceRGB colours on the sheets"
    assert press_cmyk("black") in drawn                    # the cut marks, on K


def doc_bytes(doc) -> bytes:
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_unknown_profile_is_located_with_a_suggestion(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(RULES_SRC, project)
    manifest = project / "printshop.yaml"
    text = manifest.read_text().replace("    kind: guide\n",
                                        "    kind: guide\n    profile: dtrpg-bok\n", 1)
    manifest.write_text(text)
    line = text.splitlines().index("    profile: dtrpg-bok") + 1
    with pytest.raises(PrintshopError) as failed:
        check_project(project, ["players-guide"])
    problem = failed.value.problems[0]
    assert problem.line == line
    assert "unknown print profile 'dtrpg-bok' (did you mean 'dtrpg-book'?)" in problem.message
    result = run_cli("build", "pregens", "--profile", "dtrpg-book", "--source", project)
    assert result.exit_code == 2
    assert "prints for home printers only" in result.output


def test_a_project_adds_its_own_profile(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(RULES_SRC, project)
    (project / "print-profiles.yaml").write_text(
        "profiles:\n  shop-a4:\n    description: a local shop\n    trim: a4\n"
        "    bleed: 3mm\n    colour: srgb\n    pdf: plain\n    links: false\n"
        "    bookmarks: false\n    pages: {multiple_of: 4}\n")
    profile = get_profile("shop-a4", project)
    assert profile.bleed == 3 and profile.trim == "a4" and profile.pages.multiple_of == 4
    (project / "print-profiles.yaml").write_text(
        "profiles:\n  bad:\n    description: x\n    bleed: 3\n")
    with pytest.raises(PrintshopError) as failed:
        get_profile("bad", project)
    assert "give a number and a unit" in str(failed.value)


def test_palette_modes():
    colours = Colours.for_project(RULES_SRC, "cmyk")
    assert colours("ink") == "device-cmyk(0 0 0 1)"          # text black on K only
    assert colours("event-oxblood") == "device-cmyk(0.1 0.52 0.36 0.84)"
    assert colours("#7a1712") == colours("blood")              # an sRGB value it defines
    with pytest.raises(UnknownColour):
        colours("#123456")
    srgb = Colours.for_project(RULES_SRC, "srgb")
    assert srgb("event-oxblood") == "#5c1a14" and srgb("#123456") == "#123456"
    assert srgb.mix("#000000", "#ffffff", 0.5) == "#808080"
    assert colours.mix("ink", "white", 0.5) == "device-cmyk(0 0 0 0.5)"
    # every palette colour stays inside the presses' 240 % ink limit
    assert max(c.ink for c in colours.palette.values()) <= 240
    # the colours text is printed in (black, the greys) are on the K plate alone
    from printshop.source.palette import BUILTIN_PALETTE
    from printshop.source.yamlfile import load_yaml

    for name, spec in load_yaml(BUILTIN_PALETTE).data["colours"].items():
        if "K only" in spec.get("use", ""):
            assert colours.cmyk_of(name)[:3] == (0, 0, 0), name
    assert colours("sheet-dim") == "device-cmyk(0 0 0 0.78)"   # the sheet's labels


def test_finishing_pads_pages_and_is_reproducible(press_book):
    pdf, _ = press_book
    profile = get_profile("dtrpg-book")
    again, added = finish(pdf, profile, profile.icc_path())
    assert added == 0 and again == finish(pdf, profile, profile.icc_path())[0]
    doc = pikepdf.open(io.BytesIO(pdf))
    del doc.pages[-1]
    odd = doc_bytes(doc)
    padded, added = finish(odd, profile, profile.icc_path())
    assert added == 1 and len(pikepdf.open(io.BytesIO(padded)).pages) % 2 == 0


def test_an_appended_page_without_bleed_gets_the_books_trim(press_book):
    pdf, _ = press_book
    profile = get_profile("lulu-book")
    doc = pikepdf.open(io.BytesIO(pdf))
    media = [float(v) for v in doc.pages[0].MediaBox]
    # a page the size of the book's pages with their bleed, made elsewhere (no TrimBox),
    # and a smaller one
    for box in (media, [0, 0, 300, 400]):
        doc.pages.append(pikepdf.Page(pikepdf.Dictionary(
            Type=pikepdf.Name.Page, MediaBox=box, Resources=pikepdf.Dictionary())))
    finished, _ = finish(doc_bytes(doc), profile)
    pages = pikepdf.open(io.BytesIO(finished)).pages
    same, small = pages[len(doc.pages) - 2], pages[len(doc.pages) - 1]
    assert [float(v) for v in same.TrimBox] == pytest.approx(
        [media[0] + BLEED, media[1] + BLEED, media[2] - BLEED, media[3] - BLEED])
    assert [float(v) for v in small.TrimBox] == [0, 0, 300, 400]
    assert [float(v) for v in small.MediaBox] == pytest.approx([-BLEED, -BLEED, 300 + BLEED,
                                                                400 + BLEED])


def test_check_takes_a_profile():
    result = run_cli("check", "event-deck", "--profile", "dtc-cards", "--source", RULES_SRC)
    assert result.exit_code == 0, result.output
    result = run_cli("check", "pregens", "--profile", "dtrpg-book", "--source", RULES_SRC)
    assert result.exit_code == 2 and "prints for home printers only" in result.output


# --- the blank character sheet at the back of a press edition --------------------------------

# the sheet's colours in the palette (ink, white, sheet-dim, blood, sheet-faint, sheet-rule)
SHEET_CMYK = {"cmyk 0 0 0 100", "cmyk 0 0 0 0", "cmyk 0 0 0 78", "cmyk 0 66 51 70",
              "cmyk 1 5 19 23", "cmyk 3 7 25 55"}
SHEET_SRGB = {"#1d1a17", "#ffffff", "#5e5345", "#7a1712", "#c9bba2", "#8c7d68"}


@pytest.fixture(scope="module")
def book_with_sheet(tmp_path_factory):
    """A small book of HAMMERCRAWL!'s project (its tables label the sheet) ending with the
    blank character sheet, built for a profile."""
    base = tmp_path_factory.mktemp("sheet-book")
    project = base / "project"
    shutil.copytree(RULES_SRC, project)
    (project / "small").mkdir()
    (project / "small" / "01-start.md").write_text(
        "# Start\n\nRoll 3d6 for each stat and write them on the sheet at the back.\n")
    manifest = project / "printshop.yaml"
    manifest.write_text(manifest.read_text().split("products:")[0]
                        + "products:\n  small-book:\n    kind: guide\n    chapters: small\n"
                        "    blank_sheet: true\n    print_every_table: false\n"
                        "    formats: [pdf]\n")
    built = {}

    def build(profile):
        if profile not in built:
            out = base / profile
            build_project(project, out, strict=True, profile=profile)
            built[profile] = (out / "small-book.pdf").read_bytes()
        return built[profile]
    return build


def sheet_page(pdf: bytes) -> int:
    pages = [page.extract_text() or "" for page in pdf_reader(pdf).pages]
    found = [n for n, text in enumerate(pages) if "CLASS ABILITIES" in text]
    assert len(found) == 1, "the blank sheet is in the book once"
    return found[0]


def ink_box_pt(pdf: bytes, index: int) -> list[float]:
    """What the page prints (its non-white pixels at 72 dpi), in points from the trim's
    left and bottom edge: [left, bottom, right, top]."""
    import pypdfium2

    doc = pikepdf.open(io.BytesIO(pdf))
    media = [float(v) for v in doc.pages[index].MediaBox]
    trim = [float(v) for v in doc.pages[index].TrimBox]
    image = pypdfium2.PdfDocument(pdf)[index].render(scale=1).to_pil().convert("L")
    left, top, right, bottom = image.point(lambda v: 255 if v < 250 else 0).getbbox()
    return [media[0] + left - trim[0], media[3] - bottom - trim[1],
            media[0] + right - trim[0], media[3] - top - trim[1]]


@pytest.mark.parametrize("name", ["dtrpg-book", "lulu-book"])
def test_the_press_book_ends_with_the_blank_sheet_inside_the_safe_area(book_with_sheet, name):
    pdf = book_with_sheet(name)
    profile = get_profile(name)
    icc = profile.icc_path()
    assert [str(f) for f in preflight(pdf, profile, (215.9, 279.4),
                                      icc.read_bytes() if icc else None)] == []
    index = sheet_page(pdf)
    assert index % 2 == 0, "a right-hand page: a leaf of its own"
    doc = pikepdf.open(io.BytesIO(pdf))
    page = doc.pages[index]
    # the book's trim and bleed, and no form fields: a press takes no annotations (PDF/X-1a
    # forbids them on the page); the fillable form is the blank-sheet product
    assert [float(v) for v in page.TrimBox] == [float(v) for v in doc.pages[0].TrimBox]
    assert [float(v) for v in page.MediaBox] == [float(v) for v in doc.pages[0].MediaBox]
    assert "/Annots" not in page.obj and "/AcroForm" not in doc.Root
    # in the profile's colours: the palette's CMYK values for the CMYK press, else sRGB
    assert pdf_colours(pdf, index) == (SHEET_CMYK if profile.cmyk else SHEET_SRGB)
    # everything on it inside the safe area, and clear of the gutter on the binding side
    safe, gutter = profile.safe * PT, profile.gutter * PT
    left, bottom, right, top = ink_box_pt(pdf, index)
    assert left >= safe + gutter - 1 and bottom >= safe - 1
    assert right <= LETTER[0] - safe + 1 and top <= LETTER[1] - safe + 1
    # and no smaller than it has to be: the sheet fills the safe area's width or height
    assert (right - left >= LETTER[0] - 2 * safe - gutter - 30
            or top - bottom >= LETTER[1] - 2 * safe - 30)


@pytest.mark.parametrize("name", ["dtrpg-book", "lulu-book"])
def test_the_sheet_in_a_press_book_says_how_to_copy_it_full_size(book_with_sheet, name):
    # the home edition's sheet is the sheet at its size, and says "Print at 100 %"
    home = book_with_sheet("home")
    at_home = sheet_page(home)
    assert "Print at 100 %" in pdf_reader(home).pages[at_home].extract_text()
    left, _, right, _ = ink_box_pt(home, at_home)
    full_width = right - left
    # a press edition's reader copies the page of a bound book; the percentage given brings
    # the sheet, shrunk to fit the safe area, back to its own size
    pdf = book_with_sheet(name)
    index = sheet_page(pdf)
    text = pdf_reader(pdf).pages[index].extract_text()
    assert "Print at" not in text
    found = re.search(r"Copy this page at (\d+) %", text)
    assert found, text
    left, _, right, _ = ink_box_pt(pdf, index)
    assert (right - left) * int(found[1]) / 100 == pytest.approx(full_width, rel=0.01)


def test_the_sheet_in_an_a5_book_says_how_to_print_it_full_size(project_copy, tmp_path):
    # on A5 the A4 sheet is drawn at 71 %: "Print at 100 %" would give a small sheet
    (project_copy / "small").mkdir()
    (project_copy / "small" / "01-start.md").write_text("# Start\n\nRoll 3d6.\n")
    manifest = project_copy / "printshop.yaml"
    manifest.write_text(manifest.read_text().split("products:")[0]
                        + "products:\n  small-book:\n    kind: guide\n    chapters: small\n"
                        "    blank_sheet: true\n    print_every_table: false\n"
                        "    formats: [pdf]\n")
    build_project(project_copy, tmp_path / "out", strict=True, paper="a5")
    pdf = (tmp_path / "out" / "small-book.pdf").read_bytes()
    index = sheet_page(pdf)
    text = pdf_reader(pdf).pages[index].extract_text()
    found = re.search(r"Print this page at (\d+) % onto A4", text)
    assert found and "Print at 100 %" not in text, text
    doc = pikepdf.open(io.BytesIO(pdf))
    media = [float(v) for v in doc.pages[index].MediaBox]
    page_width = media[2] - media[0]
    assert page_width * int(found[1]) / 100 == pytest.approx(210 * PT, rel=0.01)


# --- the variants and marks no built-in profile uses, from a project's print-profiles.yaml ----

SHOP_PROFILES = """\
profiles:
  shop-x3:
    description: a shop that takes PDF/X-3
    trim: a4
    bleed: 3mm
    safe: 5mm
    colour: cmyk
    icc: printshop-newsprint-tr002-240.icc
    ink_limit: 240
    pdf: pdf/x-3
    links: false
    bookmarks: false
  shop-x4:
    description: a shop that takes PDF/X-4
    trim: a4
    bleed: 3mm
    colour: cmyk
    icc: printshop-newsprint-tr002-240.icc
    pdf: pdf/x-4
    links: false
  copy-shop:
    description: a copy shop that cuts by crop marks
    trim: a4
    bleed: 3mm
    marks: crop
    colour: srgb
    pdf: plain
"""


@pytest.mark.parametrize("name, version, key", [
    ("shop-x3", "1.4", "PDF/X-3:2003"), ("shop-x4", "1.6", "PDF/X-4"),
    ("copy-shop", None, None)])
def test_a_projects_x3_x4_and_crop_mark_profiles_build_and_pass_preflight(tmp_path, name,
                                                                        version, key):
    source = manuscript(tmp_path / "book", png(1100, 60))
    (source / "print-profiles.yaml").write_text(SHOP_PROFILES)
    build_project(source, tmp_path / "out", strict=True, profile=name)
    pdf = tmp_path / "out" / "book.pdf"
    # `printshop preflight` finds the manuscript's own profiles, as the build did
    result = run_cli("preflight", pdf, "--profile", name, "--source", source)
    assert result.exit_code == 0, result.output
    assert f"passes preflight for '{name}'" in result.output
    doc = pikepdf.open(pdf)
    trim = [float(v) for v in doc.pages[0].TrimBox]
    bleed = [float(v) for v in doc.pages[0].BleedBox]
    assert trim[0] - bleed[0] == pytest.approx(3 * PT, abs=0.05)
    if version:
        assert doc.pdf_version == version
        pdfx = str(doc.docinfo.get("/GTS_PDFXVersion", "")) or \
            doc.open_metadata().get("pdfxid:GTS_PDFXVersion")
        assert pdfx == key
        assert len(doc.Root.OutputIntents) == 1
        assert "/Annots" not in doc.pages[0].obj             # links: false
    if name == "shop-x4":
        assert "/Outlines" in doc.Root                        # bookmarks kept (the default)
    if name == "copy-shop":
        assert_crop_marks_outside_the_bleed(doc_bytes(doc))


def assert_crop_marks_outside_the_bleed(pdf: bytes) -> None:
    """On the cover (its dark background runs to the edge of the bleed) and on a white page:
    eight crop marks, two at each corner, on the trim lines and beyond the bleed, where they
    stand dark on white paper, and nothing of them inside the bleed."""
    import pypdfium2

    scale = 3   # pixels a point
    doc = pikepdf.open(io.BytesIO(pdf))
    rendered = pypdfium2.PdfDocument(pdf)
    for index in (0, 2):    # the cover, the contents page
        page = doc.pages[index]
        media, bleed, trim = ([float(v) for v in page[box]]
                              for box in ("/MediaBox", "/BleedBox", "/TrimBox"))
        assert media[0] < bleed[0] < trim[0] and media[3] > bleed[3] > trim[3]
        image = rendered[index].render(scale=scale).to_pil().convert("L")

        def px(x, y, media=media):
            return round((x - media[0]) * scale), round((media[3] - y) * scale)

        def dark(x0, y0, x1, y1, media=media, image=image) -> list[tuple[float, float]]:
            """Dark pixels in the PDF rectangle, as PDF points."""
            (a, b), (c, d) = px(x0, y1), px(x1, y0)
            return [(media[0] + (a + i) / scale, media[3] - (b + j) / scale)
                    for j in range(d - b) for i in range(c - a)
                    if image.getpixel((a + i, b + j)) < 96]

        for x, outward_x in ((trim[0], -1), (trim[2], 1)):
            for y, outward_y in ((trim[1], -1), (trim[3], 1)):
                # the mark along the trim line y, in the margin beyond the bleed's x edge
                edge_x = bleed[0] if outward_x < 0 else bleed[2]
                # (from half a point beyond the edge: the cover's own edge is dark)
                span = sorted((edge_x + outward_x * 0.5, media[0] if outward_x < 0
                               else media[2]))
                found = dark(span[0], y - 1.5, span[1], y + 1.5)
                assert found, f"page {index + 1}: no crop mark at y={y:.0f}"
                assert min(abs(fx - edge_x) for fx, _ in found) >= 0.5 * PT   # clear of it
                # the mark along the trim line x, beyond the bleed's y edge
                edge_y = bleed[1] if outward_y < 0 else bleed[3]
                span = sorted((edge_y + outward_y * 0.5, media[1] if outward_y < 0
                               else media[3]))
                found = dark(x - 1.5, span[0], x + 1.5, span[1])
                assert found, f"page {index + 1}: no crop mark at x={x:.0f}"
                assert min(abs(fy - edge_y) for _, fy in found) >= 0.5 * PT
        if index == 2:
            # the white page's bleed holds nothing: the marks never reach into it
            bands = [(bleed[0], bleed[1], trim[0], bleed[3]), (trim[2], bleed[1], bleed[2],
                     bleed[3]), (bleed[0], bleed[1], bleed[2], trim[1]),
                     (bleed[0], trim[3], bleed[2], bleed[3])]
            assert not [b for b in bands if dark(*b)], "a crop mark inside the bleed"


def test_profiles_that_could_never_pass_their_own_preflight_are_refused(tmp_path):
    project = tmp_path / "book"
    project.mkdir()
    bad = SHOP_PROFILES.replace("    colour: srgb\n    pdf: plain\n",
                                "    colour: srgb\n    pdf: pdf/x-4\n")
    (project / "print-profiles.yaml").write_text(bad)
    with pytest.raises(PrintshopError) as failed:
        get_profile("copy-shop", project)
    problem = failed.value.problems[0]
    assert "profile 'copy-shop': pdf/x-4 needs colour: cmyk" in problem.message
    lines = bad.splitlines()
    assert problem.line == len(lines) - lines[::-1].index("    pdf: pdf/x-4")   # copy-shop's
    bad = SHOP_PROFILES.replace("    pdf: pdf/x-4\n", "    pdf: pdf/x-4\n    marks: crop\n")
    (project / "print-profiles.yaml").write_text(bad)
    with pytest.raises(PrintshopError) as failed:
        get_profile("shop-x4", project)
    problem = failed.value.problems[0]
    assert "crop marks are for sRGB copy-shop files" in problem.message
    assert problem.line == bad.splitlines().index("    marks: crop") + 1


# --- images of a CMYK job: never an unconverted copy from the worker's image cache -----------

def test_a_cmyk_books_images_are_cmyk_with_one_render_process(tmp_path):
    # One process lays out the book's parts (to find the page of every reference) and then
    # renders the book: the image it draws must be the CMYK conversion, not the copy the
    # layout pass loaded (WeasyPrint's image cache is keyed by URL alone).
    source = manuscript(tmp_path / "one-process", png(1100, 60))
    build_project(source, tmp_path / "out", strict=True, profile="dtrpg-book", jobs=1)
    doc = pikepdf.open(tmp_path / "out" / "one-process.pdf")
    images = [x for page in doc.pages for x in page.get_images().values()]
    assert images and all(str(i.ColorSpace) == "/DeviceCMYK" for i in images)


def test_an_srgb_and_a_cmyk_job_in_one_process_each_get_their_own_image(tmp_path):
    from printshop.render.job import RenderJob
    from printshop.render.renderer import Renderer

    (tmp_path / "art.png").write_bytes(png(300, 150))
    icc = str(get_profile("dtrpg-book").icc_path())

    def job(cmyk_icc):
        return RenderJob(html='<img src="art.png">', stylesheets=(), roots=(str(tmp_path),),
                         base_url=tmp_path.as_uri() + "/", source="test", cmyk_icc=cmyk_icc)

    with Renderer(processes=1) as renderer:
        results = renderer.render([job(None), job(icc), job(None)])
    docs = [pikepdf.open(io.BytesIO(r.pdf)) for r in results]
    spaces = [[str(x.ColorSpace) for x in doc.pages[0].get_images().values()] for doc in docs]
    assert spaces == [["/DeviceRGB"], ["/DeviceCMYK"], ["/DeviceRGB"]]


# --- manuscripts from elsewhere (the manuscript stylesheet) for a CMYK press -----------------

FOREIGN_MANUSCRIPTS = [*sorted((FIXTURES / "manuscripts").iterdir()),
                       FIXTURES / "foreign-manuscript"]


def sharp_placeholders(folder: Path) -> None:
    """Each raster image replaced by a sharp one of the same name: the fixtures' own are
    screen images (96 ppi as placed), which E-PPI rightly refuses for a press."""
    from PIL import Image

    for path in folder.rglob("*"):
        if path.suffix.lower() in (".png", ".jpg", ".jpeg", ".gif", ".webp"):
            Image.new("RGB", (1500, 750), (90, 120, 60)).save(path)


def colours_drawn(pdf: bytes) -> set[str]:
    return set().union(*(pdf_colours(pdf, n) for n in range(len(pdf_reader(pdf).pages))))


def press_cmyk(name: str) -> str:
    """How pdf_colours names the palette colour `name` in a CMYK build."""
    cmyk = Colours.for_project(None, "cmyk").cmyk_of(name)
    return "cmyk " + " ".join(f"{round(v):g}" for v in cmyk)


@pytest.mark.parametrize("folder", FOREIGN_MANUSCRIPTS, ids=lambda path: path.name)
def test_a_manuscript_from_elsewhere_builds_for_dtrpg_book_in_cmyk_only(tmp_path, folder):
    source = tmp_path / folder.name
    shutil.copytree(folder, source)
    sharp_placeholders(source)
    # the build runs preflight on its file and writes nothing if it fails
    build_project(source, tmp_path / "out", profile="dtrpg-book")
    pdf = (tmp_path / "out" / f"{folder.name}.pdf").read_bytes()
    profile = get_profile("dtrpg-book")
    findings = [str(f) for f in preflight(pdf, profile, (215.9, 279.4),
                                          profile.icc_path().read_bytes())]
    assert findings == []
    drawn = colours_drawn(pdf)
    assert not [c for c in drawn if c.startswith("#")], "DeviceRGB colours in the book"
    if folder.name == "obsidian":
        # its warning and tip callouts keep their coloured edges, in the palette's CMYK
        assert {press_cmyk("callout-warning"), press_cmyk("callout-tip")} <= drawn
    if folder.name == "missing-image":
        assert "Missing image" in pdf_text(pdf)


RAW_HTML_CHAPTER = """# Everything

Words with <mark>a highlight</mark>, <kbd>Ctrl</kbd>, <ins>in</ins>, <del>out</del>,
<abbr title="hit points">HP</abbr> and a [link](https://example.com).[^1]

<details open><summary>Opened</summary>Shown words.</details>

<table><tr><th>Head</th></tr><tr><td style="text-align: right">1</td></tr></table>

<hr>

> [!danger] Careful
> Watch out.

> [!success] Done
> Well done.

:::warning
A container warning.
:::

![Nothing here](nowhere.png)

[^1]: The footnote.
"""


def test_a_manuscripts_own_html_and_callouts_print_in_cmyk(tmp_path):
    # raw HTML kept by the sanitizer brings the browser's defaults (mark's yellow and black)
    source = tmp_path / "raw-html"
    source.mkdir()
    (source / "printshop.yaml").write_text("html: sanitized\n")
    (source / "01-all.md").write_text(RAW_HTML_CHAPTER)
    build_project(source, tmp_path / "out", profile="dtrpg-book")
    pdf = (tmp_path / "out" / "raw-html.pdf").read_bytes()
    drawn = colours_drawn(pdf)
    assert not [c for c in drawn if c.startswith("#")], "DeviceRGB colours in the book"
    assert {press_cmyk("highlight"), press_cmyk("callout-warning"),
            press_cmyk("callout-tip"), press_cmyk("blood")} <= drawn
    # the HTML edition draws the same colours in sRGB: every colour its stylesheets name
    # is defined in it
    import re

    html = (tmp_path / "out" / "raw-html.html").read_text()
    used = set(re.findall(r"var\(--([a-z0-9-]+)", html))
    defined = set(re.findall(r"--([a-z0-9-]+)\s*:", html))
    assert {"highlight", "callout-warning", "callout-tip"} <= used
    assert used <= defined, f"undefined in the HTML edition: {sorted(used - defined)}"
    srgb = Colours.for_project(None, "srgb")
    assert f"--callout-warning: {srgb('callout-warning')};" in html
