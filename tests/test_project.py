"""`--source`: the rules folder, or the project folder that keeps its rules in rules-src/."""

from __future__ import annotations

import shutil

from conftest import REPO, SMALL_DECK, run_cli
from printshop.project import Project


def _project_folder(tmp_path):
    """A repository-like folder: a README and docs beside rules-src/."""
    root = tmp_path / "my-game"
    rules = root / "rules-src"
    (rules / "decks").mkdir(parents=True)
    (rules / "decks" / "tiny.yaml").write_text(SMALL_DECK)
    (rules / "printshop.yaml").write_text(
        "title: Tiny\nproducts:\n  tiny:\n    kind: cards\n    decks: [tiny]\n")
    (root / "README.md").write_text("# My game\n\nSee [[Nowhere]] and ::table[none]\n")
    (root / "docs").mkdir()
    (root / "docs" / "notes.md").write_text("# Notes\n\n[broken](missing.md)\n")
    return root


def test_a_project_folder_reads_its_rules_src(tmp_path):
    root = _project_folder(tmp_path)
    assert Project.load(root).root == (root / "rules-src").resolve()
    assert Project.load(root / "rules-src").root == (root / "rules-src").resolve()
    result = run_cli("check", "--strict", "--source", root)
    assert result.exit_code == 0, result.output  # the README and docs are not chapters
    assert "1 product checked" in result.output


def test_building_a_project_folder_writes_into_its_build_folder(tmp_path):
    root = _project_folder(tmp_path)
    result = run_cli("build", "--strict", "--source", root, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (root / "build" / "tiny.pdf").is_file()


def test_printshops_own_repository_is_a_project_folder():
    result = run_cli("check", "--strict", "--source", REPO, cwd=REPO / "tests")
    assert result.exit_code == 0, result.output
    assert "problem" not in result.output


def test_a_folder_with_its_own_manifest_is_read_as_it_is(tmp_path):
    """A manifest beside a rules-src/ folder wins: the folder is the project."""
    root = _project_folder(tmp_path)
    shutil.copy(root / "rules-src" / "printshop.yaml", root / "printshop.yaml")
    assert Project.load(root).root == root.resolve()


def test_a_folder_of_markdown_is_still_a_foreign_manuscript(tmp_path):
    (tmp_path / "novel").mkdir()
    (tmp_path / "novel" / "01.md").write_text("# One\n\nText.\n")
    project = Project.load(tmp_path / "novel")
    assert project.is_foreign and project.root == (tmp_path / "novel").resolve()
