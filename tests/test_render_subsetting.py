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
