"""`printshop preflight`: each finding on a purpose-made bad PDF.

One good PDF/X-1a file is rendered (WeasyPrint, DeviceCMYK colours, an embedded font) and
finished for a small CMYK profile; each test breaks one thing in a copy (pikepdf) and
checks that preflight names exactly that, with its page.
"""

from __future__ import annotations

import io
import json

import pikepdf
import pytest

from conftest import REPO, run_cli
from printshop.preflight import preflight
from printshop.profiles import PrintProfile, ProfileSpec, get_profile
from printshop.render.pdf.press import finish

ICC = REPO / "printshop" / "data" / "icc" / "printshop-newsprint-tr002-240.icc"
TRIM = (100.0, 150.0)
FONT = REPO / "templates" / "fonts" / "vollkorn"


def make_profile(**fields) -> PrintProfile:
    data = {"description": "test press", "bleed": "0.125in", "colour": "cmyk",
            "icc": ICC.name, "ink_limit": "240", "pdf": "pdf/x-1a", "links": "false",
            "bookmarks": "false", "pages": {"multiple_of": "2"}, "min_image_ppi": "300"}
    data.update(fields)
    return PrintProfile("test-press", ProfileSpec.model_validate(data), ICC, 1)


PROFILE = make_profile()


@pytest.fixture(scope="module")
def good_pdf() -> bytes:
    from weasyprint import CSS, HTML

    font = next(FONT.glob("*.ttf"))
    css = CSS(string=f"""
      @font-face {{ font-family: T; src: url({font.as_uri()}); }}
      @page {{ size: {TRIM[0]}mm {TRIM[1]}mm; bleed: 3.175mm; margin: 10mm;
              background: device-cmyk(0 0.2 0.4 0); }}
      html {{ font-family: T; color: device-cmyk(0 0 0 1); }}
      h1 {{ color: device-cmyk(0 0.66 0.51 0.7); bookmark-level: none; }}
      .page {{ break-after: page; }}""")
    html = ("<html><head><title>Good</title></head><body><div class=page><h1>One</h1>"
            "<p>Text on page one.</p></div><div><p>Page two.</p></div></body></html>")
    pdf = HTML(string=html).write_pdf(stylesheets=[css])
    finished, added = finish(pdf, PROFILE, ICC)
    assert added == 0
    return finished


def codes(findings) -> set[str]:
    return {f.code for f in findings if f.error}


def edited(pdf: bytes, change) -> bytes:
    doc = pikepdf.open(io.BytesIO(pdf))
    change(doc)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def add_content(doc, page_index: int, content: bytes, resources: dict | None = None):
    page = doc.pages[page_index]
    for kind, entries in (resources or {}).items():
        if kind not in page.Resources:
            page.Resources[kind] = pikepdf.Dictionary()
        for name, value in entries.items():
            page.Resources[kind][name] = value
    page.contents_add(pikepdf.Stream(doc, content), prepend=False)


def test_the_good_file_passes(good_pdf):
    findings = preflight(good_pdf, PROFILE, TRIM, ICC.read_bytes())
    assert [str(f) for f in findings] == []


def test_missing_bleed(good_pdf):
    def no_bleed(doc):
        for page in doc.pages:
            page.MediaBox = page.TrimBox
            page.BleedBox = page.TrimBox
    findings = preflight(edited(good_pdf, no_bleed), PROFILE, TRIM)
    bleed = [f for f in findings if f.code == "E-BLEED"]
    assert len(bleed) == 1 and bleed[0].page == 1
    assert "no bleed" in bleed[0].message and "(and 1 more pages)" in bleed[0].message


def test_crop_marks_need_room_beyond_the_bleed(good_pdf):
    # a copy shop's profile with crop marks: the marks stand outside the bleed, so the page
    # (MediaBox) reaches beyond the BleedBox, which alone says the bleed
    crop = make_profile(marks="crop", colour="srgb", icc=None, ink_limit=None, pdf="plain")
    marked, _ = finish(good_pdf, crop)
    assert [str(f) for f in preflight(marked, crop, TRIM)] == []
    # WeasyPrint's own marks lie inside the bleed: a page that ends at the bleed has no room
    bleed = [f for f in preflight(good_pdf, crop, TRIM) if f.code == "E-BLEED"]
    assert len(bleed) == 1 and "no room for the crop marks" in bleed[0].message
    # a press that wants no marks wants the page to end at the bleed
    bleed = [f for f in preflight(marked, PROFILE, TRIM) if f.code == "E-BLEED"]
    assert len(bleed) == 1 and "the profile wants 3.17 mm on every side" in bleed[0].message


