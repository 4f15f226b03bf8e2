"""The speed-ups of render/weasy/speedups.py: each makes the pages WeasyPrint makes without
it (switched off in the registry), and does less work; WeasyPrint imported quickly
(render/weasy/library.py) loads the same libraries."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

tinyhtml5 = pytest.importorskip("tinyhtml5")
from tinyhtml5 import inputstream  # noqa: E402

from printshop.render.job import RenderJob, Stylesheet, render_job  # noqa: E402
from printshop.render.weasy import registry, speedups  # noqa: E402
from printshop.resources import TEMPLATES_DIR  # noqa: E402

HTML = ("<!DOCTYPE html><p class='a'>Fish &amp; chips &lt;3 <b>bold</b>\n<!-- note -->"
        "<td>x</td><pre>  spaced  </pre><a href=\"#x\" title='t'>link</a></p>")


def _tree(html: str) -> str:
    return ET.tostring(tinyhtml5.parse(html), encoding="unicode")


def test_the_parse_is_the_same_and_the_stop_character_cache_hits():
    assert registry.active("parser-regexes")
    cache = inputstream.characters_until_regex
    ours = _tree(HTML)
    with registry.switched({"parser-regexes"}):
        own = inputstream.characters_until_regex
        assert type(own) is dict
        theirs = _tree(HTML)
        # tinyhtml5's own keeps each regex under the regex: its lookups never hit
        assert own and all(isinstance(key[0], re.Pattern) for key in own)
    assert ours == theirs
    assert inputstream.characters_until_regex is not cache   # a fresh one, after the switch
    _tree(HTML)
    entries = dict(inputstream.characters_until_regex)
    assert entries and all(isinstance(key[0], (str, tuple, frozenset)) for key in entries)
    _tree(HTML)
    assert dict(inputstream.characters_until_regex) == entries   # the second parse hit


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
    quick = loaded("from printshop.render.weasy.library import import_weasyprint\n"
                   "import_weasyprint()")
    assert quick == own
    assert any("libharfbuzz-subset" in name for name in own)


_PAGES = ("<!DOCTYPE html><style>@page {{ size: 60mm 40mm; margin: 8mm; {rule} }} "
          "p {{ font: 9pt 'Roboto Condensed'; break-after: page; }}</style>"
          "<p>One</p><p>Two</p><p>Three</p>")


def _render(html: str, off=()) -> bytes:
    fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))
    with registry.switched(off):
        return render_job(RenderJob(html=html, stylesheets=(fonts,), roots=(str(TEMPLATES_DIR),),
                                    base_url=TEMPLATES_DIR.as_uri() + "/", source="test")).pdf


def test_pages_without_margin_boxes_come_out_the_same_without_making_them(monkeypatch):
    made = _count_margin_boxes(monkeypatch)
    html = _PAGES.format(rule="")
    ours = _render(html)
    assert not made
    assert ours == _render(html, {"absent-margin-boxes"})
    assert len(made) == 16 * 3      # WeasyPrint's own made them all, to draw nothing


def test_a_margin_box_with_content_is_still_made():
    import io

    from pypdf import PdfReader

    html = _PAGES.format(rule="@top-center { content: 'Running head ' counter(page); }")
    ours = _render(html)
    assert ours == _render(html, {"absent-margin-boxes"})
    texts = [page.extract_text() for page in PdfReader(io.BytesIO(ours)).pages]
    assert [t.count("Running head") for t in texts] == [1, 1, 1]
    assert "Running head 3" in texts[2]


def _count_margin_boxes(monkeypatch) -> list:
    from weasyprint.formatting_structure import boxes

    made = []
    real = boxes.MarginBox.__init__

    def counting(self, *args, **kwargs):
        made.append(args[0])
        real(self, *args, **kwargs)

    monkeypatch.setattr(boxes.MarginBox, "__init__", counting)
    return made


def test_a_job_only_laid_out_finds_the_same_pages_anchors_and_strings(monkeypatch):
    # the book's first pass: no margin boxes, no backgrounds, nothing else changes
    from printshop.products.book.job import BookPart

    sections = "".join(
        f"<h2 id='s{i}' style='string-set: head content(); background: #eee'>Part {i}</h2>"
        + "<p style='background: url(data:image/gif;base64,R0lGODlhAQABAAAAACw=)'>"
        + "Words enough to fill a few lines of a small page. " * 12 + "</p>"
        for i in range(8))
    html = (f"<html><head><style>@page {{ size: 90mm 80mm; @top-center {{ content: "
            f"string(head) ' ' counter(page) }} }}</style></head><body>{sections}</body>"
            "</html>")

    def render(layout_only: bool):
        return render_job(RenderJob(html=html, stylesheets=(), roots=("/nonexistent",),
                                    base_url="file:///nonexistent/", source="test",
                                    extensions=(BookPart(),), layout_only=layout_only))

    made = _count_margin_boxes(monkeypatch)
    full = render(False)
    made.clear()
    only = render(True)
    assert not made
    with registry.switched({"layout-only"}):
        theirs = render(True)
    assert made                       # WeasyPrint's own makes them, never drawn
    assert only.pdf == theirs.pdf == b"" and full.pages == only.pages == theirs.pages > 3
    full, only, theirs = (BookPart.found_in(result) for result in (full, only, theirs))
    assert only.anchors == full.anchors == theirs.anchors and len(only.anchors) == 8
    assert only.strings == full.strings == theirs.strings and len(only.strings["head"]) == 8


def test_font_subsets_make_their_arrays_with_one_parse_of_their_type():
    from weasyprint.pdf import fonts
    from weasyprint.text.ffi import ffi

    assert registry.active("array-types")
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


def test_fonts_subset_with_open_arrays_make_weasyprints_own_pdf():
    html = ("<p style='font: 10pt Vollkorn'>Vollkorn, <b>bold</b> and <i>italic</i></p>"
            "<p style='font: 12pt \"Pirata One\"'>A Pirate's Heading</p>"
            "<p style='font: 9pt \"Roboto Condensed\"'>Roboto Condensed 0123456789</p>")
    assert _render(html) == _render(html, {"array-types"})
