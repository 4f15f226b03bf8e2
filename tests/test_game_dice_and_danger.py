"""games/dice-and-danger: the reference sheets and the trick cards by tier."""

from __future__ import annotations

import pytest

from game_helpers import GAMES, build_game, card_faces, pdf_squashed, squash, unprinted_cells
from print_sizes import ID_OR_NOTE, smaller_than
from printshop.project import Project
from printshop.source.decks import load_deck


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_game("dice-and-danger", tmp_path_factory.mktemp("dice-and-danger"))


@pytest.fixture(scope="module")
def project() -> Project:
    return Project.load(GAMES / "dice-and-danger")


@pytest.fixture(scope="module")
def sheets(built) -> str:
    return pdf_squashed(built / "reference.pdf")


def has(text: str, *phrases: str) -> None:
    for phrase in phrases:
        assert squash(phrase).lower() in text.lower(), phrase


def test_builds_the_sheets_and_the_tricks(built):
    assert {p.name for p in built.iterdir() if p.suffix == ".pdf"} == {
        "reference.pdf", "trick-cards.pdf",
        # rolled adventurers (recipes/characters.yaml; tests/test_games_sheets.py)
        "pregens.pdf", "con-kit.pdf", "blank-sheet-letter.pdf", "blank-sheet-a4.pdf"}


def test_every_value_of_every_table_on_the_sheets_is_printed(project, sheets):
    assert unprinted_cells(project, ["reference", "gear"], sheets) == []


def test_the_d6_pool_its_dc_hits_crits_and_blocking(sheets):
    has(sheets, "The DC is 4", "3 or 2 when it is easy, 5 or 6 when it is hard",
        "every die showing the DC or more", "a 6 hits and explodes", "1d and 1b cancel",
        "Odd Pool Sizes", "2 dice, keep the lowest")


def test_levels_tiers_and_background_titles(project, sheets):
    tiers = [(r["level"], r["tier"], r["title"]) for r in project.tables["tiers"].rows]
    assert ("1", "1", "Novice") in tiers and ("7–10", "4", "Master") in tiers
    titles = {r["attribute"].split("**")[1]: [r[f"luck{i}"] for i in range(5)]
              for r in project.tables["titles"].rows}
    assert titles["STR"] == ["Barbarian", "Gladiator", "Guard or soldier", "Squire", "Knight"]
    assert titles["LUCK"][0] == "Beggar" and titles["LUCK"][4] == "Prince"
    has(sheets, "Background Titles", "By your highest attribute")


def test_armour_and_weapon_slots_and_blocks(project, sheets):
    armour = {r["armour"]: (r["slots"], r["block"]) for r in project.tables["armour"].rows}
    assert armour["Full plate"] == (5, "5b") and armour["Helm"] == (1, "1b")
    weapons = {r["weapon"]: (r["slots"], r["dice"]) for r in project.tables["weapons"].rows}
    assert weapons["Melee, very heavy"] == ("3", "3d") and weapons["Shield, large"] == ("2", "2b")
    has(sheets, "6 + CON slots", "Full plate55b", "Melee, heavy22d")


def test_the_d66_gear_table(project, sheets):
    gear = project.tables["gear"]
    cells = [r[f"u{i}"] for r in gear.rows for i in range(1, 7)]
    assert len(cells) == 36 and cells[0] == "Musk (1)" and cells[-1] == "Strong wine (3)"
    has(sheets, "Roll d66", "Glowstone (1)", "Grappling hook")


def test_injuries_material_durability_encumbrance_and_speed(project, sheets):
    injuries = [r["hits"] for r in project.tables["injuries"].rows]
    assert injuries == ["0", "1", "2", "3", "4", "5+"]
    durability = {r["material"]: r["durability"] for r in project.tables["durability"].rows}
    assert durability["Cloth, paper, rope"] == -1 and durability["Iron, steel"] == 4
    has(sheets, "Injuries", "knocked out", "dying", "Material Durability", "Iron, steel+4",
        "Encumbrance and Speed", "12\" a round", "Double disadvantage")


def test_trick_cards_by_tier(built, project):
    deck = load_deck(project, "tricks")
    tiers = {}
    for card in deck.cards:
        if card.data["kind"] == "row":
            tiers.setdefault(card.data["fields"]["tier"], []).append(card.data["fields"]["name"])
    assert sorted(tiers) == [f"Tier {n}" for n in range(7)]
    assert "Fireball" in tiers["Tier 3"] and "Disintegrate" in tiers["Tier 6"]
    assert "Oilbomb" in tiers["Tier 0"] and "Bless" in tiers["Tier 2"]
    text = pdf_squashed(built / "trick-cards.pdf")
    assert card_faces(deck, text, ["tier", "name", "effect"]) == []


def test_sheets_and_cards_are_readable_at_arms_length(built):
    assert smaller_than(built / "reference.pdf", 8) == []
    assert smaller_than(built / "trick-cards.pdf", 7, ID_OR_NOTE) == []
