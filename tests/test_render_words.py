"""The words check (render/weasy/words.py): every word of the composed document is on the
pages, once, visibly. The documents here are laid out by the real worker code
(`render_job`); the findings are compared with what the HTML says, not with WeasyPrint."""

from __future__ import annotations

from dataclasses import dataclass

from printshop.render.extension import JobExtension
from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.weasy.words import _Differences, _Word, composed_words

PAGE = "@page { size: 90mm 60mm; margin: 5mm } body { margin: 0; font: 10pt/12pt sans-serif }"


def run(body: str, css: str = "", **job) -> list:
    html = f"<html lang='en'><body>{body}</body></html>"
    result = render_job(RenderJob(
        html=html, stylesheets=(Stylesheet(text=PAGE + css, label="test.css"),),
        roots=("/nonexistent",), base_url="file:///project/", source="test.html", **job))
    return result.lost


def test_a_document_printed_whole_has_nothing_lost():
    body = ("<h1>The Dungeon</h1><p>Twelve <b>bold</b> adventurers went <i>down</i>.</p>"
            "<ul><li>One torch</li><li>Ten-foot pole</li></ul>"
            "<table><thead><tr><th>Roll</th><th>Result</th></tr></thead>"
            "<tbody><tr><td>1</td><td>Goblin</td></tr><tr><td>2</td><td>Ogre</td></tr>"
            "</tbody></table>")
    assert run(body) == []


def test_what_layout_changes_but_does_not_lose_is_not_a_difference():
    # hyphenation, uppercase, generated content and markers, soft hyphens, a word broken
    # over two boxes, justified text
    body = ("<p style='hyphens: auto; width: 18mm; text-align: justify'>Extraordinarily "
            "incomprehensible circumstances notwithstanding</p>"
            "<p style='text-transform: uppercase'>shout it</p>"
            "<p class='x'>counted</p><ol><li>first</li></ol>"
            "<p>HAMMER<b>CRAWL</b>! in&shy;di&shy;vis&shy;ible</p>")
    css = ".x::before { content: 'Generated words here' } .x::after { content: counter(page) }"
    assert run(body, css) == []


def test_a_paragraph_hidden_by_a_stylesheet_is_reported_at_its_source_line():
    body = ("<section data-source='guide/02-rules.md'><p data-line='3'>Kept words.</p>"
            "<p data-line='5' class='oops'>Rules text a stylesheet hid by mistake.</p>"
            "<p data-line='7'>Also kept.</p></section>")
    lost = run(body, ".oops { display: none }")
    assert len(lost) == 1
    assert lost[0].path.endswith("guide/02-rules.md") and lost[0].line == 5
    assert "7 words missing" in lost[0].message
    assert "Rules text a stylesheet hid by mistake." in lost[0].message


def test_invisible_text_is_missing_text():
    for css in (".oops { visibility: hidden }", ".oops { color: transparent }",
                ".oops { font-size: 0 }"):
        lost = run("<p>Seen.</p><p class='oops'>Never seen.</p>", css)
        assert [p.message.split(":")[0] for p in lost] == [
            "2 words missing from the pages (expected on page 1)"], css


def test_text_clipped_by_a_box_too_small_is_reported_naming_the_item():
    body = ("<div data-item='card EV-13' style='height: 12pt; overflow: hidden'>"
            "<p>The first line fits.</p><p>The second line is cut off.</p></div>")
    lost = run(body)
    assert len(lost) == 1
    assert "(card EV-13)" in lost[0].message and "second line is cut off" in lost[0].message
    # and set to fit, nothing is lost
    assert run(body.replace("height: 12pt", "height: 80pt")) == []


def test_what_the_templates_hide_on_purpose_is_not_checked():
    body = ("<p>Printed.</p><p aria-hidden='true' style='visibility: hidden'>Room kept</p>"
            "<p hidden>Not for print</p><svg width='10' height='10'><text>svg</text></svg>")
    assert run(body) == []


def test_a_table_header_repeated_on_each_page_is_not_extra():
    rows = "".join(f"<tr><td>{n}</td><td>Row {n} of the long table</td></tr>"
                   for n in range(1, 30))
    body = (f"<table><thead><tr><th>Roll</th><th>Result</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")
    assert run(body) == []


