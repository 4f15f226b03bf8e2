from markdown_it import MarkdownIt

from printshop.source.markdown import callouts
from printshop.source.markdown.rawhtml import escape


def render(text, edition="print"):
    md = MarkdownIt("commonmark")
    callouts.use(md, escape)
    return md.render(text, {"edition": edition})


def test_callout_is_a_labelled_box_not_a_quote():
    html = render("> [!warning] Deadly\n> Combat kills.\n")
    assert '<div class="box callout callout-warning" data-line="1">' in html
    assert '<p class="box-title">Deadly</p>' in html and "<p>Combat kills.</p>" in html
    assert "[!warning]" not in html and "<blockquote>" not in html


def test_callout_without_title_is_named_after_its_kind():
    assert '<p class="box-title">Note</p>' in render("> [!NOTE]\n> Hello.\n")


def test_folded_callout_prints_open_and_folds_on_screen():
    text = "> [!tip]- Folded tip\n> Run away.\n"
    assert "Run away." in render(text) and "<details" not in render(text)
    screen = render(text, "screen")
    assert '<details class="box callout callout-tip" data-line="1">' in screen
    assert "</details>" in screen


def test_plain_blockquotes_stay_quotes():
    assert "<blockquote>" in render("> Just a quote.\n")
