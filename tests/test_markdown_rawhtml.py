import pytest
from markdown_it import MarkdownIt

from printshop.source.markdown import rawhtml


def render(text, mode="sanitized"):
    md = MarkdownIt("commonmark", {"html": True})
    rawhtml.use(md, mode)
    html = md.render(text)
    return rawhtml.sanitize(html) if mode == "sanitized" else html


def test_structure_is_kept():
    html = render('<details><summary>Rumours</summary>\n\n- one\n\n</details>\n\n'
                  'H<sub>2</sub>O x<sup>2</sup><br>\n\n'
                  '<div class="stat"><span class="x">s</span></div>\n')
    assert "<details><summary>Rumours</summary>" in html and "<li>one</li>" in html
    assert "</details>" in html and "<sub>2</sub>" in html and "<sup>2</sup>" in html
    assert '<div class="stat"><span class="x">s</span></div>' in html


@pytest.mark.parametrize("snippet, gone", [
    ('<script>alert(1)</script>', "alert"),
    ('<style>p { color: red }</style>', "color"),
    ('<p onclick="steal()">x</p>', "steal"),
    ('<iframe src="https://example.com"></iframe>', "iframe"),
    ('<form action="/x"><input name="q"></form>', "input"),
    ('<base href="file:///etc/">', "base"),
    ('<a href="javascript:alert(1)">j</a>', "javascript"),
    ('<p style="position:fixed">x</p>', "position"),
])
def test_dangerous_things_are_dropped(snippet, gone):
    assert gone not in render(f"text\n\n{snippet}\n")


def test_unclosed_inline_tag_does_not_swallow_the_next_paragraphs():
    html = render("The shaft goes <b>down and down.\n\nNext paragraph.\n\n<i>Third\n")
    assert "<p>Next paragraph.</p>" in html
    assert html.count("<b>") == 1


def test_unclosed_comment_and_script_print_as_text_with_a_warning():
    text, warnings = rawhtml.prescan("a\n\n<!-- never closed\n\nrest\n\n<script>x\n\nmore\n")
    assert [line for line, _ in warnings] == [3, 7]
    html = render(text)
    assert "rest" in html and "more" in html and "never closed" in html


def test_escaped_mode_prints_tags_as_text():
    html = render("<b>bold</b> and\n\n<div>block</div>\n", "escaped")
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and '<p class="raw-html">&lt;div&gt;' in html


def test_trusted_mode_passes_html_through():
    assert '<div class="x">hi</div>' in render('<div class="x">hi</div>\n', "trusted")


def test_urls_go_through_the_callers_rules():
    seen = []

    def check(tag, attribute, value):
        seen.append((tag, value))
        return None if "evil" in value else value

    html = rawhtml.sanitize('<img src="map.png"><img src="evil.png"><a href="#ok">x</a>', check)
    assert seen == [("img", "map.png"), ("img", "evil.png"), ("a", "#ok")]
    assert 'src="map.png"' in html and "evil" not in html and 'href="#ok"' in html
