"""The command line as users meet it: help, checks, and every kind of bad input."""

import re

import pytest

from conftest import folder_snapshot, run_cli


def test_help_has_copy_paste_examples():
    for args in ([], ["build"], ["check"], ["roll"]):
        result = run_cli(*args, "--help")
        assert result.exit_code == 0
        assert "Example" in result.output and "printshop " in result.output


def test_check_is_quiet_and_fast_on_the_real_source():
    result = run_cli("check", "--source", "rules-src", "--strict",
                     cwd=__import__("conftest").REPO)
    assert result.exit_code == 0, result.output
    assert re.search(r"OK: \d+ products? checked in [\d.]+ s", result.output)


@pytest.fixture
def previous_build(tmp_path):
    out = tmp_path / "build"
    out.mkdir()
    (out / "players-guide.pdf").write_bytes(b"%PDF yesterday's guide")
    return out


def build_fails(project, out, *args):
    before = folder_snapshot(out)
    result = run_cli("build", "--source", project, "--out", out, *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "nothing was written" in result.output
    assert folder_snapshot(out) == before, "a failed build changed the output folder"
    return result.output


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_duplicate_key(project_copy, previous_build):
    path = project_copy / "tables" / "armour.yaml"
    path.write_text(path.read_text() + "title: Again\n")
    output = build_fails(project_copy, previous_build)
    assert re.search(r"tables/armour\.yaml:\d+:1: error: duplicate key 'title' "
                     r"\(first given on line 1\)", output)


def test_bad_indentation(project_copy, previous_build):
    path = project_copy / "tables" / "shields.yaml"
    path.write_text("title: Shields\n  columns: oops\n")
    output = build_fails(project_copy, previous_build)
    assert re.search(r"tables/shields\.yaml:2:3: error: this line is indented 2 spaces; the line "
                     r"above it 0", output)
    assert "  2 |   columns: oops\n    |   ^" in output   # the line, a caret under the column


def test_wrong_type(project_copy, previous_build):
    edit(project_copy / "tables" / "armour.yaml", "bonus: 1", "bonus: high")
    output = build_fails(project_copy, previous_build)
    assert re.search(r"tables/armour\.yaml:\d+:\d+: error: rows\[0\]\.bonus: "
                     r"expected a whole number, got 'high'", output)


def test_misspelt_field(project_copy, previous_build):
    edit(project_copy / "tables" / "armour.yaml", "title:", "titel:")
    output = build_fails(project_copy, previous_build)
    assert "unknown field 'titel' (did you mean 'title'?)" in output


@pytest.mark.parametrize("old, new, message", [
    ("roll: 5-7", "roll: 4-7", "overlaps the row on line"),
    ("roll: 5-7", "roll: 6-7", "no row for 5 on 3d6"),
    ("roll: 17-18", "roll: 17-19", "outside what 3d6 can roll"),
])
def test_dice_table_gaps_overlaps_and_ranges(project_copy, previous_build, old, new, message):
    edit(project_copy / "tables" / "class-roll.yaml", old, new)
    output = build_fails(project_copy, previous_build)
    assert re.search(r"tables/class-roll\.yaml:\d+(:\d+)?: error: .*" + re.escape(message), output)


def test_missing_table_in_markdown(project_copy, previous_build):
    chapter = project_copy / "guide" / "05-equipment.md"
    edit(chapter, "::table[armour]", "::table[armor]")
    output = build_fails(project_copy, previous_build)
    assert re.search(r"guide/05-equipment\.md:\d+:1: error: ::table\[armor\]: no table 'armor' in "
                     r"tables/ \(did you mean 'armour'\?\)", output)


@pytest.fixture
def small_game(tmp_path):
    """A `printshop new` project: its book is a chapter, quick to build (these tests are
    about what a chapter says, not the Player's Guide)."""
    from printshop.scaffold import new_project

    new_project(tmp_path / "game", "Game")
    return tmp_path / "game"


def test_missing_cross_reference(small_game, previous_build):
    chapter = small_game / "guide" / "01-playing.md"
    chapter.write_text(chapter.read_text() + "\nSee [[The Lost Chapter]].\n")
    line = len(chapter.read_text().splitlines())
    output = build_fails(small_game, previous_build, "rules", "--strict")
    assert f"guide/01-playing.md:{line}:5: error: cross-reference [[The Lost Chapter]]" \
        in output


@pytest.mark.parametrize("src, message", [
    ("../../secret.png", "outside the project"),
    ("file:///etc/passwd", "only files inside the project"),
    ("http://127.0.0.1:9/x.png", "never fetches from the network"),
])
def test_images_outside_the_project_are_refused(small_game, previous_build, src, message):
    (small_game.parent / "secret.png").write_bytes(b"secret")
    chapter = small_game / "guide" / "01-playing.md"
    chapter.write_text(chapter.read_text() + f"\n![map]({src})\n")
    line = len(chapter.read_text().splitlines())
    output = build_fails(small_game, previous_build, "rules", "--strict")
    assert f"guide/01-playing.md:{line}:8: error: " in output and message in output


def test_unknown_product_and_bad_product_name(project_copy, previous_build):
    output = build_fails(project_copy, previous_build, "nonsense")
    assert "no product 'nonsense'" in output
    edit(project_copy / "printshop.yaml", "players-guide:", "../../escape:")
    output = build_fails(project_copy, previous_build)
    assert "printshop.yaml:" in output and "cannot be used as a file name" in output


def test_missing_template(project_copy, previous_build):
    edit(project_copy / "printshop.yaml", "chapters: guide",
         "chapters: guide\n    template: nope.html.j2")
    output = build_fails(project_copy, previous_build)
    assert "template not found: nope.html.j2" in output


def tiny_project(tmp_path, css=None):
    project = tmp_path / "tiny"
    (project / "templates" / "css").mkdir(parents=True)
    (project / "printshop.yaml").write_text(
        "title: Tiny\nproducts:\n  book:\n    kind: guide\n    chapters: .\n"
        "    formats: [pdf]\n    print_every_table: false\n")
    (project / "one.md").write_text("# One\n\nHello.\n")
    if css is not None:
        (project / "templates" / "css" / "fonts.css").write_text(css)
    return project


def test_missing_font_file_is_an_error_naming_the_stylesheet(tmp_path, previous_build):
    project = tiny_project(tmp_path,
                           css='@font-face { font-family: X; src: url(../fonts/nope.ttf); }\n')
    output = build_fails(project, previous_build)
    assert re.search(r"templates/css/fonts\.css:1:\d+: error: "
                     r"url\(\.\./fonts/nope\.ttf\): file not found", output)


def test_font_from_outside_the_project_is_refused(tmp_path, previous_build):
    outside = tmp_path / "outside.ttf"
    outside.write_bytes(b"not a font")
    project = tiny_project(
        tmp_path, css=f'@font-face {{ font-family: X; src: url({outside.as_uri()}); }}\n')
    output = build_fails(project, previous_build)
    assert re.search(r"fonts\.css:1:\d+: error: url\(file://.*outside\.ttf\): "
                     r"is outside the project", output)


def test_a_good_build_replaces_the_previous_output(tmp_path, previous_build):
    project = tiny_project(tmp_path)
    result = run_cli("build", "--source", project, "--out", previous_build, "--strict")
    assert result.exit_code == 0, result.output
    assert (previous_build / "book.pdf").read_bytes().startswith(b"%PDF-")
    assert (previous_build / "players-guide.pdf").read_bytes() == b"%PDF yesterday's guide"


def test_internal_errors_exit_1_without_a_traceback(monkeypatch, tmp_path):
    project = tiny_project(tmp_path)

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")
    monkeypatch.setattr("printshop.builder.build_project", boom)
    result = run_cli("build", "--source", project, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "internal error: RuntimeError: kaboom" in result.output
    assert "Traceback" not in result.output


def test_without_out_a_foreign_source_builds_inside_itself(tmp_path):
    project = tiny_project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run_cli("build", "--source", project, "--strict", cwd=elsewhere)
    assert result.exit_code == 0, result.output
    assert (project / "build" / "book.pdf").exists()
    assert list(elsewhere.iterdir()) == []
    # and the book's own build/ folder is never read back as a chapter
    (project / "build" / "stray.md").write_text("# Stray\n")
    result = run_cli("build", "--source", project, "--strict", cwd=elsewhere)
    assert result.exit_code == 0
    from conftest import pdf_text
    assert "Stray" not in pdf_text(project / "build" / "book.pdf")


def test_the_cli_lists_the_same_papers_as_the_project():
    from printshop import project
    from printshop.cli import options

    assert options.PAPERS == project.PAPERS  # cli keeps its own copy to start fast


def test_build_says_what_was_up_to_date(tmp_path):
    from test_cache import make_project

    project = make_project(tmp_path / "project")
    first = run_cli("build", "deck-a", "--source", project, "--strict")
    assert first.exit_code == 0, first.output
    assert "deck-a: building (not built before)" in first.output
    again = run_cli("build", "deck-a", "--source", project, "--strict")
    assert again.exit_code == 0
    assert "printshop: up to date: deck-a" in again.output
    assert "built 0 products, 1 up to date" in again.output and "wrote" not in again.output
    forced = run_cli("build", "deck-a", "--source", project, "--strict", "--force")
    assert "deck-a: building (--force)" in forced.output
