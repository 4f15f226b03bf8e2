from pathlib import Path

import pytest

from printshop.errors import Problems
from printshop.source.markdown import MarkdownReader, slugify


def read(tmp_path, files: dict[str, str], raw_html=False, check=None):
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    reader = MarkdownReader(tmp_path, [tmp_path], raw_html=raw_html, directive_check=check)
    problems = Problems()
    manuscript = reader.read(paths, problems)
    return reader, manuscript, problems.items


def html_of(reader, manuscript, directive=lambda n, a, attrs: f"[{n}:{a}]"):
    return "".join(reader.render(ch, directive) for ch in manuscript.chapters)


def test_chapters_split_at_level_one_headings(tmp_path):
    reader, ms, problems = read(tmp_path, {"01.md": "# One\n\ntext\n\n## Sub\n\n# Two\n\nmore\n"})
    assert not problems
    assert [c.title for c in ms.chapters] == ["One", "Two"]
    assert [h.title for h in ms.chapters[0].sections] == ["Sub"]


def test_heading_ids_are_unique_across_files_and_can_be_chosen(tmp_path):
    reader, ms, _ = read(tmp_path, {"a.md": "# Rules\n\n## Death\n", "b.md": "# More\n\n## Death\n\n"
                                    "## Leveling Up {#levelling}\n"})
    assert {"death", "death-2", "levelling"} <= set(ms.headings)
    assert ms.headings["levelling"].title == "Leveling Up"


def test_cross_references_resolve_by_title_or_id_and_print_as_links(tmp_path):
    reader, ms, problems = read(tmp_path, {"a.md": "# A\n\nSee [[Experience]] and "
                                           "[[xp|the XP rules]].\n\n## Experience {#xp}\n"})
    assert not problems
    html = html_of(reader, ms)
    assert '<a class="xref" href="#xp">Experience</a>' in html
    assert '<a class="xref" href="#xp">the XP rules</a>' in html


def test_cross_reference_may_wrap_onto_the_next_line(tmp_path):
    reader, ms, problems = read(tmp_path, {"a.md": "# A\n\nSee [[Saving\nThrows]].\n\n"
                                           "## Saving Throws\n"})
    assert not problems
    assert 'href="#saving-throws"' in html_of(reader, ms)


def test_missing_cross_reference_names_file_and_line(tmp_path):
    _, _, problems = read(tmp_path, {"a.md": "# A\n\nline two\n\nand [[Nowhere]] here\n"})
    assert [(p.line, p.message) for p in problems] == [
        (5, "cross-reference [[Nowhere]]: no section with that title or id")]
    assert problems[0].path.endswith("a.md")


def test_directives_are_checked_and_rendered(tmp_path):
    check = lambda name, arg, attrs: None if arg == "armour" else f"no table '{arg}'"
    reader, ms, problems = read(tmp_path, {"a.md": "# A\n\n::table[armour]\n\n::table[armor]\n"},
                                check=check)
    assert [(p.line, p.message) for p in problems] == [(5, "no table 'armor'")]
    assert "[table:armour]" in html_of(reader, ms)


def test_containers_make_labelled_boxes(tmp_path):
    reader, ms, _ = read(tmp_path, {"a.md": "# A\n\n::: optional Fresh Meat\nA new hero.\n:::\n\n"
                                    "::: sidebar Pregens\nRoll them.\n:::\n"})
    html = html_of(reader, ms)
    assert '<div class="box optional">' in html and "Optional rule: Fresh Meat" in html
    assert '<aside class="box sidebar">' in html and "</aside>" in html


@pytest.mark.parametrize("snippet", [
    "<script>alert(1)</script>",
    '<img src="file:///etc/passwd">',
    '<link rel="attachment" href="file:///etc/passwd">',
    '<base href="file:///etc/">',
])
def test_raw_html_is_text_by_default(tmp_path, snippet):
    reader, ms, problems = read(tmp_path, {"a.md": f"# A\n\n{snippet}\n\ninline {snippet} too\n"})
    html = html_of(reader, ms)
    assert snippet not in html
    assert "&lt;" in html


def test_raw_html_passes_when_the_project_opts_in(tmp_path):
    reader, ms, _ = read(tmp_path, {"a.md": "# A\n\n<div class=\"x\">hi</div>\n"}, raw_html=True)
    assert '<div class="x">hi</div>' in html_of(reader, ms)


def test_html_comments_are_dropped(tmp_path):
    reader, ms, _ = read(tmp_path, {"a.md": "# A\n\n<!-- YAML\nadded: v1\n-->\n\ntext\n"})
    html = html_of(reader, ms)
    assert "added" not in html and "text" in html


@pytest.mark.parametrize("link, word", [("javascript:alert(1)", "javascript"),
                                        ("file:///etc/passwd", "file"),
                                        ("data:text/html,hi", "data")])
def test_dangerous_links_are_reported_not_dropped(tmp_path, link, word):
    _, _, problems = read(tmp_path, {"a.md": f"# A\n\nsome\n[x]({link})\n"})
    assert len(problems) == 1 and problems[0].line == 4
    assert f"{word}: links are not allowed" in problems[0].message


def test_images_must_be_files_inside_the_project(tmp_path):
    from test_render_fetcher import tiny_png

    (tmp_path / "pic.png").write_bytes(tiny_png(10, 10))
    outside = tmp_path.parent / "secret.txt"
    outside.write_text("secret")
    files = {"a.md": "# A\n\n![ok](pic.png)\n\n![up](../secret.txt)\n\n![enc](%2e%2e/secret.txt)\n\n"
             "![abs](/etc/passwd)\n\n![web](http://127.0.0.1:9/x.png)\n\n![gone](nope.png)\n"}
    _, _, problems = read(tmp_path, files)
    by_line = {p.line: p.message for p in problems}
    assert set(by_line) == {5, 7, 9, 11, 13}
    assert "outside the project" in by_line[5] and "outside the project" in by_line[7]
    assert "absolute paths" in by_line[9]
    assert "never fetches from the network" in by_line[11]
    assert "not found" in by_line[13]


def test_links_to_unknown_ids_are_errors_but_github_style_anchors_resolve(tmp_path):
    reader, ms, problems = read(tmp_path, {"a.md": "# A\n\n[ok](#socketbindport-callback) "
                                           "[bad](#nowhere)\n\n## `socket.bind(port, callback)`\n"})
    assert [p.message for p in problems] == ["link to '#nowhere': no section has that id"]
    assert 'href="#socket-bind-port-callback"' in html_of(reader, ms)


def test_slugify():
    assert slugify("Step 1: Roll Your Class") == "step-1-roll-your-class"
    assert slugify("Élan & Crits!") == "elan-crits"
    assert slugify("!!!") == "section"
