
from pathlib import Path

import pytest

from printshop.errors import Problems
from printshop.source.markdown import MarkdownReader, slugify


def read(tmp_path, files: dict[str, str], raw_html=False, check=None, html=None):
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    reader = MarkdownReader(tmp_path, [tmp_path], raw_html=raw_html, directive_check=check,
                            html=html)
    problems = Problems()
    manuscript = reader.read(paths, problems)
    return reader, manuscript, problems.items


def warnings_of(manuscript):
    return [(w.line, w.message) for w in manuscript.warnings]


def html_of(reader, manuscript, directive=lambda n, a, attrs: f"[{n}:{a}]"):
    return "".join(reader.render(ch, directive) for ch in manuscript.chapters)


def test_chapters_split_at_level_one_headings(tmp_path):
    reader, ms, problems = read(tmp_path, {"01.md": "# One\n\ntext\n\n## Sub\n\n# Two\n\nmore\n"})
    assert not problems
    assert [c.title for c in ms.chapters] == ["One", "Two"]
    assert [h.title for h in ms.chapters[0].sections] == ["Sub"]


def test_heading_ids_are_unique_across_files_and_can_be_chosen(tmp_path):
    reader, ms, _ = read(tmp_path, {"a.md": "# Rules\n\n## Death\n",
                                    "b.md": "# More\n\n## Death\n\n"
                                    "## Leveling Up {#levelling}\n"})
    assert {"death", "death-1", "levelling"} <= set(ms.headings)
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


def test_missing_cross_reference_is_a_warning_at_file_and_line_and_prints_as_text(tmp_path):
    reader, ms, problems = read(tmp_path, {"a.md": "# A\n\nline two\n\nand [[Nowhere]] here\n"})
    assert not problems
    assert warnings_of(ms) == [(5, "cross-reference [[Nowhere]]: no note, section title or id; "
                                   "printed as plain text")]
    assert ms.warnings[0].path.endswith("a.md")
    assert "and Nowhere here" in html_of(reader, ms)


def test_directives_are_checked_and_rendered(tmp_path):
    def check(name, arg, attrs):
        return None if arg == "armour" else f"no table '{arg}'"

    reader, ms, problems = read(tmp_path, {"a.md": "# A\n\n::table[armour]\n\n::table[armor]\n"},
                                check=check)
    assert [(p.line, p.message) for p in problems] == [(5, "no table 'armor'")]
    assert "[table:armour]" in html_of(reader, ms)


def test_containers_make_labelled_boxes(tmp_path):
    reader, ms, _ = read(tmp_path, {"a.md": "# A\n\n::: optional Fresh Meat\nA new hero.\n:::\n\n"
                                    "::: sidebar Pregens\nRoll them.\n:::\n"})
    html = html_of(reader, ms)
    assert '<div class="box optional" data-line="3">' in html
    assert "Optional rule: Fresh Meat" in html
    assert '<aside class="box sidebar" data-line="7">' in html and "</aside>" in html


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
def test_dangerous_links_are_reported_and_print_as_plain_text(tmp_path, link, word):
    reader, ms, _ = read(tmp_path, {"a.md": f"# A\n\nsome\n[x]({link})\n"})
    assert len(ms.warnings) == 1 and ms.warnings[0].line == 4
    assert f"{word}: links are not allowed" in ms.warnings[0].message
    html = html_of(reader, ms)
    assert "some\nx</p>" in html and link.split(":")[0] + ":" not in html


