"""source/markdown/booktools.py: the reading order and title other book tools keep."""

from pathlib import Path

from printshop import deps
from printshop.errors import Problems
from printshop.source.markdown import MarkdownReader


def read(root: Path, files: dict[str, str]):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    reader = MarkdownReader(root, [root])
    paths = sorted(p for p in root.rglob("*.md"))
    return reader, reader.read(paths, Problems())


def test_mdbook_summary_is_the_reading_order_and_the_book(tmp_path):
    """An mdBook (the BARGE rulebook: 100 chapter files in one folder) is read in the order
    SUMMARY.md links its files, which by name made nonsense of it ("Ace-to-5 Triple Draw"
    first, the title page late), and only those, as mdBook builds it."""
    reader, ms = read(tmp_path, {
        "book.toml": '[book]\ntitle = "Rules of the Table"\nsrc = "chapters"\n',
        "README.md": "# About this repository\n\nHow to build it.\n",
        "chapters/SUMMARY.md": "# Summary\n\n[Title](title.md)\n\n---\n\n"
                               "- [General Rules](general.md)\n"
                               "  - [Betting](sub/betting.md)\n"
                               "- [A draft]()\n- [Archie](archie.md)\n"
                               "- [The site](https://example.org/)\n",
        "chapters/archie.md": "# Archie\n",
        "chapters/general.md": "# General Rules\n",
        "chapters/sub/betting.md": "# Betting\n",
        "chapters/title.md": "# Rules of the Table\n",
        "chapters/unlisted.md": "# Notes to self\n"})
    assert [c.title for c in ms.chapters] == ["Rules of the Table", "General Rules", "Betting",
                                              "Archie"]
    assert ms.title == "Rules of the Table"
    assert [p.name for p in ms.files] == ["title.md", "general.md", "betting.md", "archie.md"]


def test_gitbook_summary_at_the_root(tmp_path):
    _, ms = read(tmp_path, {"SUMMARY.md": "* [Intro](README.md)\n* [Zeta](zeta.md)\n"
                                          "* [Alpha](alpha.md)\n",
                            "README.md": "# Intro\n", "alpha.md": "# Alpha\n",
                            "zeta.md": "# Zeta\n"})
    assert [c.title for c in ms.chapters] == ["Intro", "Zeta", "Alpha"]


def test_a_summary_linking_no_chapter_leaves_the_usual_order(tmp_path):
    _, ms = read(tmp_path, {"SUMMARY.md": "Nothing here yet.\n", "b.md": "# B\n",
                            "a.md": "# A\n"})
    assert [c.title for c in ms.chapters][:2] == ["A", "B"]   # (by name, as without one)


def test_mkdocs_site_name_is_the_books_title(tmp_path):
    _, ms = read(tmp_path, {"mkdocs.yml": "site_name: 'Fifth Edition SRD'\n"
                                          "markdown_extensions:\n  - toc\n",
                            "index.md": "# Welcome\n", "rules.md": "# Rules\n"})
    assert ms.title == "Fifth Edition SRD"


def test_the_tools_files_are_inputs_of_the_book(tmp_path):
    recorder = deps.Recorder()
    with deps.recording(recorder):
        read(tmp_path, {"book.toml": '[book]\nauthors = ["T"]\n',
                        "SUMMARY.md": "[A](a.md)\n", "a.md": "# A\n"})
    assert recorder.files[str(tmp_path / "book.toml")] != deps.ABSENT
    assert recorder.files[str(tmp_path / "mkdocs.yml")] == deps.ABSENT   # (one added later)


def test_a_link_to_the_page_a_site_builds_from_a_chapter_finds_the_chapter(tmp_path):
    reader, ms = read(tmp_path, {"a.md": "# A\n\nSee the [glossary](glossary.html#scoop).\n",
                                 "glossary.md": "# Glossary\n\n## Scoop\n"})
    html = "".join(reader.render(c, lambda n, a, attrs: "") for c in ms.chapters)
    assert '<a href="#scoop">glossary</a>' in html and not ms.warnings


def test_a_chapter_called_summary_is_a_chapter(tmp_path):
    _, ms = read(tmp_path, {"summary.md": "# Summary of the Rules\n\n[B](b.md)\n",
                            "a.md": "# A\n", "b.md": "# B\n"})
    assert [c.title for c in ms.chapters] == ["A", "B", "Summary of the Rules"]


MKDOCS_YML = """site_name: The Guide
docs_dir: pages
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
nav:
  - Home: index.md
  - Rules:
    - Combat: rules/combat.md
    - rules/magic.md
  - Bestiary: bestiary/
  - Discord: https://example.org/chat
"""


def test_mkdocs_nav_is_the_reading_order_and_docs_dir_the_book(tmp_path):
    """MkDocs' own documentation built from its repository's root: the README and the
    package's test pages beside `docs/` were chapters, and the nav's order was not kept."""
    _, ms = read(tmp_path, {
        "mkdocs.yml": MKDOCS_YML, "README.md": "# The repository\n",
        "pages/index.md": "# Welcome\n", "pages/rules/magic.md": "# Magic\n",
        "pages/rules/combat.md": "# Combat\n", "pages/bestiary/owlbear.md": "# Owlbear\n",
        "pages/bestiary/goblin.md": "# Goblin\n", "pages/not-in-nav.md": "# Draft\n",
        "tools/notes.md": "# Notes\n"})
    assert [c.title for c in ms.chapters] == ["Welcome", "Combat", "Magic", "Goblin",
                                              "Owlbear"]
    assert ms.title == "The Guide"


def test_mkdocs_without_a_nav_reads_its_docs_in_the_usual_order(tmp_path):
    _, ms = read(tmp_path, {"mkdocs.yml": "site_name: SRD\n", "README.md": "# Repo\n",
                            "docs/index.md": "# Home\n", "docs/b.md": "# B\n",
                            "docs/a.md": "# A\n"})
    assert [c.title for c in ms.chapters] == ["Home", "A", "B"]


def test_a_book_toml_or_mkdocs_yml_that_cannot_be_read_is_a_warning_at_its_line(tmp_path):
    _, ms = read(tmp_path, {"book.toml": '[book]\ntitle = "Unclosed\n',
                            "b.md": "# B\n", "a.md": "# A\n"})
    assert [(Path(w.path).name, w.line) for w in ms.warnings] == [("book.toml", 2)]
    assert "the book is read without it" in ms.warnings[0].message
    assert [c.title for c in ms.chapters] == ["A", "B"]
    _, ms = read(tmp_path / "site", {"mkdocs.yml": "site_name: X\nnav: [\n",
                                     "docs/a.md": "# A\n"})
    assert [(Path(w.path).name, w.line) for w in ms.warnings] == [("mkdocs.yml", 3)]
