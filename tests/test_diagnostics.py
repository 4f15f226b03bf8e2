"""Problems as users read them: every problem of a run at once, sorted, each once, in one
format (`file:line:col: error|warning: message`), an error's source line with a caret,
colour only on a terminal, values of closed sets in any case and a "did you mean" for the
rest. Checked on a `printshop new` project with `check`, which renders nothing (fast)."""

from __future__ import annotations

import re

import pytest

from conftest import run_cli
from printshop import diagnostics
from printshop.errors import Problem
from printshop.scaffold import new_project

HEADLINE = re.compile(diagnostics.MATCHER)


@pytest.fixture
def game(tmp_path, monkeypatch):
    new_project(tmp_path / "game", "Game")
    monkeypatch.chdir(tmp_path / "game")
    return tmp_path / "game"


def replace(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def headlines(output: str) -> list[str]:
    return [line for line in output.splitlines() if HEADLINE.match(line)]


def test_three_mistakes_in_one_entry_are_reported_in_one_run(game):
    """`kind: card`, `decks: [lot]`, `papr: a4`: one run, three problems, in file order."""
    replace(game / "printshop.yaml", "    kind: cards\n    decks: [omens]",
            "    kind: card\n    decks: [lot]\n    papr: a4")
    result = run_cli("check")
    assert result.exit_code == 2
    found = headlines(result.output)
    assert found == [
        "printshop.yaml:18:11: error: products.omen-deck.kind: 'card' is not a product kind "
        "(did you mean 'cards'?)",
        "printshop.yaml:19:13: error: no deck 'lot' in decks/; decks: omens",
        "printshop.yaml:20:5: error: unknown field 'papr' (did you mean 'paper'?)"]
    assert "printshop: 3 errors; nothing was written" in result.output


def test_a_chapter_with_a_missing_table_and_a_missing_section_reports_both(game):
    chapter = game / "guide" / "01-playing.md"
    replace(chapter, "::table[gear]", "::table[gearz]\n\nSee [[Climbing Ropes]].")
    lines = chapter.read_text().splitlines()
    table = lines.index("::table[gearz]") + 1
    xref = lines.index("See [[Climbing Ropes]].") + 1
    result = run_cli("check")
    assert result.exit_code == 2
    assert headlines(result.output) == [
        f"guide/01-playing.md:{table}:1: error: ::table[gearz]: no table 'gearz' in tables/ "
        "(did you mean 'gear'?)",
        f"guide/01-playing.md:{xref}:5: warning: cross-reference [[Climbing Ropes]]: no note, "
        "section title or id; printed as plain text"]
    # the error's line and a caret under the column
    assert f"  {table} | ::table[gearz]\n     | ^\n" in result.output
    assert "printshop: 1 error, 1 warning; nothing was written" in result.output


def test_a_misspelt_directive_gets_a_did_you_mean_with_its_argument(game):
    chapter = game / "guide" / "01-playing.md"
    replace(chapter, "::table[gear]", "::tabel[gear]")
    line = chapter.read_text().splitlines().index("::tabel[gear]") + 1
    result = run_cli("check")
    assert result.exit_code == 2
    assert headlines(result.output) == [
        f"guide/01-playing.md:{line}:1: error: unknown directive ::tabel[gear] (did you mean "
        "::table[gear]? known: table, class, table-index, art)"]


def test_problems_of_every_kind_of_file_come_together_sorted(game):
    """A table that does not parse, a deck with a bad value and a chapter naming the broken
    table: each file's problems once, sorted by file; the table that did not load is not
    reported again as missing by the chapter that prints it."""
    (game / "tables" / "gear.yaml").write_text(
        (game / "tables" / "gear.yaml").read_text() + "extra:\n\t- tab\n")
    replace(game / "decks" / "omens.yaml", "emblem:", "emblem: lantrn\n  # was:")
    replace(game / "guide" / "01-playing.md", "::table[outcomes]", "::table[outcome]")
    result = run_cli("check")
    assert result.exit_code == 2
    files = [line.split(":")[0] for line in headlines(result.output)]
    assert files == sorted(files) == ["decks/omens.yaml", "guide/01-playing.md",
                                      "tables/gear.yaml"]
    assert "a tab character: YAML indents with spaces only" in result.output
    assert "no emblem 'lantrn' (did you mean 'lantern'" in result.output
    assert "no table 'outcome' in tables/ (did you mean 'outcomes'?)" in result.output
    assert "'gear'" not in result.output   # ::table[gear] stands: its file is the problem


def test_a_problem_found_by_every_product_is_reported_once(game):
    (game / "tables" / "outcomes.yaml").write_text("id: outcomes\ntitle: 'Outcomes\n")
    result = run_cli("check")
    assert result.exit_code == 2
    assert headlines(result.output) == [
        "tables/outcomes.yaml:2:8: error: this quote (') is never closed: end the value "
        "with ' on the same line"]


@pytest.mark.parametrize("manifest, value", [("paper: letter", "paper: A4"),
                                             ("    kind: cards", "    kind: Cards")])
def test_closed_sets_take_any_case(game, manifest, value):
    replace(game / "printshop.yaml", manifest, value)
    result = run_cli("check")
    assert result.exit_code == 0, result.output


def test_a_layout_or_paper_out_of_its_set_gets_a_did_you_mean(game):
    replace(game / "printshop.yaml", "paper: letter", "paper: leter")
    replace(game / "printshop.yaml", "    decks: [omens]", "    decks: [omens]\n    layout: fold")
    result = run_cli("check")
    assert "paper: input should be 'letter', 'a4', 'a5', 'a3' or 'digest', got 'leter' (did " \
           "you mean 'letter'?)" in result.output
    assert "got 'fold' (did you mean 'foldover'?)" in result.output


def test_command_line_choices_take_any_case_and_suggest(game):
    assert run_cli("check", "--profile", "HOME").exit_code == 0
    result = run_cli("build", "reference", "--paper", "A44")
    assert result.exit_code == 2 and "'A44' is not one of letter, a4, a5, a3, digest: did you " \
        "mean 'a4'?" in result.output
    result = run_cli("check", "--profile", "dtc-crds")
    assert "unknown print profile 'dtc-crds' (did you mean 'dtc-cards'?)" in result.output
    result = run_cli("build", "nope-deck")
    assert "no product 'nope-deck' in the manifest (did you mean 'omen-deck'?)" in result.output


# --- the format ------------------------------------------------------------------------------
def test_one_line_format_that_problem_matchers_read():
    for problem, severity, text in [
            (Problem("a.yaml", "bad", 3, 5), "error", "a.yaml:3:5: error: bad"),
            (Problem("a.md", "odd", 7), "warning", "a.md:7: warning: odd"),
            (Problem("--seed", "too long"), "error", "--seed: error: too long")]:
        assert diagnostics.headline(problem, severity) == text
    match = HEADLINE.match("guide/x.md:12:4: warning: a: b")
    assert match.groups() == ("guide/x.md", "12", "4", "warning", "a: b")


def test_errors_and_warnings_sorted_together_each_once(tmp_path):
    shown = diagnostics.render_all(
        errors=[Problem("b.md", "late", 9), Problem("a.md", "first", 2),
                Problem("a.md", "first", 2)],
        warnings=[Problem("a.md", "between", 5), Problem("a.md", "first", 2)])
    assert shown == ["a.md:2: error: first", "a.md:5: warning: between", "b.md:9: error: late"]


def test_a_file_is_shown_from_the_working_folder_however_the_problem_names_it(tmp_path,
                                                                             monkeypatch):
    """Some problems are made with the file's absolute path (the page-flow report), most
    relative to here: shown alike, sorted together, said once."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "guide").mkdir()
    absolute = str(tmp_path / "guide" / "b.md")
    shown = diagnostics.render_all(warnings=[Problem(absolute, "page 12: short", 3),
                                             Problem("guide/a.md", "link", 9),
                                             Problem("guide/b.md", "page 12: short", 3)])
    assert shown == ["guide/a.md:9: warning: link", "guide/b.md:3: warning: page 12: short"]
    outside = str(tmp_path.parent / "elsewhere.md")   # not below here: as it is
    assert diagnostics.render_all(warnings=[Problem(outside, "w")]) == [f"{outside}: warning: w"]


def test_the_source_line_and_caret_follow_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.yaml").write_text("rows:\n\t- roll: 1\n")
    error = diagnostics.render(Problem("t.yaml", "a tab", 2, 1))
    assert error == "t.yaml:2:1: error: a tab\n  2 |     - roll: 1\n    | ^"
    # a warning is one line; a line with no column has no caret; no file, no excerpt
    assert diagnostics.render(Problem("t.yaml", "w", 2, 1), "warning") == "t.yaml:2:1: warning: w"
    assert diagnostics.render(Problem("t.yaml", "e", 1)) == "t.yaml:1: error: e\n  1 | rows:"
    assert diagnostics.render(Problem("gone.yaml", "e", 1)) == "gone.yaml:1: error: e"


def test_colour_on_a_terminal_only(monkeypatch):
    class Tty:
        def isatty(self):
            return True

    class Pipe:
        def isatty(self):
            return False

    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    assert diagnostics.use_colour(Tty()) and not diagnostics.use_colour(Pipe())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not diagnostics.use_colour(Tty())
    coloured = diagnostics.headline(Problem("a.yaml", "bad", 1, 2), "error", colour=True)
    assert coloured == "\x1b[1ma.yaml:1:2:\x1b[0m \x1b[1;31merror:\x1b[0m bad"


def test_piped_output_has_no_colour_codes(game, monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    replace(game / "printshop.yaml", "paper: letter", "paper: leter")
    result = run_cli("check")
    assert result.exit_code == 2 and "\x1b[" not in result.output
