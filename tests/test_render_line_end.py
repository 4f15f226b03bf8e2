"""A text that fits its line but for its trailing space is not broken after its first word
(render/weasy/line_end.py): the Player's Guide's "Turn Unholy" paragraph on Letter printed
"A" alone on a line above the rest."""

from __future__ import annotations

from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.weasy import registry
from printshop.resources import TEMPLATES_DIR
from tests.conftest import pdf_reader

# the guide's chapter, its two columns on Letter: "… per level (see " ends within a space's
# width of the column, and the emphasis after it does not fit
HTML = ('<html lang="en"><body><section class="chapter"><h1 class="chapter-title">Playing'
        '</h1><div class="chapter-body"><h2>Turn Unholy</h2><p>A Cleric can turn away the '
        'unholy once per day per level (see <em>Turn Away the Unholy</em>). Each creature '
        'affected makes a save.</p></div></section></body></html>')


def _lines() -> list[str]:
    sheets = tuple(Stylesheet(path=str(TEMPLATES_DIR / "css" / name))
                   for name in ("fonts.css", "book.css")) + \
        (Stylesheet(text="@page { size: letter; }"),)
    pdf = render_job(RenderJob(html=HTML, stylesheets=sheets, roots=(str(TEMPLATES_DIR),),
                               base_url=TEMPLATES_DIR.as_uri() + "/", source="test")).pdf
    text = "\n".join(page.extract_text() for page in pdf_reader(pdf).pages)
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_the_words_before_an_inline_element_stay_on_their_line():
    lines = _lines()
    first = next(line for line in lines if line.startswith("A"))
    assert first.startswith("A Cleric can turn away the unholy once per day per level")
    assert "A" not in lines
    words = " ".join(lines)
    assert "A Cleric can turn away" in words and "Turn Away the Unholy). Each" in words


def test_without_the_fix_the_line_ends_after_its_first_word():
    assert registry.active("trailing-space-fit")
    with registry.switched({"trailing-space-fit"}):
        assert "A" in _lines()