def test_wrong_trim_and_mixed_sizes(good_pdf):
    def shrink(doc):
        page = doc.pages[1]
        page.TrimBox = [0, 0, 200, 300]
        page.MediaBox = [-9, -9, 209, 309]
    findings = preflight(edited(good_pdf, shrink), PROFILE, TRIM)
    trim = [f for f in findings if f.code == "E-TRIM"]
    assert trim and trim[0].page == 2 and "100.00 × 150.00 mm" in trim[0].message
    assert "E-SIZE" in codes(findings)


def test_page_count_rule(good_pdf):
    def drop(doc):
        del doc.pages[1]
    findings = preflight(edited(good_pdf, drop), PROFILE, TRIM)
    assert [str(f) for f in findings if f.code == "E-PAGES"] == [
        "E-PAGES: 1 pages: the count is not a multiple of 2"]
    minimum = make_profile(pages={"multiple_of": "2", "min": "4"})
    assert "below the minimum of 4" in str(
        [f for f in preflight(good_pdf, minimum, TRIM) if f.code == "E-PAGES"][0])


def test_pdfx_keys(good_pdf):
    def weasyprint_keys(doc):
        doc.docinfo["/GTS_PDFXVersion"] = "PDF/X-1a:2003"    # what WeasyPrint 70 writes
        doc.docinfo["/Trapped"] = pikepdf.Name("/Unknown")
    findings = preflight(edited(good_pdf, weasyprint_keys), PROFILE, TRIM)
    messages = [f.message for f in findings if f.code == "E-PDFX"]
    assert any("GTS_PDFXVersion is PDF/X-1a:2003; pdf/x-1a wants PDF/X-1:2003" in m
               for m in messages)
    assert any("Trapped is /Unknown" in m for m in messages)


def test_output_intent(good_pdf):
    def drop(doc):
        del doc.Root["/OutputIntents"]
    assert "E-INTENT" in codes(preflight(edited(good_pdf, drop), PROFILE, TRIM))

    def rgb_profile(doc):
        doc.Root.OutputIntents[0].DestOutputProfile.write(b"\0" * 12 + b"mntrRGB " +
                                                          b"\0" * 200)
    findings = preflight(edited(good_pdf, rgb_profile), PROFILE, TRIM)
    assert any(f.code == "E-INTENT" and "not a CMYK output profile" in f.message
               for f in findings)


def test_rgb_text_and_rgb_image(good_pdf):
    def rgb(doc):
        font = next(iter(doc.pages[0].Resources.Font.keys()))
        image = pikepdf.Stream(doc, b"\xff\x00\x00" * 4, Type=pikepdf.Name.XObject,
                               Subtype=pikepdf.Name.Image, Width=2, Height=2,
                               ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)
        add_content(doc, 1, f"q 1 0 0 rg BT {font} 9 Tf 20 20 Td (x) Tj ET Q "
                    f"q 1 0 0 1 0 0 cm /Im9 Do Q".encode(),
                    {"/Font": {font: doc.pages[0].Resources.Font[font]},
                     "/XObject": {"/Im9": image}})
    findings = preflight(edited(good_pdf, rgb), PROFILE, TRIM)
    lines = [str(f) for f in findings if f.code == "E-RGB"]
    assert "p2: E-RGB: DeviceRGB fill colour in text" in lines
    assert "p2: E-RGB: DeviceRGB image" in lines
    # the same file is fine for an sRGB profile
    srgb = make_profile(colour="srgb", pdf="plain", icc=None, ink_limit=None)
    assert "E-RGB" not in codes(preflight(edited(good_pdf, rgb), srgb, TRIM))


def test_lab_colour(good_pdf):
    def lab(doc):
        add_content(doc, 0, b"/CSLab cs 50 0 0 sc 0 0 5 5 re f",
                    {"/ColorSpace": {"/CSLab": pikepdf.Array([pikepdf.Name.Lab,
                                                              pikepdf.Dictionary(
                                                                  WhitePoint=[0.9642, 1,
                                                                              0.8249])])}})
    assert "E-LAB" in codes(preflight(edited(good_pdf, lab), PROFILE, TRIM))