def test_images_must_be_files_inside_the_project(tmp_path):
    from test_render_fetcher import tiny_png

    (tmp_path / "pic.png").write_bytes(tiny_png(10, 10))
    outside = tmp_path.parent / "secret.txt"
    outside.write_text("secret")
    files = {"a.md": "# A\n\n![ok](pic.png)\n\n![up](../secret.txt)\n\n"
             "![enc](%2e%2e/secret.txt)\n\n![abs](/etc/passwd)\n\n![web](http://127.0.0.1:9/x.png)\n\n![gone](nope.png)\n"}
    reader, ms, problems = read(tmp_path, files)
    assert not problems  # a book despite problems: each is a warning and a placeholder box
    by_line = {p.line: p.message for p in ms.warnings}
    assert set(by_line) == {5, 7, 9, 11, 13}
    assert "outside the project" in by_line[5] and "outside the project" in by_line[7]
    assert "not found" in by_line[9]  # /etc/passwd means <root>/etc/passwd, never the system's
    assert "never fetches from the network" in by_line[11]
    assert "not found" in by_line[13]
    html = html_of(reader, ms)
    assert html.count('class="missing-image"') == 5 and "secret" not in html.split("img")[-1]
    assert 'Missing image: <code>nope.png</code>' in html


def test_links_to_unknown_ids_are_warnings_and_github_style_anchors_resolve(tmp_path):
    reader, ms, problems = read(tmp_path, {"a.md": "# A\n\n[ok](#socketbindport-callback) "
                                           "[bad](#nowhere)\n\n## `socket.bind(port, callback)`\n"})
    assert [p.message for p in ms.warnings] == ["link to '#nowhere': no heading has that id"]
    # located at the link's target, for the caret under it: `[bad](#nowhere)`
    problem, = ms.warnings
    line = "[ok](#socketbindport-callback) [bad](#nowhere)"
    assert (problem.line, problem.column) == (3, line.index("#nowhere") + 1)
    assert 'href="#socketbindport-callback"' in html_of(reader, ms)
    assert "bad</p>" in html_of(reader, ms)


def test_slugify():
    assert slugify("Step 1: Roll Your Class") == "step-1-roll-your-class"
    assert slugify("Élan & Crits!") == "elan-crits"
    assert slugify("!!!") == "section"


# --- manuscripts written for other tools (tests/fixtures/manuscripts) -------------------------

from conftest import FIXTURES  # noqa: E402

MANUSCRIPTS = FIXTURES / "manuscripts"


def read_folder(name, html="sanitized"):
    root = MANUSCRIPTS / name
    files = sorted(root.rglob("*.md"))
    reader = MarkdownReader(root, [root], html=html)
    problems = Problems()
    manuscript = reader.read(files, problems)
    assert not problems.items, problems.items
    return reader, manuscript


def test_kramdown_site_front_matter_order_drafts_toc_and_links():
    reader, ms = read_folder("kramdown")
    assert [c.title for c in ms.chapters] == ["The Lantern Road", "Rules", "Spells"]  # nav_order
    assert ms.title == "The Lantern Road" and ms.front_matter["author"] == "Test Author"
    assert ms.warnings == []
    html = html_of(reader, ms)
    assert "DRAFT TEXT" not in html and "nav_order" not in html and "layout:" not in html
    assert "{:" not in html and "TOC" not in html
    assert '<nav class="file-toc">' in html
    # links written for GitHub/kramdown ids, across files, without .md
    assert '<a href="#arcane-eye">Arcane Eye</a>' in html
    assert '<a href="#walking">the road</a>' in html and '<a href="#spells">the spells</a>' in html
    assert '<a href="#light-spell">first</a>' in html and '<a href="#light-1">third</a>' in html
    # a site-root image path, from the manuscript's folder
    assert (MANUSCRIPTS / "kramdown" / "assets" / "img" / "map.png").as_uri() in html
    spells = next(c for c in ms.chapters if c.title == "Spells")
    assert [h.title for h in spells.sections] == ["Arcane Eye", "Light", "Light", "Light"]


