"""Property tests: whatever a user writes, printshop answers with its own error or a result.

A crash found here becomes a fixture in tests/fixtures/fuzz/ (each is replayed below).
"""

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printshop.errors import PrintshopError, Problems
from printshop.source.markdown import MarkdownReader
from printshop.source.tables import load_table

FUZZ_FIXTURES = Path(__file__).parent / "fixtures" / "fuzz"
YAML_ALPHABET = list("abc019 -:#&*!|>'\"[]{},?%@`~\n\t\\.") + ["roll", "dice", "rows", "columns",
                                                                "key", "label", "3d6", "1-2"]
FAST = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.text(max_size=12),
                    st.sampled_from(["3-4", "1", "d6", "2d6", "NO", "010", "12:30", "-", ""]))
rows = st.lists(st.dictionaries(st.sampled_from(["roll", "name", "bonus", "then", "weight", "x"]),
                                scalars, max_size=5), max_size=8)
columns = st.lists(st.fixed_dictionaries(
    {"key": st.sampled_from(["name", "bonus", "x", "Bad Key", "roll"]),
     "label": scalars},
    optional={"type": st.sampled_from(["text", "int", "signed", "list", "dice", "nope"]),
              "print": st.booleans(), "optional": st.booleans()}), max_size=4)
tables = st.fixed_dictionaries({}, optional={
    "title": scalars, "dice": st.sampled_from(["1d6", "3d6", "d66", "2d4+1", "d0", "x", None]),
    "columns": columns, "rows": rows, "notes": st.lists(scalars, max_size=2),
    "roll_label": scalars, "wide": scalars})


def only_printshop_errors(call):
    try:
        call()
    except PrintshopError as exc:
        assert exc.problems, "a PrintshopError must carry at least one problem"
        for problem in exc.problems:
            assert problem.message and problem.path


@FAST
@given(text=st.lists(st.sampled_from(YAML_ALPHABET), max_size=60).map("".join))
def test_arbitrary_yaml_text(tmp_path, text):
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    only_printshop_errors(lambda: load_table(path))


@FAST
@given(data=tables)
def test_structured_tables(tmp_path, data):
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    only_printshop_errors(lambda: load_table(path))


MD_ALPHABET = ["#", "# ", "## ", "\n", "\n\n", "[[", "]]", "|", "[", "]", "(", ")", "::", ":::",
               "::table[x]", "::class[y]{a=\"b\"}", "::: note", "::: optional T", "*", "_", "`",
               "<", ">", "<div>", "<!--", "-->", "![i](", "x.png", "http://h/", "javascript:",
               "#a", "{#id}", "- ", "1. ", "> ", "|a|b|\n|-|-|\n", "word", " ", "\\", "&amp;",
               "[^1]", "[^1]: note", "---\n", "~~~", "```"]


@FAST
@given(chunks=st.lists(st.sampled_from(MD_ALPHABET), max_size=40), raw=st.booleans())
def test_arbitrary_markdown_reads_and_renders(tmp_path, chunks, raw):
    path = tmp_path / "a.md"
    path.write_text("".join(chunks), encoding="utf-8")
    reader = MarkdownReader(tmp_path, [tmp_path], raw_html=raw,
                            directive_check=lambda n, a, attrs: None if a == "x" else "unknown")
    problems = Problems()
    manuscript = reader.read([path], problems)
    for chapter in manuscript.chapters:
        html = reader.render(chapter, lambda name, arg, attrs: "<p>directive</p>")
        assert isinstance(html, str)
        if not raw:
            assert "<div>" not in html.replace('<div class="box', "")
            assert "<script" not in html


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chunks=st.lists(st.sampled_from(MD_ALPHABET), min_size=1, max_size=25))
def test_arbitrary_markdown_builds_or_fails_cleanly(tmp_path_factory, chunks):
    from printshop.builder import build_project

    root = tmp_path_factory.mktemp("fuzzbook")
    (root / "a.md").write_text("# Chapter\n\n" + "".join(chunks), encoding="utf-8")
    only_printshop_errors(lambda: build_project(root, root / "out", strict=False))


@pytest.mark.parametrize("fixture", sorted(FUZZ_FIXTURES.glob("*")), ids=lambda p: p.name)
def test_recorded_crashes_stay_fixed(tmp_path, fixture):
    if fixture.suffix == ".yaml":
        only_printshop_errors(lambda: load_table(fixture))
    else:
        reader = MarkdownReader(fixture.parent, [fixture.parent])
        problems = Problems()
        for chapter in reader.read([fixture], problems).chapters:
            reader.render(chapter, lambda *a: "")
