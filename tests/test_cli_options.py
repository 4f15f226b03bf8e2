"""Finding the project: run anywhere inside one and printshop finds its printshop.yaml by
looking upward (as git, cargo and typst do), saying which one when it is not here."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conftest import run_cli
from printshop.cli.options import locate_project
from printshop.errors import PrintshopError
from printshop.scaffold import new_project


@pytest.fixture
def game(tmp_path) -> Path:
    new_project(tmp_path / "game", "Game")
    return tmp_path / "game"


def test_inside_a_project_the_manifest_above_is_used_and_named(game):
    located = locate_project(None, cwd=game / "guide")
    assert located.source == game and located.home == game   # build/ at the project's top
    assert located.note == f"printshop: using ../printshop.yaml (the project in {game})"
    result = run_cli("check", cwd=game / "guide")
    assert result.exit_code == 0, result.output
    assert "printshop: using ../printshop.yaml" in result.output
    products = yaml.safe_load((game / "printshop.yaml").read_text())["products"]
    # the game, not its chapters alone
    assert f"OK: {len(products)} products checked" in result.output


def test_in_the_projects_own_folder_nothing_is_said(game):
    located = locate_project(None, cwd=game)
    assert located.source == Path(".") and located.home == Path(".") and located.note is None


def test_a_project_keeping_its_rules_in_rules_src_is_found_from_anywhere(tmp_path):
    repo = tmp_path / "repo"
    new_project(repo / "rules-src", "Game")
    (repo / "docs").mkdir()
    at_top = locate_project(None, cwd=repo)
    assert (at_top.source, at_top.home, at_top.note) == (Path("rules-src"), Path("."), None)
    deep = locate_project(None, cwd=repo / "rules-src" / "guide")
    assert deep.source == repo / "rules-src" and deep.home == repo / "rules-src"
    docs = locate_project(None, cwd=repo / "docs")
    assert docs.source == repo / "rules-src" and docs.home == repo
    assert docs.note == f"printshop: using ../rules-src/printshop.yaml (the project in {repo})"


def test_the_folder_above_a_project_is_not_a_book_of_its_chapters(game):
    with pytest.raises(PrintshopError) as caught:
        locate_project(None, cwd=game.parent)
    assert caught.value.problems[0].message == (
        "no printshop.yaml here or in any folder above; the project in game/ has one: cd "
        "game (or --source game)")
    result = run_cli("build", cwd=game.parent)
    assert result.exit_code == 2 and "cd game (or --source game)" in result.output
    assert not (game.parent / "build").exists()


def test_markdown_with_no_manifest_above_is_a_manuscript(tmp_path):
    book = tmp_path / "novel"
    book.mkdir()
    (book / "01-start.md").write_text("# Start\n\nIt was a dark night.\n")
    assert locate_project(None, cwd=book).source == Path(".")
    result = run_cli("check", cwd=book)
    assert result.exit_code == 0 and "OK: 1 product checked" in result.output


def test_an_empty_folder_suggests_printshop_new(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_cli("build", cwd=empty)
    assert result.exit_code == 2
    assert ".: error: no printshop.yaml here or in a folder above, and no Markdown files: " \
           "nothing to build (`printshop new .` starts a game project here)" in result.output
    assert list(empty.iterdir()) == []


def test_source_is_taken_as_given(game, tmp_path):
    located = locate_project(game / "guide", cwd=tmp_path)
    assert located.source == game / "guide" and located.note is None


# --- shell completion -------------------------------------------------------------------------
def completions(args: list[str], incomplete: str, cwd) -> list[str]:
    import os

    from click.shell_completion import BashComplete

    from printshop.cli import cli

    old = os.getcwd()
    os.chdir(cwd)
    try:
        complete = BashComplete(cli, {}, "printshop", "_PRINTSHOP_COMPLETE")
        return [item.value for item in complete.get_completions(args, incomplete)]
    finally:
        os.chdir(old)


def test_product_names_are_completed_from_the_project_found(game):
    names = list(yaml.safe_load((game / "printshop.yaml").read_text())["products"])
    assert names[:3] == ["rules", "omen-deck", "reference"]    # in the manifest's order
    assert completions(["build"], "", game) == names
    assert completions(["build"], "o", game / "guide") == ["omen-deck"]
    assert completions(["serve", "rules"], "", game) == names[1:]
    assert completions(["check", "--source", str(game)], "r", game.parent) == [
        "rules", "reference"]
    assert completions(["build"], "", game.parent) == []     # no project: nothing, no error


def test_commands_and_options_are_completed(game):
    assert {"build", "serve", "check", "kit", "new", "roll"} <= set(completions([], "", game))
    assert "--paper" in completions(["build"], "--pa", game)
    assert completions(["build", "--paper"], "a", game) == ["a4", "a5", "a3"]
