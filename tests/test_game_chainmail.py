"""games/chainmail: the house rules' reference sheet and the weapon-trait deck."""

from __future__ import annotations

import pytest

from game_helpers import GAMES, build_game, card_faces, pdf_squashed, squash, unprinted_cells
from print_sizes import ID_OR_NOTE, smaller_than
from printshop.project import Project
from printshop.source.decks import load_deck


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_game("chainmail", tmp_path_factory.mktemp("chainmail"))


@pytest.fixture(scope="module")
def project() -> Project:
    return Project.load(GAMES / "chainmail")


@pytest.fixture(scope="module")
def sheet(built) -> str:
    return pdf_squashed(built / "reference.pdf")


def has(text: str, *phrases: str) -> None:
    for phrase in phrases:
        assert squash(phrase).lower() in text.lower(), phrase


def test_builds_the_sheet_and_the_deck(built):
    assert {p.name for p in built.iterdir() if p.suffix == ".pdf"} == {
        "reference.pdf", "weapon-traits.pdf",
        # rolled adventurers (recipes/characters.yaml; tests/test_games_sheets.py)
        "pregens.pdf", "con-kit.pdf", "blank-sheet-letter.pdf", "blank-sheet-a4.pdf"}


def test_every_value_of_every_table_on_the_sheet_is_printed(project, sheet):
    assert unprinted_cells(project, ["reference"], sheet) == []


def test_attribute_modifiers(project, sheet):
    mods = {score: project.tables["attribute-modifiers"].row_for(score)["mod"]
            for score in range(3, 19)}
    assert [mods[s] for s in (3, 4, 5, 6, 8, 9, 12, 13, 15, 16, 17, 18)] == \
        [-3, -2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 3]
    has(sheet, "3−3", "4–5−2", "9–120", "18+3")


def test_the_2d6_skill_roll_from_catastrophe_to_extraordinary_success(project, sheet):
    outcomes = [r["outcome"] for r in project.tables["skill-roll"].rows]
    assert [o.split("**")[1] for o in outcomes] == [
        "Catastrophe", "Failure", "Delay", "Success", "Extraordinary success"]
    has(sheet, "Snake eyes is always 2, boxcars always 12", "9–11Success")


def test_hit_modifiers_defence_value_and_ganging_up(project, sheet):
    mods = {r["situation"]: r["mod"] for r in project.tables["hit-modifiers"].rows}
    assert mods["From a charge this round"] == "+1" and mods["A helpless opponent"] == "Hits"
    assert mods["An opponent on higher ground"] == "−1"
    has(sheet, "2d6 ± STR modifier", "hit dice ÷ 2", "6 + hit dice ÷ 2 + armour level",
        "+1 each", "+3 at most")


def test_the_getting_hurt_save_from_eviscerated_to_glancing_blow(project, sheet):
    results = [r["result"].split("**")[1] for r in project.tables["getting-hurt"].rows]
    assert results == ["Eviscerated", "Dead", "Wounded", "Knocked down", "Glancing blow"]
    has(sheet, "CON modifier + armour level − the weapon's damage", "6–8Wounded")


def test_round_order_xp_thresholds_and_time_scales(project, sheet):
    xp = {r["level"]: r["xp"] for r in project.tables["xp-levels"].rows}
    assert xp[1] == "0" and xp[2] == "1,000" and xp[3] == "2,000" and xp[4] == "4,000"
    has(sheet, "Charges and melee", "Shooting", "Movement", "Skills and spells",
        "Danger time", "About ten minutes", "Adventure time", "Half a day", "Safe time")


def test_the_weapon_trait_deck(built, project):
    deck = load_deck(project, "weapon-traits")
    traits = [c.data["fields"]["trait"] for c in deck.cards if c.data["kind"] == "row"]
    assert len(traits) == 19 and {"Blade", "Chopper", "Crusher", "Great", "Warrior",
                                  "Wild"} <= set(traits)
    text = pdf_squashed(built / "weapon-traits.pdf")
    assert card_faces(deck, text, ["trait", "rule"]) == []


def test_sheet_and_cards_are_readable_at_arms_length(built):
    assert smaller_than(built / "reference.pdf", 8) == []
    assert smaller_than(built / "weapon-traits.pdf", 7, ID_OR_NOTE) == []
