"""games/dcc: the Dungeon Crawl Classics combat reference sheet and the fumble and crit decks
(moved here from HAMMERCRAWL!'s kit, which cannot use them as written)."""

from __future__ import annotations

import pytest

from game_helpers import GAMES, build_game, card_faces, pdf_squashed, squash, unprinted_cells
from print_sizes import ID_OR_NOTE, smaller_than
from printshop.project import Project
from printshop.source.decks import load_deck


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_game("dcc", tmp_path_factory.mktemp("dcc"))


@pytest.fixture(scope="module")
def project() -> Project:
    return Project.load(GAMES / "dcc")


@pytest.fixture(scope="module")
def sheet(built) -> str:
    return pdf_squashed(built / "combat-reference.pdf").lower()


def has(text: str, *phrases: str) -> None:
    for phrase in phrases:
        assert squash(phrase).lower() in text, phrase


def test_builds_the_sheet_and_both_decks(built):
    assert {p.name for p in built.iterdir() if p.suffix == ".pdf"} == {
        "combat-reference.pdf", "fumble-deck.pdf", "crit-decks.pdf"}


def test_every_value_of_every_table_on_the_sheet_is_printed(project, built):
    text = pdf_squashed(built / "combat-reference.pdf")
    assert unprinted_cells(project, ["combat-reference"], text) == []


def test_table_4_1_attack_modifiers_by_range_attacker_and_defender(project, sheet):
    rows = {(t, r["condition"]): (r["melee"], r["missile"])
            for t in ("attack-range", "attack-attacker", "attack-defender")
            for r in project.tables[t].rows}
    assert rows[("attack-range", "Medium range")] == ("—", "−2")
    assert rows[("attack-range", "Long range")] == ("—", "−1d")
    assert rows[("attack-attacker", "Invisible")] == ("+2", "—")
    assert rows[("attack-attacker", "On higher ground")] == ("+1", "—")
    assert rows[("attack-attacker", "Shooting into a melee*")] == ("—", "−1")
    assert rows[("attack-defender", "Behind cover")] == ("−2", "−2")
    assert rows[("attack-defender", "Kneeling, sitting or lying down")] == ("+2", "−2")
    assert rows[("attack-defender", "Helpless (paralysed, asleep, tied up)")] == ("+1d", "+1d")
    has(sheet, "Table 4-1: Attack Roll Modifiers", "Missile fire range", "The attacker is",
        "The defender is", "50 % chance of hitting a friend")


def test_action_dice_and_the_d16_initiative_for_two_handed_weapons(sheet):
    has(sheet, "Action Dice", "one action per action die", "d20 first, then the second die",
        "1d20 + Agility modifier", "Two-handed weapon: roll a d16 instead of the d20")


def test_bleeding_out_recovering_the_body_and_burning_luck(project, sheet):
    has(sheet, "Bleeding Out", "0-level character at 0 hit points is dead",
        "lose 1 Stamina", "terrible scar")
    levels = [(r["level"], r["time"]) for r in project.tables["bleeding-out"].rows]
    assert levels[0][0] == "0" and levels[1][1].startswith("1") and levels[3] == ("3", "3")
    has(sheet, "Recovering the Body", "within an hour", "Luck check", "1 hit point",
        "−4 to every roll", "−1 to Strength, Agility or Stamina")
    has(sheet, "Burning Luck", "each point burned is +1", "your own rolls",
        "before or after rolling", "once a roll", "does not heal")


def test_fumble_dice_by_armour_and_crit_tables_by_class(project, sheet):
    dice = {r["armour"]: r["die"] for r in project.tables["fumble-dice"].rows}
    assert dice == {"None": "d4", "Light": "d8", "Moderate": "d12", "Heavy": "d16"}
    has(sheet, "Noned4", "Heavyd16", "0-level character", "Thieves and elves")


def test_the_decks_are_here_with_a_credit_line_not_dccs_name_as_a_brand(built, project):
    for product, decks in (("fumble-deck", ["fumbles"]),
                           ("crit-decks", ["crit-1", "crit-2", "crit-3"])):
        text = pdf_squashed(built / f"{product}.pdf")
        for deck_id in decks:
            deck = load_deck(project, deck_id)
            assert card_faces(deck, text, ["number", "name", "effect"]) == []
            assert "Dungeon Crawl Classics" not in (deck.spec.back.subtitle or "")
        assert squash("Adapted from the Dungeon Crawl Classics RPG").lower() in text.lower()
    hammercrawl = Project.load(GAMES.parent / "rules-src")
    assert "crit-1" not in (p.stem for p in (hammercrawl.root / "decks").glob("*.yaml"))
    assert "crit-decks" not in hammercrawl.manifest.products


def test_sheet_and_cards_are_readable_at_arms_length(built):
    assert smaller_than(built / "combat-reference.pdf", 8) == []
    for deck in ("fumble-deck", "crit-decks"):
        assert smaller_than(built / f"{deck}.pdf", 7, ID_OR_NOTE) == [], deck