def test_total_ink_and_rich_black_text(good_pdf):
    def heavy(doc):
        font = next(iter(doc.pages[0].Resources.Font.keys()))
        add_content(doc, 0, f"0.8 0.8 0.8 0.8 k 0 0 10 10 re f "
                    f"BT 0.6 0.4 0.4 1 k {font} 9 Tf 20 20 Td (x) Tj ET".encode())
    findings = preflight(edited(good_pdf, heavy), PROFILE, TRIM)
    ink = [f for f in findings if f.code == "E-INK"]
    assert ink and ink[0].page == 1 and ink[0].message.startswith("320 % total ink")
    assert "E-TEXTBLACK" in codes(findings)


def test_fonts_not_embedded_and_type3(good_pdf):
    def fonts(doc):
        helvetica = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                       BaseFont=pikepdf.Name.Helvetica)
        type3 = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3,
                                   BaseFont=pikepdf.Name("/Bitmap"),
                                   FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
                                   FontBBox=[0, 0, 0, 0], CharProcs=pikepdf.Dictionary(),
                                   Encoding=pikepdf.Dictionary(), FirstChar=0, LastChar=0,
                                   Widths=[0], Resources=pikepdf.Dictionary())
        add_content(doc, 1, b"BT /FH 9 Tf 0 0 0 1 k (x) Tj /F3 9 Tf (x) Tj ET",
                    {"/Font": {"/FH": doc.make_indirect(helvetica),
                               "/F3": doc.make_indirect(type3)}})
    findings = preflight(edited(good_pdf, fonts), PROFILE, TRIM)
    assert "p2: E-FONT: font Helvetica is not embedded" in [str(f) for f in findings]
    assert "p2: E-TYPE3: font Bitmap is Type 3 (bitmap glyphs)" in [str(f) for f in findings]


def _embedded_font(doc, name: str, program: bytes):
    """A TrueType font dictionary with `program` as its embedded font file."""
    descriptor = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor,
                                    FontName=pikepdf.Name(name),
                                    FontFile2=pikepdf.Stream(doc, program))
    return doc.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType, BaseFont=pikepdf.Name(name),
        FontDescriptor=doc.make_indirect(descriptor)))


def test_two_subsets_under_one_name(good_pdf):
    """What a join of separately subset documents made (ISO 32000-1, 9.6.4): two programs
    named ABCDEF+Body on pages 1 and 2; the same program twice, or two tags, is right."""
    def fonts(names_and_programs):
        def change(doc):
            for page, (name, program) in enumerate(names_and_programs):
                key = f"/S{page}"     # (the pages share one resource dictionary)
                add_content(doc, page, b"BT %s 9 Tf 0 0 0 1 k (x) Tj ET" % key.encode(),
                            {"/Font": {key: _embedded_font(doc, name, program)}})
        return change

    clash = preflight(edited(good_pdf, fonts([("/ABCDEF+Body", b"glyphs a"),
                                              ("/ABCDEF+Body", b"glyphs b")])), PROFILE, TRIM)
    assert [str(f) for f in clash if f.code == "E-SUBSET"] == [
        "p2: E-SUBSET: 2 different subsets of a font named ABCDEF+Body (each needs a tag of "
        "its own: software that merges fonts by name loses glyphs)"]
    for fine in ([("/ABCDEF+Body", b"glyphs a"), ("/ABCDEF+Body", b"glyphs a")],
                 [("/ABCDEF+Body", b"glyphs a"), ("/GHIJKL+Body", b"glyphs b")]):
        assert "E-SUBSET" not in codes(preflight(edited(good_pdf, fonts(fine)), PROFILE, TRIM))


def test_image_resolution_as_placed(good_pdf):
    def low_res(doc):
        image = pikepdf.Stream(doc, b"\x00\x00\x00\x00" * 100, Type=pikepdf.Name.XObject,
                               Subtype=pikepdf.Name.Image, Width=10, Height=10,
                               ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8)
        # 10 px over 1 inch (72 pt) = 10 ppi; drawn inside a form scaled ×2 → 5 ppi
        form = pikepdf.Stream(doc, b"q 36 0 0 36 0 0 cm /Im1 Do Q",
                              Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                              BBox=[0, 0, 100, 100], Matrix=[2, 0, 0, 2, 0, 0],
                              Resources=pikepdf.Dictionary(
                                  XObject=pikepdf.Dictionary(Im1=image)))
        add_content(doc, 0, b"q /Fm1 Do Q", {"/XObject": {"/Fm1": form}})
    findings = preflight(edited(good_pdf, low_res), PROFILE, TRIM)
    assert [str(f) for f in findings if f.code == "E-PPI"] == [
        "p1: E-PPI: image Im1 is 10 ppi as placed; the profile wants 300"]