def test_obsidian_vault_wikilinks_callouts_embeds_and_block_ids():
    reader, ms = read_folder("obsidian")
    assert [c.title for c in ms.chapters] == ["Combat", "Magic"]  # a note without # heading
    assert warnings_of(ms) == [(19, "cross-reference [[Nowhere]]: no note, section title or "
                                    "id; printed as plain text")]
    html = html_of(reader, ms)
    assert '<a class="xref" href="#magic">Magic</a>' in html
    assert '<a class="xref" href="#casting-a-spell">how to cast</a>' in html
    assert '<a class="xref" href="#experience">Experience</a>' in html
    assert '<a class="xref" href="#rounds">Rounds</a>' in html
    assert 'id="block-focus"' in html and 'href="#block-focus"' in html
    assert 'id="block-rounds-rule"' in html and "^rounds-rule" not in html
    assert 'class="box callout callout-warning"' in html and "[!warning]" not in html
    assert (MANUSCRIPTS / "obsidian" / "attachments" / "sword.png").as_uri() in html
    assert "tags:" not in html


def test_pandoc_chapter_with_broken_tags_keeps_every_paragraph():
    reader, ms = read_folder("pandoc")
    assert [c.title for c in ms.chapters] == ["Chapter One: The Mine"]
    assert warnings_of(ms) == [(31, "HTML comment '<!--' is never closed: printed as text "
                                    "so the rest of the chapter is not hidden")]
    html = html_of(reader, ms)
    assert "The last paragraph must still print." in html
    assert "<b>a long way. Nobody closed that bold tag.</b>" in html
    assert "<strong>" not in html.split("Old text")[1][:80]  # the bold ended with its block
    for gone in ("onclick", "<script", "alert", "<iframe", "<form", "<input", "<base",
                 "javascript:", "<font", "onerror"):
        assert gone not in html, gone
    assert "<details><summary>Rumours</summary>" in html and "The lamp is cursed" in html
    assert "<sub>2</sub>" in html and "<br>" in html
    assert (MANUSCRIPTS / "pandoc" / "lamp.png").as_uri() in html
    assert '<a href="#chapter-one">a good one</a>' in html


def test_missing_image_and_dangling_link_are_warnings_with_a_placeholder(tmp_path):
    reader, ms = read_folder("missing-image")
    assert warnings_of(ms) == [
        (5, "image 'maps/level-1.png': file not found; a placeholder box is printed instead"),
        (7, "link to '#nowhere': no heading has that id")]
    html = html_of(reader, ms)
    assert 'Missing image: <code>maps/level-1.png</code>' in html
    assert '<p data-line="7">After the map: see the rules.</p>' in html


def test_links_to_files_and_headings_across_the_book(tmp_path):
    reader, ms, _ = read(tmp_path, {
        "a.md": "# A\n\n[b](b.md) [b2](b) [eye](b.md#arcane-eye) [eye2](sub/c.md#arcane-eye) "
                "[bad](b.md#nope) [gone](nothing.md)\n\n## Arcane Eye\n",
        "b.md": "# B\n\n## Arcane Eye\n", "sub/c.md": "# C\n\n## Arcane Eye\n"})
    html = html_of(reader, ms)
    assert '<a href="#b">b</a>' in html and '<a href="#b">b2</a>' in html
    # each file's own "arcane-eye" is a different heading in the book
    assert '<a href="#arcane-eye-1">eye</a>' in html and '<a href="#arcane-eye-2">eye2</a>' in html
    assert [m for _, m in warnings_of(ms)] == [
        "link 'b.md#nope': no heading 'nope' in b.md; printed as plain text",
        "link 'nothing.md': no chapter 'nothing.md' in the book; printed as plain text"]


def test_site_root_paths_never_leave_the_project(tmp_path):
    (tmp_path.parent / "outside.png").write_bytes(b"x")
    reader, ms, _ = read(tmp_path, {"a.md": "# A\n\n![x](/../outside.png)\n"})
    assert "outside the project" in ms.warnings[0].message
    assert "outside.png" not in html_of(reader, ms).replace("<code>/../outside.png</code>", "")


