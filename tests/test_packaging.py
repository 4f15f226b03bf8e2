"""An installed printshop finds its templates, CSS, fonts and data inside itself.

`.ci/run` builds the real wheel and installs it into a fresh virtualenv; these tests check
the same layout quickly: the package copied out of the repository, with templates/ mapped
into it as setup.py maps it, run from another folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import printshop
from conftest import REPO, SMALL_DECK, run_cli
from printshop import resources


def test_from_the_repository_the_templates_are_the_top_level_folder():
    assert resources.TEMPLATES_DIR == REPO / "templates"
    assert (resources.FONTS_DIR / "README.md").is_file()


def test_an_installed_layout_builds_a_deck_from_another_folder(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(REPO / "printshop", site / "printshop",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "templates", site / "printshop" / "templates")  # setup.py's mapping
    project = tmp_path / "elsewhere" / "game"
    (project / "decks").mkdir(parents=True)
    (project / "decks" / "tiny.yaml").write_text(SMALL_DECK)
    (project / "printshop.yaml").write_text(
        "title: Tiny\nproducts:\n  tiny:\n    kind: cards\n    decks: [tiny]\n")
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [sys.executable, "-c", "import printshop.resources as r; print(r.TEMPLATES_DIR)"],
        cwd=tmp_path / "elsewhere", env=env, capture_output=True, text=True, check=True)
    assert where.stdout.strip() == str(site / "printshop" / "templates")
    result = subprocess.run([sys.executable, "-m", "printshop", "build", "--strict"],
                            cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (project / "build" / "tiny.pdf").stat().st_size > 10_000


def test_version_names_printshop_weasyprint_pango_and_harfbuzz():
    import weasyprint

    result = run_cli("--version")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == f"printshop {printshop.__version__}"
    assert lines[1] == f"WeasyPrint {weasyprint.__version__}"
    assert lines[2].startswith("Pango 1.") and lines[3].startswith("HarfBuzz ")
    assert "font subsetter: HarfBuzz" in lines[3]
