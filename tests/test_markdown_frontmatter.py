from pathlib import Path

import pytest

from printshop.errors import PrintshopError
from printshop.source.markdown.frontmatter import split_front_matter

P = Path("ch.md")


def test_front_matter_is_read_and_blanked_so_lines_stay_the_files_own():
    text = "---\ntitle: Spells\nnav_order: 3\nlayout: default\n---\n# Spells\n"
    front, body = split_front_matter(text, P)
    assert front.title == "Spells" and front.order == 3.0 and not front.draft
    assert body.split("\n")[5] == "# Spells" and "layout" not in body


@pytest.mark.parametrize("key", ["order", "nav_order", "weight"])
def test_order_keys(key):
    front, _ = split_front_matter(f"---\n{key}: 2.5\n---\n", P)
    assert front.order == 2.5


def test_draft_and_unknown_keys():
    front, _ = split_front_matter("---\ndraft: true\nparent: Rules\ntags: [a, b]\n---\nx\n", P)
    assert front.draft and front.get("parent") == "Rules"


def test_no_front_matter_leaves_the_text_alone():
    text = "# Title\n\n---\n\nnot front matter\n"
    front, body = split_front_matter(text, P)
    assert front.data == {} and body == text


def test_broken_front_matter_is_an_error_at_its_line():
    with pytest.raises(PrintshopError) as caught:
        split_front_matter("---\ntitle: ok\nnav_order: [1\n---\n# A\n", P)
    problem = caught.value.problems[0]
    assert problem.path == "ch.md" and problem.line in (3, 4)
    # in plain words, with the fix
    assert problem.message.startswith("front matter: this [ is never closed")


def test_unclosed_front_matter_is_an_error():
    with pytest.raises(PrintshopError, match="never closed"):
        split_front_matter("---\ntitle: x\n# A\n", P)


def test_hugo_toml_front_matter():
    front, body = split_front_matter('+++\ntitle = "Magic"\nweight = 4\n+++\ntext\n', P)
    assert front.title == "Magic" and front.order == 4.0 and body.endswith("text\n")


def test_mkdocs_meta_data_without_fences_is_front_matter_and_lines_stay_the_files_own():
    """The 5th Edition SRD (MkDocs) opens every page with `description: …` and no fences:
    it printed as the chapter's first paragraph."""
    front, body = split_front_matter("description: Rules for the Fighter class.\n\n"
                                     "# The Fighter\nText.\n", P)
    assert front.get("description") == "Rules for the Fighter class."
    assert body.split("\n")[2] == "# The Fighter" and "description" not in body
    front, body = split_front_matter("title: Combat\nauthors:\n    Ann\n    Bob\n\nText.\n", P)
    assert front.title == "Combat" and front.data["authors"] == ["Ann", "Bob"]
    assert body.split("\n")[5] == "Text."


@pytest.mark.parametrize("text", ["Note: the rules below are optional.\n\nMore.\n",
                                  "Title: A Sentence That Starts So\n\nMore.\n",
                                  "# Title\ndescription: not at the top\n"])
def test_prose_that_looks_like_a_key_stays_prose(text):
    front, body = split_front_matter(text, P)
    assert front.data == {} and body == text