def test_many_dangling_links_to_one_file_are_one_warning(tmp_path):
    _, ms, _ = read(tmp_path, {"a.md": "# A\n\n[x](net.md#a)\n[y](net.md#b)\n[z][]\n\n"
                                      "[z]: net.md\n"})
    assert warnings_of(ms) == [(3, "3 links to 'net.md': no chapter 'net.md' in the book; "
                                   "printed as plain text (also lines 4, 5)")]


def test_a_note_opening_with_its_only_top_heading_takes_it_as_title(tmp_path):
    reader, ms, _ = read(tmp_path, {"Barbarian.md": "---\naliases: [x]\n---\n## The Barbarian\n\n"
                                    "### Gear\n\nAxe.\n", "c.md": "## One\n\n## Two\n"})
    assert [c.title for c in ms.chapters] == ["The Barbarian", "C"]
    assert [h.title for h in ms.chapters[1].sections] == ["One", "Two"]


def test_folders_follow_their_page_and_pretty_links_resolve(tmp_path):
    reader, ms, _ = read(tmp_path, {
        "guide.md": "---\nnav_order: 1\n---\n# Guide\n\n[Jongleur](/guide/jongleur/) and "
                    "[rules](/guide/core-rules.md/#reactions)\n",
        "guide/jongleur.md": "# Jongleur\n", "guide/core-rules.md": "# Core\n\n## Reactions\n",
        "appendix.md": "---\nnav_order: 2\n---\n# Appendix\n"})
    assert [c.title for c in ms.chapters] == ["Guide", "Core", "Jongleur", "Appendix"]
    html = html_of(reader, ms)
    assert '<a href="#jongleur">Jongleur</a>' in html and '<a href="#reactions">rules</a>' in html
    assert ms.warnings == []


def test_a_section_page_links_its_children_as_a_static_site_serves_it(tmp_path):
    """Jekyll serves guide.md at guide/, so its `[Saves](saves)` is guide/saves.md (Cairn's
    Warden's Guide links all 24 of its chapters so); a file beside it still comes first."""
    reader, ms, _ = read(tmp_path, {
        "guide.md": "# Guide\n\n[Saves](saves) [Bonds](bonds.md#omens) [Map](map)\n",
        "guide/saves.md": "# Saves\n", "guide/bonds.md": "# Bonds\n\n## Omens\n",
        "map.md": "# Map\n", "guide/map.md": "# Guide Map\n"})
    html = html_of(reader, ms)
    assert '<a href="#saves">Saves</a>' in html and '<a href="#omens">Bonds</a>' in html
    assert '<a href="#map">Map</a>' in html     # the file beside guide.md, not guide/map.md
    assert ms.warnings == []


def test_a_picture_linked_to_its_own_file_warns_once(tmp_path):
    """`[![map](/img/map.webp)](/img/map.webp)`: a static site opens the picture full size;
    in print the picture is the whole story (its missing file is the one warning)."""
    _, ms, _ = read(tmp_path, {"a.md": "# A\n\n[![map](/img/map.webp)](/img/map.webp)\n\n"
                                      "[the map](/img/map.webp)\n"})
    assert warnings_of(ms) == [
        (3, "image '/img/map.webp': file not found; a placeholder box is printed instead"),
        (5, "link '/img/map.webp': no chapter '/img/map.webp' in the book; printed as plain "
            "text")]


def test_raw_html_anchors_are_link_targets_and_stay_unique(tmp_path):
    reader, ms, _ = read(tmp_path, {
        "a.md": '# A\n\n[go](#steps)\n\n<a id="steps"></a>\n\n## Steps\n',
        "b.md": '# B\n\n[go](#steps)\n\n<a id="steps"></a>\n'}, html="sanitized")
    html = html_of(reader, ms)
    assert ms.warnings == []
    assert html.count('id="steps"') == 1 and html.count('id="steps-2"') == 1
    assert '<a href="#steps">go</a>' in html and '<a href="#steps-2">go</a>' in html


