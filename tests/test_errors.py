"""Problems reach the user once each, sorted by file and line."""

from __future__ import annotations

from conftest import run_cli
from printshop.errors import PrintshopError, Problem, Problems, unique_sorted


def test_problems_are_unique_and_sorted_by_file_line_column():
    problems = Problems()
    problems.add("b.yaml", "late", 9, 1)
    problems.add("a.yaml", "second", 3, 5)
    problems.add("a.yaml", "first", 3, 2)
    problems.add("b.yaml", "late", 9, 1)
    try:
        problems.raise_if_any()
    except PrintshopError as exc:
        assert [str(p) for p in exc.problems] == [
            "a.yaml:3:2: first", "a.yaml:3:5: second", "b.yaml:9:1: late"]
    else:
        raise AssertionError("no error raised")
    assert unique_sorted([Problem("x", "m", 2), Problem("x", "m", 1), Problem("x", "m", 2)]) \
        == [Problem("x", "m", 1), Problem("x", "m", 2)]


def test_a_broken_table_is_reported_once_whichever_products_load_it(project_copy):
    """Every product of the manifest loads tables/; one syntax error is still one line."""
    (project_copy / "tables" / "armour.yaml").write_text(
        (project_copy / "tables" / "armour.yaml").read_text() + "bad: [unclosed\n")
    (project_copy / "tables" / "alignments.yaml").write_text(
        (project_copy / "tables" / "alignments.yaml").read_text() + "oops: {\n")
    for args in (["check"], ["build", "--out", project_copy / "out"]):
        result = run_cli(*args, "--source", project_copy)
        assert result.exit_code == 2, result.output
        lines = [line for line in result.output.splitlines() if "is never closed" in line]
        assert len(lines) == 2, result.output
        assert "alignments.yaml" in lines[0] and "armour.yaml" in lines[1]
        assert "printshop: 2 errors; nothing was written" in result.output
        assert not (project_copy / "out").exists()