def test_a_row_split_over_two_pages_is_read_cell_by_cell():
    # each row's middle cell is eight lines, its last one: the row that meets the foot of
    # the page has its middle cell go on onto the next page, its last cell end on this
    # one: read in page order, the last cell's words came before the middle one's end
    rows = "".join(f"<tr><td>{n}</td><td>{'a torch and a rope ' * 8}</td>"
                   f"<td>{n}d6 gold pieces</td></tr>" for n in range(1, 5))
    css = "p { margin: 0 } td { vertical-align: top }"
    for filler in (0, 4, 6):
        body = "<p>Filler.</p>" * filler + f"<table>{rows}</table>"
        assert run(body, css) == [], filler
    # a cell lost on the last page is still missing
    lost = run(body, css + " tr:last-child td:last-child { display: none }")
    assert [p.message.split(":")[0] for p in lost] == [
        "3 words missing from the pages (expected on page 3)"]
    assert "4d6 gold pieces" in lost[0].message


@dataclass(frozen=True)
class _FromPage(JobExtension):
    """An extension placing the job's pages in a bigger document (as a book's part is)."""

    name = "test-from-page"
    first_page: int = 1


def test_the_page_counts_from_the_jobs_first_page():
    body = "<p>One.</p>" + "".join(f"<p>Line {n}</p>" for n in range(12)) + \
        "<p class='oops'>Lost on the second page.</p>"
    # 11 lines of 12 pt a page: "One." and ten lines, then two lines and the lost one
    lost = run(body, "p { margin: 0 } .oops { display: none }", extensions=(_FromPage(41),))
    assert "expected on page 42" in lost[0].message


def test_repeated_and_extra_text_is_found_between_missing_text():
    def word(text):
        return _Word(text, text.lower(), "ch.md", 4, "")
    words = [word(w) for w in "alpha beta gamma delta epsilon zeta eta theta".split()]
    composed = "".join(w.norm for w in words)
    # the pages repeat "beta gamma", and lose "eta"
    laid_out = "alphabetagammabetagammadeltaepsilonzetatheta"
    found = _Differences(words, composed, laid_out, [0], [3], [laid_out]).find()
    assert [(f.what, f.page) for f in found] == [("extra", 3), ("missing", 3)]
    assert found[1].words == "“eta”"


def test_composed_words_keep_their_source():
    import xml.etree.ElementTree as ET

    root = ET.fromstring("<html><body><section data-source='a.md'><p data-line='2'>A "
                         "<b>bold</b>word</p><div data-item='card X'>Card text</div>"
                         "</section></body></html>")
    words = composed_words(root)
    assert [(w.text, w.source, w.line, w.item) for w in words] == [
        ("A", "a.md", 2, ""), ("boldword", "a.md", 2, ""),
        ("Card", "a.md", None, "card X"), ("text", "a.md", None, "card X")]


def test_the_guide_without_the_column_span_fix_fails_naming_the_weapons_table(tmp_path):
    """WeasyPrint's own column layout (the fix switched off) loses the end of the Weapons
    table on A4: the build fails at the table's directive line, naming words that are in
    the table's YAML, and writes nothing (the fix itself: test_render_column_span.py). (On
    Letter the same wrong resume point now ends in an IndexError inside WeasyPrint.)"""
    import os
    import subprocess
    import sys

    import yaml

    from tests.conftest import RULES_SRC

    out = tmp_path / "out"
    env = dict(os.environ, PRINTSHOP_WEASYPRINT_PATCHES="column-span-resume")
    done = subprocess.run(
        [sys.executable, "-m", "printshop", "build", "players-guide", "--paper", "a4",
         "--strict", "--quiet",
         "--source", str(RULES_SRC), "--out", str(out)],
        env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 2, done.stderr
    chapter = (RULES_SRC / "guide" / "05-equipment.md").read_text().splitlines()
    line = next(n for n, text in enumerate(chapter, 1) if text.startswith("::table[weapons]"))
    located = [m for m in done.stderr.splitlines()
               if f"05-equipment.md:{line}:" in m and "missing from the pages" in m]
    assert located, done.stderr
    rows = yaml.safe_load((RULES_SRC / "tables" / "weapons.yaml").read_text())["rows"]
    assert any(row["weapon"] in located[0] for row in rows)
    assert "Traceback" not in done.stderr
    assert not (out / "players-guide.pdf").exists()
