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


def test_a_box_never_closed_prints_its_line_as_text_with_a_warning(tmp_path):
    """mkdocstrings' `::: module.Class.method` lines (MkDocs' own documentation) are not
    containers and are never closed: each nested in the one before, to the end of the
    file, eleven pages of boxes in boxes. Now the line prints as it is, with a warning."""
    from printshop.errors import Problems
    from printshop.source.markdown import MarkdownReader

    (tmp_path / "a.md").write_text(
        "# Plugins\n\n##### on_startup\n\n::: mkdocs.plugins.BasePlugin.on_startup\n"
        "    options:\n        show_root_heading: false\n\n##### on_shutdown\n\n"
        "::: mkdocs.plugins.BasePlugin.on_shutdown\n\n:::tip Closed\nA real box.\n:::\n\n"
        "```\n::: in code, left alone\n```\n")
    reader = MarkdownReader(tmp_path, [tmp_path])
    ms = reader.read([tmp_path / "a.md"], Problems())
    html = "".join(reader.render(c, lambda n, a, attrs: "") for c in ms.chapters)
    # one warning for the file, not one a line (MkDocs' plugin page has 25 of them)
    assert [(w.line, w.message) for w in ms.warnings] == [
        (5, "2 ':::' lines open boxes that are never closed (add a ':::' line where each "
            "ends): printed as text so the rest of the chapter is not boxed in them (also "
            "line 11)")]
    assert html.count('<div class="box') == 1 and "A real box." in html
    assert "::: mkdocs.plugins.BasePlugin.on_startup" in html
    assert "::: in code, left alone" in html
    assert "<h5" in html.split("on_shutdown")[0]   # the headings are the chapter's, not boxed


def test_one_box_never_closed_is_named_at_its_line():
    from printshop.source.markdown.containers import prescan

    text, warnings = prescan("# A\n\n:::warning Careful\nThe rest of the chapter.\n")
    assert text.splitlines()[2] == "\\:::warning Careful"
    assert warnings == [(3, "':::' opens a box that is never closed (add a ':::' line where "
                            "it ends): printed as text so the rest of the chapter is not "
                            "boxed in it")]
