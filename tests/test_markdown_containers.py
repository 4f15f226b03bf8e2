import pytest
from markdown_it import MarkdownIt

from printshop.source.markdown import containers
from printshop.source.markdown.rawhtml import escape


def render(text):
    md = MarkdownIt("commonmark")
    containers.use(md, escape)
    return md.render(text)


@pytest.mark.parametrize("info, expected", [
    ("note Title here", ("note", "Title here")),
    ("tip[Be quick]", ("tip", "Be quick")),
    ("{.warning}", ("warning", "")),
    ("{#x .sidebar .wide}", ("sidebar", "")),
    ("", ("", "")),
])
def test_container_info(info, expected):
    assert containers.container_info(info) == expected


def test_unknown_container_is_a_box_labelled_with_its_name():
    html = render("::: spell-card\nMagic words.\n:::\n")
    assert '<div class="box spell-card" data-line="1">' in html
    assert '<p class="box-label">Spell Card</p>' in html and ":::" not in html


def test_admonitions_get_their_label_and_title():
    html = render(":::warning Hot\nDo not touch.\n:::\n\n::: {.tip}\nEasy.\n:::\n")
    assert '<p class="box-title">Hot</p>' in html and '<p class="box-label">Tip</p>' in html


def test_directive_line():
    md = MarkdownIt("commonmark")
    containers.use(md, escape)
    html = md.render("::table[armour]{size=\"small\"}\n",
                     {"directive_renderer": lambda n, a, attrs: f"[{n}:{a}:{attrs}]"})
    assert html == "[table:armour:{'size': 'small'}]\n"
