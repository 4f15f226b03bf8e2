"""Every game in games/ is a project that loads, is listed in the README's Games section
with one line, and is built by `make` into its own folder under build/."""

from __future__ import annotations

import re

from conftest import REPO
from printshop.project import Project

GAMES = sorted(p.name for p in (REPO / "games").iterdir() if (p / "printshop.yaml").is_file())


def test_the_games_are_the_four_systems_of_the_seeds():
    assert GAMES == ["chainmail", "dcc", "dice-and-danger", "red-hack"]
    for name in GAMES:
        project = Project.load(REPO / "games" / name)
        assert project.manifest.title and project.manifest.credits
        assert {"reference"} <= set(project.manifest.products)


def test_the_games_page_lists_each_game_with_one_line_and_the_readme_links_it():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "(docs/games.md)" in readme
    page = (REPO / "docs" / "games.md").read_text(encoding="utf-8")
    for name in GAMES:
        lines = [line for line in page.splitlines() if f"`games/{name}/`" in line]
        assert len(lines) == 1, name
    assert "printshop build --source games/" in page


def test_make_builds_every_game_into_its_own_folder():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    listed = re.search(r"^GAMES := (.+)$", makefile, re.MULTILINE)[1].split()
    assert sorted(listed) == GAMES
    assert "--source games/$$game --out build/games/$$game" in makefile