def test_transparency_forbidden_in_x1a_allowed_in_x4(good_pdf):
    def transparent(doc):
        state = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0.5)
        group_form = pikepdf.Stream(doc, b"", Type=pikepdf.Name.XObject,
                                    Subtype=pikepdf.Name.Form, BBox=[0, 0, 1, 1],
                                    Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency))
        add_content(doc, 1, b"q /Half gs 0 0 0 1 k 0 0 5 5 re f /Grp Do Q",
                    {"/ExtGState": {"/Half": state}, "/XObject": {"/Grp": group_form}})
    bad = edited(good_pdf, transparent)
    found = [str(f) for f in preflight(bad, PROFILE, TRIM) if f.code == "E-TRANSP"]
    assert "p2: E-TRANSP: opacity below 1 (ca 0.5)" in found
    assert "p2: E-TRANSP: a transparency group (Form XObject /Group)" in found
    x4 = make_profile(pdf="pdf/x-4")
    assert "E-TRANSP" not in codes(preflight(bad, x4, TRIM))


def test_links_bookmarks_and_file_size(good_pdf):
    def navigation(doc):
        link = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link,
                                  Rect=[0, 0, 10, 10])
        doc.pages[1].Annots = doc.make_indirect(pikepdf.Array([doc.make_indirect(link)]))
        with doc.open_outline() as outline:
            outline.root.append(pikepdf.OutlineItem("Chapter", 0))
    findings = preflight(edited(good_pdf, navigation), make_profile(max_file_mb="0.001"),
                         TRIM)
    lines = [str(f) for f in findings]
    assert "p2: E-LINKS: 1 annotations (links) in the file; the service wants none" in lines
    assert any(line.startswith("E-BOOKMARKS") for line in lines)
    assert any(line.startswith("E-FILESIZE") for line in lines)


def test_not_a_pdf():
    assert [f.code for f in preflight(b"%PDF-1.4 nonsense", PROFILE)] == ["E-PDF"]


def test_cli_text_json_and_exit_status(tmp_path, good_pdf):
    bad = edited(good_pdf, lambda doc: doc.pages.__delitem__(1))
    path = tmp_path / "bad.pdf"
    path.write_bytes(bad)
    profiles = tmp_path / "print-profiles.yaml"
    profiles.write_text(
        "profiles:\n  test-press:\n    description: test\n    bleed: 0.125in\n"
        "    colour: cmyk\n    icc: printshop-newsprint-tr002-240.icc\n    ink_limit: 240\n"
        "    pdf: pdf/x-1a\n    links: false\n    bookmarks: false\n"
        "    pages: {multiple_of: 2}\n")
    (tmp_path / "printshop.yaml").write_text("title: T\nproducts: {}\n")
    result = run_cli("preflight", path, "--profile", "test-press", "--source", tmp_path)
    assert result.exit_code == 1
    assert "E-PAGES: 1 pages: the count is not a multiple of 2" in result.output
    assert "fails preflight for 'test-press' (1 error, 0 warnings)" in result.output
    result = run_cli("preflight", path, "--profile", "test-press", "--source", tmp_path,
                     "--json")
    data = json.loads(result.output)
    assert data["passed"] is False
    assert [(f["code"], f["severity"]) for f in data["findings"]] == [("E-PAGES", "error")]
    path.write_bytes(good_pdf)
    ok = run_cli("preflight", path, "--profile", "test-press", "--source", tmp_path)
    assert ok.exit_code == 0, ok.output
    unknown = run_cli("preflight", path, "--profile", "test-pres", "--source", tmp_path)
    assert unknown.exit_code == 2
    assert "did you mean 'test-press'?" in unknown.output


def test_builtin_profiles_load():
    profile = get_profile("dtrpg-book")
    assert profile.bleed == pytest.approx(3.175) and profile.cmyk
    assert profile.icc_path().is_file()
