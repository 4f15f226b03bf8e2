"""The library fixes in render/weasy/speedups.py: same parse, and the parser's cache now hits."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

tinyhtml5 = pytest.importorskip("tinyhtml5")
from tinyhtml5 import inputstream  # noqa: E402

from printshop.render.weasy import speedups  # noqa: E402

HTML = ("<!DOCTYPE html><p class='a'>Fish &amp; chips &lt;3 <b>bold</b>\n<!-- note -->"
        "<td>x</td><pre>  spaced  </pre><a href=\"#x\" title='t'>link</a></p>")


def _tree(html: str) -> str:
    return ET.tostring(tinyhtml5.parse(html), encoding="unicode")


def test_the_parse_is_the_same_and_the_stop_character_cache_hits(monkeypatch):
    monkeypatch.setattr(inputstream, "characters_until_regex", {})
    before = _tree(HTML)
    speedups.apply()
    cache = inputstream.characters_until_regex
    assert _tree(HTML) == before
    entries = dict(cache)
    assert entries and all(isinstance(key[0], (str, tuple, frozenset)) for key in entries)
    _tree(HTML)
    assert dict(cache) == entries     # the second parse found every regex in the cache
    speedups.apply()                  # applying twice keeps the cache
    assert inputstream.characters_until_regex is cache


_LIBRARIES = """
import sys
{setup}
libraries = set()
for line in open("/proc/self/maps"):
    name = line.split()[-1]
    if any(part in name for part in ("libpango", "libharfbuzz", "libfontconfig", "libgobject")):
        libraries.add(name)
print("\\n".join(sorted(libraries)))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux library lookup")
def test_weasyprint_imported_quickly_loads_the_libraries_its_own_import_loads():
    def loaded(setup: str) -> set[str]:
        out = subprocess.run([sys.executable, "-c", _LIBRARIES.format(setup=setup)],
                             capture_output=True, text=True, check=True).stdout
        return set(out.split())

    own = loaded("import weasyprint")
    quick = loaded("from printshop.render.weasy.speedups import import_weasyprint\n"
                   "import_weasyprint()")
    assert quick == own
    assert any("libharfbuzz-subset" in name for name in own)


_PAGES = ("<!DOCTYPE html><style>@page {{ size: 60mm 40mm; margin: 8mm; {rule} }} "
          "p {{ font: 9pt 'Roboto Condensed'; break-after: page; }}</style>"
          "<p>One</p><p>Two</p><p>Three</p>")


def _render(html: str, skip: bool, monkeypatch) -> bytes:
    from weasyprint import HTML, layout

    from printshop.render.job import _font_config

    fonts = _font_config(None)     # WeasyPrint imported and the speed-ups applied
    if not skip and getattr(layout.make_margin_boxes, "printshop", False):
        from weasyprint.layout import page

        monkeypatch.setattr(layout, "make_margin_boxes", page.make_margin_boxes)
    document = HTML(string=html).render(font_config=fonts)
    pdf = document.write_pdf()
    monkeypatch.undo()
    return pdf


def test_pages_without_margin_boxes_come_out_the_same_without_making_them(monkeypatch):
    from weasyprint import layout

    html = _PAGES.format(rule="")
    assert _render(html, True, monkeypatch) == _render(html, False, monkeypatch)
    assert getattr(layout.make_margin_boxes, "printshop", False)


def test_a_margin_box_with_content_is_still_made(monkeypatch):
    import io

    from pypdf import PdfReader

    html = _PAGES.format(rule="@top-center { content: 'Running head ' counter(page); }")
    ours = _render(html, True, monkeypatch)
    assert ours == _render(html, False, monkeypatch)
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(ours)).pages]
    assert [t.count("Running head") for t in texts] == [1, 1, 1]
    assert "Running head 3" in texts[2]


def test_a_job_only_laid_out_finds_the_same_pages_anchors_and_strings():
    # the book's first pass: no margin boxes, no backgrounds, nothing else changes
    from weasyprint import layout

    from printshop.products.book.job import BookPart
    from printshop.render.job import RenderJob, render_job

    sections = "".join(
        f"<h2 id='s{i}' style='string-set: head content(); background: #eee'>Part {i}</h2>"
        + "<p style='background: url(data:image/gif;base64,R0lGODlhAQABAAAAACw=)'>"
        + "Words enough to fill a few lines of a small page. " * 12 + "</p>"
        for i in range(8))
    html = (f"<html><head><style>@page {{ size: 90mm 80mm; @top-center {{ content: "
            f"string(head) ' ' counter(page) }} }}</style></head><body>{sections}</body>"
            "</html>")
    full, only = (render_job(RenderJob(html=html, stylesheets=(), roots=("/nonexistent",),
                                       base_url="file:///nonexistent/", source="test",
                                       extensions=(BookPart(),), layout_only=flag))
                  for flag in (False, True))
    assert only.pdf == b"" and full.pages == only.pages > 3
    full, only = BookPart.found_in(full), BookPart.found_in(only)
    assert only.anchors == full.anchors and len(only.anchors) == 8
    assert only.strings == full.strings and len(only.strings["head"]) == 8
    assert getattr(layout.layout_backgrounds, "printshop", False)


def test_font_subsets_make_their_arrays_with_one_parse_of_their_type():
    from weasyprint.pdf import fonts
    from weasyprint.text.ffi import ffi

    speedups.apply()
    assert isinstance(fonts.ffi, speedups._OpenArrays)
    before = len(ffi._parsed_types)
    for size in range(3, 40):
        items = list(range(size))
        array = fonts.ffi.new(f"hb_codepoint_t[{size}]", items)
        assert len(array) == size and list(array) == items
    assert len(ffi._parsed_types) <= before + 1        # `hb_codepoint_t[]`, once
    # anything else goes to cffi as it is
    assert len(fonts.ffi.new("hb_codepoint_t[8]")) == 8
    assert fonts.ffi.NULL == ffi.NULL