def test_vault_root_paths_resolve_inside_a_folder_of_the_vault(tmp_path):
    reader, ms, _ = read(tmp_path, {
        "Combat/Attacks.md": "# Attacks\n\n[Fumbles](Compendium/13A/Combat/Fumbles.md) and "
                             "[[Compendium/13A/Combat/Fumbles|fumbling]] and [x](../../etc/x.md)\n",
        "Combat/Fumbles.md": "# Fumbles\n"})
    html = html_of(reader, ms)
    assert '<a href="#fumbles">Fumbles</a>' in html
    assert '<a class="xref" href="#fumbles">fumbling</a>' in html
    assert [m for _, m in warnings_of(ms)] == [
        "link '../../etc/x.md': no chapter '../../etc/x.md' in the book; printed as plain text"]


def test_vault_root_image_paths_resolve_inside_the_manuscript(tmp_path):
    from test_render_fetcher import tiny_png

    (tmp_path / "Icons").mkdir()
    (tmp_path / "Icons" / "three.png").write_bytes(tiny_png(4, 4))
    reader, ms, _ = read(tmp_path, {"Icons/Three.md": "# Three\n\n![x](Compendium/13A/Icons/"
                                    "three.png) ![y](Compendium/../../x.png)\n"})
    html = html_of(reader, ms)
    assert (tmp_path / "Icons" / "three.png").as_uri() in html
    assert len(ms.warnings) == 1 and "Compendium/../../x.png" in ms.warnings[0].message


def test_links_to_the_addresses_a_page_says_it_is_served_at_find_it(tmp_path):
    """Cairn's SRD says `redirect_from: /cairn-srd/` (jekyll-redirect-from), and the rest of
    the site links it there: 15 links printed as plain text, each a warning."""
    reader, ms, problems = read(tmp_path, {
        "rules/srd.md": "---\ntitle: SRD\nredirect_from: /cairn-srd/\n---\n\n# SRD\n\n"
                        "## Weapons\n",
        "rules/faq.md": "---\npermalink: /questions.html\n---\n\n# FAQ\n\n"
                        "See [the SRD](/cairn-srd), [its weapons](/cairn-srd/#weapons) and "
                        "[again](/Cairn-SRD/index.html).\n",
        "more.md": "---\naliases:\n  - /old/more/\n  - /older/\n---\n\n# More\n\n"
                   "[FAQ](/questions.html) [gone](/nowhere/)\n",
        "last.md": "# Last\n\n[more](/older) [more](/old/more/)\n"})
    assert not problems
    html = html_of(reader, ms)
    assert '<a href="#srd">the SRD</a>' in html and '<a href="#weapons">its weapons</a>' in html
    assert '<a href="#srd">again</a>' in html and '<a href="#faq">FAQ</a>' in html
    assert html.count('<a href="#more">more</a>') == 2
    assert [m for _, m in warnings_of(ms)] == [
        "link '/nowhere/': no chapter '/nowhere/' in the book; printed as plain text"]


def test_many_links_to_ids_no_heading_has_are_one_warning(tmp_path):
    """Cairn's SRD links each of its 100 spells to an id only its web page has: 100
    warnings, one a line, where one says it (five or fewer are each their own)."""
    spells = "".join(f"| {n} | [Spell {n}](#spell-{n}) |\n" for n in range(1, 41))
    reader, ms, _ = read(tmp_path, {"a.md": "# A\n\n| d | Spell |\n|--|--|\n" + spells,
                                    "b.md": "# B\n\n[x](#one) [y](#two) [z](#one)\n"})
    by_file: dict[str, list] = {}
    for warning in ms.warnings:
        by_file.setdefault(Path(warning.path).name, []).append((warning.line, warning.message))
    assert by_file["a.md"] == [(5, "40 links to ids no heading has: '#spell-1', '#spell-2', "
                                   "'#spell-3' and 37 more (lines 5-44)")]
    assert sorted(m for _, m in by_file["b.md"]) == [
        "link to '#one': no heading has that id", "link to '#two': no heading has that id"]
