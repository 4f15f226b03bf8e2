"""docs/recipes.md's walk-through works as written: its tables and recipe, copied from the
page into a new project, roll wanderers the way the rules text it starts from says."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import run_cli

DOC = Path(__file__).resolve().parent.parent / "docs" / "recipes.md"


def files_of_the_walk_through() -> dict[str, str]:
    """Every `File: PATH` line of the page and the YAML block under it."""
    text = DOC.read_text(encoding="utf-8")
    return dict(re.findall(r"^File: (\S+)\n```yaml\n(.*?)^```", text, re.M | re.S))


def test_the_walk_through_rolls_what_its_rules_text_says(tmp_path):
    files = files_of_the_walk_through()
    assert set(files) == {"tables/pasts.yaml", "tables/pack.yaml", "recipes/characters.yaml"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "printshop.yaml").write_text("title: Wanderers\nproducts:\n  wanderers:\n"
                                             "    kind: pregens\n    seed: first-night\n"
                                             "    count: 2\n")
    result = run_cli("roll", "characters", "--count", "300", "--seed", "walk", "--format",
                     "json", "--out", "-", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    pasts = {"Goatherd": "A bone whistle", "Ferryman's child": "A coil of rope",
             "Failed monk": "A book of hours", "Tanner": "A skinning knife",
             "Soldier": "A dented helm", "Forger": "A set of fine brushes",
             "Well-digger": "A short spade", "Bell-ringer": "A brass bell"}
    pack = {"Gambeson", "Lantern", "Ten-foot pole", "Crowbar", "Three days of food", "Shield"}
    for c in json.loads(result.stdout)["characters"]:
        abilities = c["abilities"]
        assert list(abilities) == ["STRENGTH", "AGILITY", "WITS"]
        assert all(3 <= v <= 18 for v in abilities.values())
        assert max(abilities.values()) >= 10                  # "if none is 10 or more, again"
        assert 3 <= c["hit_points"] <= 8                      # 1d6 + 2
        assert pasts[c["past"]] == c["kept"]
        carried, kept = c["pack"][:2], c["pack"][2]
        assert len(set(carried)) == 2 and set(carried) <= pack and kept == c["kept"]
        assert c["armour"] == (1 if "Gambeson" in carried else 0)
        assert 3 <= c["silver"] <= 18
    # and the manifest's pack builds, on the generic sheet, headed by each past
    result = run_cli("build", "--strict", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "build" / "wanderers.pdf").is_file()
