"""Font subsets that keep their font's date (render/weasy/subsetting.py, the patch
`font-dates`): with fontTools subsetting (a machine without libharfbuzz-subset), two
renders at different times are the same bytes; without the patch they are not.
tests/test_system_check.py proves the same end to end, in a process without the library."""

from __future__ import annotations

import pytest

from printshop.render.weasy import registry

HTML = "<p style='font: 10pt Vollkorn'>A date in every subset</p>"


@pytest.fixture
def fonttools_subsetting(monkeypatch):
    """WeasyPrint's fontTools branch, as on a machine without HarfBuzz's subsetter; a
    render at a given time (fontTools' clock, SOURCE_DATE_EPOCH)."""
    import logging

    from weasyprint.pdf import fonts

    from printshop.render.job import _font_config
    from printshop.resources import TEMPLATES_DIR

    config = _font_config(None)
    monkeypatch.setattr(fonts, "harfbuzz_subset", None)
    logging.getLogger("weasyprint").disabled = True   # its note about fontTools

    def render(at: int) -> bytes:
        from weasyprint import CSS
        from weasyprint import HTML as Document

        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(at))
        sheet = CSS(filename=str(TEMPLATES_DIR / "css" / "fonts.css"), font_config=config)
        return Document(string=HTML, base_url=TEMPLATES_DIR.as_uri() + "/").write_pdf(
            stylesheets=[sheet], font_config=config)
    yield render
    logging.getLogger("weasyprint").disabled = False


def test_fonttools_subsets_keep_the_fonts_date(fonttools_subsetting):
    assert registry.active("font-dates")
    assert fonttools_subsetting(1_000_000_000) == fonttools_subsetting(1_700_000_000)
    with registry.switched({"font-dates"}):     # the bug the patch fixes
        assert fonttools_subsetting(1_000_000_000) != fonttools_subsetting(1_700_000_000)


def _subsets(pdf: bytes) -> dict[str, set[str]]:
    """Each embedded font's name → the digests of the programs under it."""
    import hashlib
    import io

    import pikepdf

    named: dict[str, set[str]] = {}
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for obj in doc.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor" \
                    and "/FontFile2" in obj:
                named.setdefault(str(obj.FontName), set()).add(
                    hashlib.sha256(obj.FontFile2.read_bytes()).hexdigest())
    return named


def test_subsets_joined_in_one_file_are_named_apart():
    """Two documents set in Vollkorn, joined (as a book's parts are): two subsets, two
    names; WeasyPrint alone names both after the font (the bug the patch fixes)."""
    from weasyprint import CSS
    from weasyprint import HTML as Document

    from printshop.render.job import _font_config
    from printshop.render.pdf.merge import merge_pdfs
    from printshop.resources import TEMPLATES_DIR

    config = _font_config(None)

    def joined(*texts: str) -> dict[str, set[str]]:
        sheet = CSS(filename=str(TEMPLATES_DIR / "css" / "fonts.css"), font_config=config)
        return _subsets(merge_pdfs([Document(
            string=f"<p style='font: 10pt Vollkorn'>{text}</p>",
            base_url=TEMPLATES_DIR.as_uri() + "/").write_pdf(stylesheets=[sheet],
                                                             font_config=config)
            for text in texts]))

    assert registry.active("subset-tags")
    apart = joined("Abacus", "Zygote")
    assert len(apart) == 2 and all(len(programs) == 1 for programs in apart.values())
    assert all(name.endswith("+Vollkorn") for name in apart)
    assert len(joined("Abacus", "Abacus")) == 1      # the same subset: one name
    with registry.switched({"subset-tags"}):
        together = joined("Abacus", "Zygote")
    assert [len(programs) for programs in together.values()] == [2]
