"""Print-on-demand cover wraps (products/book/cover.py, cover_geometry.py) and their
preflight against the interior (preflight/cover.py): the spine the vendors' formulas give,
spine text only from their minimum, the barcode box left clear, text inside the safe
areas, an interior without the cover."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium
import pytest

from printshop.builder import build_project
from printshop.cover_geometry import spine_width_mm, wrap
from printshop.errors import PrintshopError
from printshop.preflight.cover import preflight_cover
from printshop.profiles import get_profile

LETTER = (215.9, 279.4)
MM = 25.4


# --- the geometry, against the vendors' own formulas written out here --------------------

def test_lulu_spine_is_pages_over_444_plus_0_06_inch():
    lulu = get_profile("lulu-book")
    for pages in (32, 100, 244):
        assert spine_width_mm(lulu.cover, pages) == pytest.approx((pages / 444 + 0.06) * MM)
    assert spine_width_mm(lulu.cover, 100, "magazine") == pytest.approx((100 / 460 + 0.06) * MM)


def test_dtrpg_spine_is_lightning_sources_pages_per_inch_plus_the_cover():
    dtrpg = get_profile("dtrpg-book")
    assert spine_width_mm(dtrpg.cover, 100) == pytest.approx((100 / 360 + 0.025) * MM)
    assert spine_width_mm(dtrpg.cover, 100, "standard-color-50") == \
        pytest.approx((100 / 400 + 0.025) * MM)


@pytest.mark.parametrize("name, below, at", [("dtrpg-book", 47, 48), ("lulu-book", 79, 80)])
def test_spine_text_only_from_the_vendors_minimum(name, below, at):
    profile = get_profile(name)
    assert not wrap(profile, LETTER, below).spine_text
    assert wrap(profile, LETTER, at).spine_text


def test_the_wrap_is_back_spine_front_and_a_template_width_wins():
    profile = get_profile("dtrpg-book")
    made = wrap(profile, LETTER, 120)
    assert made.width == pytest.approx(2 * 215.9 + (120 / 360 + 0.025) * MM)
    assert made.front.x == pytest.approx(215.9 + made.spine)
    given = wrap(profile, LETTER, 120, spine_width=9.0)
    assert given.spine == 9.0 and given.spine_from == "template"
    # the barcode box: 2 × 1.2 in, 0.25 in from the spine and from the foot, on the back
    box = made.barcode
    assert (box.width, box.height) == pytest.approx((2 * MM, 1.2 * MM))
    assert box.x + box.width == pytest.approx(215.9 - 0.25 * MM)
    assert box.y + box.height == pytest.approx(279.4 - 0.25 * MM)


def test_too_thin_for_the_binding_and_a_profile_without_a_cover_are_errors():
    with pytest.raises(PrintshopError, match="takes 32 pages at least"):
        wrap(get_profile("lulu-book"), LETTER, 30)
    with pytest.raises(PrintshopError, match="has no cover"):
        wrap(get_profile("home"), LETTER, 30)


# --- a book and its wrap for DriveThruRPG ---------------------------------------------------

def manuscript(folder, extra=""):
    folder.mkdir(parents=True)
    (folder / "printshop.yaml").write_text("title: Deep Halls\nsubtitle: A Small Book\n"
                                           "author: Test Author\n" + extra)
    (folder / "01-start.md").write_text("# The Start\n\n" + "Words in the dark. " * 80 + "\n")
    return folder


@pytest.fixture(scope="module")
def dtrpg(tmp_path_factory):
    base = tmp_path_factory.mktemp("cover")
    source = manuscript(base / "deep")
    build_project(source, base / "out", strict=True, profile="dtrpg-book",
                  context_options={"cover": True})
    return ((base / "out" / "deep.pdf").read_bytes(),
            (base / "out" / "deep-cover.pdf").read_bytes())


def boxes(pdf: bytes) -> dict[str, list[float]]:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        return {name: [float(v) for v in page.obj[name]]
                for name in ("/MediaBox", "/TrimBox", "/BleedBox")}


def test_the_wrap_passes_preflight_against_its_interior(dtrpg):
    interior, cover = dtrpg
    profile = get_profile("dtrpg-book")
    assert preflight_cover(cover, profile, interior, profile.icc_path().read_bytes()) == []


def test_the_wrap_is_sized_for_the_interiors_page_count_with_bleed(dtrpg):
    interior, cover = dtrpg
    pages = len(pikepdf.open(io.BytesIO(interior)).pages)
    spine = (pages / 360 + 0.025) * MM               # Lightning Source's 70 lb white
    found = boxes(cover)
    trim = found["/TrimBox"]
    assert (trim[2] - trim[0]) * MM / 72 == pytest.approx(2 * 215.9 + spine, abs=0.05)
    assert (trim[3] - trim[1]) * MM / 72 == pytest.approx(279.4, abs=0.05)
    media = found["/MediaBox"]
    for side in (trim[0] - media[0], trim[1] - media[1], media[2] - trim[2],
                 media[3] - trim[3]):
        assert side == pytest.approx(9.0, abs=0.05)   # 0.125 in of bleed all round


def chars_in(pdf: bytes, rect_mm) -> str:
    """The text drawn inside `rect_mm` (x, y, width, height from the trim's top left)."""
    document = pdfium.PdfDocument(pdf)
    page = document[0]
    left, bottom, right, top = page.get_trimbox()
    x, y, w, h = (v * 72 / MM for v in rect_mm)
    text = page.get_textpage().get_text_bounded(left + x, top - y - h, left + x + w, top - y)
    document.close()
    return " ".join(text.split())


def test_text_stays_in_the_safe_areas_and_the_barcode_box_is_clear(dtrpg):
    interior, cover = dtrpg
    pages = len(pikepdf.open(io.BytesIO(interior)).pages)
    geometry = wrap(get_profile("dtrpg-book"), LETTER, pages)
    front, back = geometry.safe_area(geometry.front), geometry.safe_area(geometry.back)
    everything = chars_in(cover, (-5, -5, geometry.width + 10, 290))
    inside = (chars_in(cover, (front.x, front.y, front.width, front.height)) + " "
              + chars_in(cover, (back.x, back.y, back.width, back.height)))
    assert "Deep Halls" in inside and "A Small Book" in inside
    assert len(everything.replace(" ", "")) == len(inside.replace(" ", ""))
    box = geometry.barcode
    assert chars_in(cover, (box.x, box.y, box.width, box.height)) == ""
    # the box is white paper on the rich black cover
    document = pdfium.PdfDocument(cover)
    image = document[0].render(scale=20 / 72, crop=(9, 9, 9, 9)).to_pil().convert("L")
    document.close()
    scale = 20 / MM
    inner = image.crop((int((box.x + 2) * scale), int((box.y + 2) * scale),
                        int((box.x + box.width - 2) * scale),
                        int((box.y + box.height - 2) * scale)))
    assert inner.getextrema()[0] > 245
    assert image.crop((5, 5, 40, 40)).getextrema()[1] < 60    # the cover's black


def test_no_spine_text_on_a_thin_book(dtrpg):
    interior, cover = dtrpg
    pages = len(pikepdf.open(io.BytesIO(interior)).pages)
    geometry = wrap(get_profile("dtrpg-book"), LETTER, pages)
    assert not geometry.spine_text
    spine = geometry.spine_rect
    assert chars_in(cover, (spine.x, 0, spine.width, 279.4)) == ""


def test_the_interior_opens_with_a_plain_title_page_not_the_cover(dtrpg):
    interior, _ = dtrpg
    document = pdfium.PdfDocument(interior)
    first = document[0]
    assert "Deep Halls" in first.get_textpage().get_text_range()
    grey = first.render(scale=10 / 72).to_pil().convert("L")
    document.close()
    from PIL import ImageStat

    assert ImageStat.Stat(grey).mean[0] > 230   # white paper, not the black cover


def test_preflight_names_the_size_a_wrong_interior_wants(dtrpg):
    interior, cover = dtrpg
    profile = get_profile("dtrpg-book")
    doc = pikepdf.open(io.BytesIO(interior))
    for _ in range(40):
        doc.pages.append(doc.pages[-1])
    out = io.BytesIO()
    doc.save(out)
    findings = preflight_cover(cover, profile, out.getvalue())
    codes = [f.code for f in findings]
    assert "E-TRIM" in codes
    message = next(f.message for f in findings if f.code == "E-TRIM")
    assert f"a {len(doc.pages)}-page interior wants" in message


def test_spine_text_from_a_projects_own_cover_profile_and_preflight_of_too_thin(tmp_path):
    source = manuscript(tmp_path / "spined")
    (source / "print-profiles.yaml").write_text("""\
profiles:
  test-book:
    description: a book whose spine takes text from 4 pages
    trim: letter
    bleed: 3mm
    safe: 0.25in
    links: false
    bookmarks: false
    pages: {multiple_of: 2}
    cover:
      papers: {thick: {description: card-thick leaves, pages_per_inch: 80}}
      paper: thick
      spine_text_from: 4
      spine_margin: 1mm
      barcode: {width: 40mm, height: 25mm, from_spine: 8mm, from_bottom: 8mm}
      source: made up for a test
""")
    # a spine wide enough for a line of text: the width from a vendor's template
    build_project(source, tmp_path / "out", strict=True, profile="test-book",
                  context_options={"cover": True, "spine_width": "12mm"})
    interior = (tmp_path / "out" / "spined.pdf").read_bytes()
    cover = (tmp_path / "out" / "spined-cover.pdf").read_bytes()
    from printshop.profiles import load_profiles

    profile = load_profiles(source)["test-book"]
    pages = len(pikepdf.open(io.BytesIO(interior)).pages)
    geometry = wrap(profile, LETTER, pages, spine_width=12.0)
    trim = boxes(cover)["/TrimBox"]
    assert (trim[2] - trim[0]) * MM / 72 == pytest.approx(2 * 215.9 + 12, abs=0.05)
    spine = geometry.spine_rect
    on_spine = chars_in(cover, (spine.x, 0, spine.width, 279.4))
    assert "Deep Halls" in on_spine and "TESTAUTHOR" in on_spine.replace(" ", "")
    # the line runs down the spine (turned 90° clockwise): its letters top to bottom
    document = pdfium.PdfDocument(cover)
    text = document[0].get_textpage()
    everything = text.get_text_range()
    start = everything.index("Deep Halls", everything.index("Deep Halls") + 1) \
        if everything.count("Deep Halls") > 1 else everything.index("Deep Halls")
    first, last = text.get_charbox(start), text.get_charbox(start + 8)
    document.close()
    assert first[3] > last[3]        # the first letter higher up than the last
    assert preflight_cover(cover, profile, interior, spine_width=12.0) == []
    assert [f.code for f in preflight_cover(cover, profile, interior)] == ["E-TRIM"]
    # the same wrap checked for a vendor that prints no text on so thin a spine
    strict = profile.spec.model_copy(update={"cover": profile.cover.model_copy(
        update={"spine_text_from": pages + 2})})
    from printshop.profiles import PrintProfile

    thin = PrintProfile("thin-book", strict, profile.path, profile.line)
    codes = [f.code for f in preflight_cover(cover, thin, interior, spine_width=12.0)]
    assert codes == ["E-SPINETEXT"]


def test_a_cover_product_in_the_manifest_wraps_its_book(tmp_path):
    source = manuscript(tmp_path / "kinds", extra="""\
products:
  book: {kind: guide, chapters: ., formats: [pdf], profile: dtrpg-book}
  book-cover:
    kind: cover
    book: book
    spine_width: 6mm
    back: "**Read it.** Then read it again."
""")
    build_project(source, tmp_path / "out", ["book-cover"], strict=True)
    cover = (tmp_path / "out" / "book-cover.pdf").read_bytes()
    assert not (tmp_path / "out" / "book.pdf").exists()    # only the wrap was asked for
    trim = boxes(cover)["/TrimBox"]
    assert (trim[2] - trim[0]) * MM / 72 == pytest.approx(2 * 215.9 + 6, abs=0.05)
    assert "Read it. Then read it again." in chars_in(cover, (0, 0, 215.9, 279.4))
