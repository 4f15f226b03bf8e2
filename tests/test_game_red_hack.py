"""games/red-hack: The Red Hack's reference sheets, its Event Deck, the playing-card encounter
deck and A8 item cards. Each fact the seed gives is checked on paper (the PDFs' text), the
sheets at 8 pt or more and the cards at 7 pt or more."""

from __future__ import annotations

import itertools
import re

import pytest

from game_helpers import GAMES, build_game, card_faces, pdf_squashed, squash, unprinted_cells
from print_sizes import ID_OR_NOTE, smaller_than
from printshop.project import Project
from printshop.source.decks import RANKS, SUITS, load_deck


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_game("red-hack", tmp_path_factory.mktemp("red-hack"))


@pytest.fixture(scope="module")
def project() -> Project:
    return Project.load(GAMES / "red-hack")


@pytest.fixture(scope="module")
def sheets(built) -> str:
    return pdf_squashed(built / "reference.pdf")


def has(text: str, *phrases: str) -> None:
    for phrase in phrases:
        assert squash(phrase).lower() in text.lower(), phrase


def test_builds_every_product(built):
    assert {p.name for p in built.iterdir() if p.suffix == ".pdf"} == {
        "reference.pdf", "event-deck.pdf", "encounter-deck.pdf", "item-cards.pdf",
        # rolled retainers (recipes/retainers.yaml; tests/test_games_sheets.py)
        "retainer-cards.pdf", "retainer-sheets.pdf", "con-kit.pdf",
        "blank-sheet-letter.pdf", "blank-sheet-a4.pdf"}


def test_every_value_of_every_table_on_the_sheets_is_printed(project, sheets):
    assert unprinted_cells(project, ["player-reference", "referee-reference"], sheets) == []


def test_usage_dice_and_their_average_uses(project, sheets):
    uses = {r["die"]: r["uses"] for r in project.tables["usage-dice"].rows}
    assert uses == {"ud4": 2, "ud6": 5, "ud8": 9, "ud10": 14, "ud12": 20, "ud20": 30}
    for die, n in uses.items():
        has(sheets, f"{die}{n}")          # one row: the die, then its uses
    has(sheets, "On 1–2 it steps down")


def test_chaser_dice_by_weapon_bonus(project, sheets):
    dice = {r["bonus"]: r["die"] for r in project.tables["chaser-dice"].rows}
    assert dice == {"+1": "d12", "+2": "d10", "+3": "d8", "+4": "d6", "+5": "d4"}
    for bonus, die in dice.items():
        has(sheets, f"{bonus}{die}")


def test_light_levels_and_the_dark_fighting_penalty(sheets):
    has(sheets, "Dazzling", "Bright", "Normal", "Dim", "Dark")
    has(sheets, "−2 for each step of light beyond it", "Penalties on both sides cancel")
    has(sheets, "HumansBright, Normal−4", "Normal, Dim−2")


def test_movement_rates_base_and_max(project, sheets):
    rates = [r["rate"] for r in project.tables["movement-rates"].rows]
    assert rates == ["0/1", "1/1", "1/2", "1/3", "1/4", "2/4", "2/5", "3/5", "4/8"]
    has(sheets, "1/3Human, bear, war horse120'", "4/8Air elemental, griffon360'")


def test_monster_reactions_by_hit_dice(project, sheets):
    rows = [(r["hd"], r["chance"]) for r in project.tables["monster-reactions"].rows]
    assert rows == [("0–1", "1 in 6"), ("2–3", "2 in 6"), ("4–6", "3 in 6"),
                    ("7–9", "4 in 6"), ("10–13", "5 in 6"), ("14+", "6 in 6")]
    for hd, chance in rows:
        has(sheets, f"{hd}{chance}")


def test_morale_ratings_and_the_2d6_test(project, sheets):
    ratings = {r["rating"]: r["morale"] for r in project.tables["morale-ratings"].rows}
    assert ratings["Prey animal"] == 2 and ratings["Mindless"] == 12
    assert list(ratings.values()) == [2, 5, 6, 7, 8, 9, 10, 12]
    has(sheets, "Prey animal2", "Mindless12", "2d6", "second test is at −1",
        "up to twice")


def test_the_downed_character_table_and_burdens_from_harm(project, sheets):
    results = [re.sub(r"\*", "", r["result"]) for r in project.tables["downed-character"].rows]
    assert results == ["Winded", "Wounded", "Injured", "Festering", "Maimed", "Doomed"]
    has(sheets, "1–3Winded", "10+Maimed", "All of itDoomed")
    has(sheets, "Burdens from Harm", "Wound", "Injury", "Infection", "4d8")


def test_retainer_slots_by_relationship_and_retainer_morale(project, sheets):
    slots = {r["relationship"]: r["slots"] for r in project.tables["retainer-slots"].rows}
    assert slots == {"Close": 1, "Friend": 2, "Associate": 3, "Acquaintance": 4,
                     "Stranger": 5}
    has(sheets, "slots equal to your CHA", "Close1", "Stranger5")
    has(sheets, "test your CHA against the slots the retainer takes")


def test_the_encounter_draw_with_playing_cards(sheets):
    has(sheets, "J12", "Q14", "K16", "A18", "depend on CHA")
    has(sheets, "A or Q ♠", "Ambush", "A or Q ♦", "Hear them coming")
    has(sheets, "A or Q ♣", "Hostile", "A or Q ♥", "Friendly", "reshuffle after the encounter")


def test_the_event_deck_is_the_red_hacks_own_with_its_card_number_rule(built, project):
    deck = load_deck(project, "event")
    cards = {(c.data["suit"], c.data["rank"]): c.data["fields"] for c in deck.cards
             if c.data["kind"] == "playing-card"}
    assert sorted(cards) == sorted(itertools.product(SUITS, RANKS))
    expected = {"hearts": ("Exhaustion", "Exhausted!"), "diamonds": ("Timer or Event", "Alert!"),
                "clubs": ("Spoor", "Lost!"), "spades": ("Encounter", "Encounter!")}
    for (suit, rank), fields in cards.items():
        if rank in RANKS[:8]:
            result, running = expected[suit]
        else:
            result, running = {"9": ("Light", "Dropped torch!"),
                               "10": ("Light", "Dropped torch!"),
                               "J": ("Magic Expires", "Trip!"), "Q": ("Magic Expires", "Trip!"),
                               "K": ("Reshuffle", "Reshuffle!")}[rank]
        assert fields["result"] == result and running in fields["running"], (suit, rank)
    assert "card's number" in cards[("spades", "5")]["event"]
    assert "next black 1–8" in cards[("clubs", "3")]["event"]
    text = pdf_squashed(built / "event-deck.pdf")
    assert card_faces(deck, text, ["result", "event", "running"]) == []
    has(text, "The card's number", "an ace counts 1", "next black 1–8 drawn brings the creature",
        "Running Heedlessly", "Trap and encounter rolls are at −3", "The Red Hack")


def test_hammercrawls_event_deck_stays_labelled_as_adapted():
    hammercrawl = Project.load(GAMES.parent / "rules-src")
    deck = load_deck(hammercrawl, "event")
    assert "The Red Hack" in deck.spec.credit and "Adapted" in deck.spec.credit


def test_the_encounter_deck_deals_who_sees_whom_attitude_and_value_by_card(built, project):
    deck = load_deck(project, "encounter")
    cards = {(c.data["suit"], c.data["rank"]): c.data["fields"] for c in deck.cards
             if c.data["kind"] == "playing-card"}
    assert len(cards) == 52
    assert cards[("spades", "A")]["sees"] == cards[("spades", "Q")]["sees"] == "Ambush!"
    assert cards[("spades", "7")]["sees"] == "Seen First"
    assert cards[("diamonds", "Q")]["sees"] == "Hear Them Coming"
    assert cards[("diamonds", "4")]["sees"] == "See Them First"
    assert {cards[(s, "5")]["sees"] for s in ("clubs", "hearts")} == {"Normal"}
    assert cards[("clubs", "A")]["attitude"] == "Hostile"
    assert cards[("clubs", "9")]["attitude"] == "Unfriendly"
    assert cards[("hearts", "Q")]["attitude"] == "Friendly"
    assert cards[("hearts", "2")]["attitude"] == "Reasonable"
    assert {cards[(s, "6")]["attitude"] for s in ("spades", "diamonds")} == {"Wary"}
    values = {rank: cards[("hearts", rank)]["value"] for rank in ("J", "Q", "K", "A")}
    assert values == {"J": "12", "Q": "14", "K": "16", "A": "18"}
    assert all("Reshuffle" in cards[(s, "K")]["reshuffle"] for s in SUITS)
    text = pdf_squashed(built / "encounter-deck.pdf")
    assert card_faces(deck, text, ["sees", "sees_rule", "attitude", "value"]) == []
    has(text, "Who sees whom", "Attitude", "Against an attribute", "Cards Against an Attribute")


def test_item_cards_are_a8_with_an_equipment_deck_and_blanks(built, project):
    items, blanks = load_deck(project, "items"), load_deck(project, "item-blanks")
    assert (items.size.width, items.size.height) == (52, 74) == \
        (blanks.size.width, blanks.size.height)
    text = pdf_squashed(built / "item-cards.pdf")
    assert card_faces(items, text, ["name", "rule"]) == []
    has(text, "Usage", "ud4", "ud20", "NAME")
    assert len([c for c in blanks.cards if c.data["kind"] == "row"]) == 10
    starts = {c.data["fields"]["name"]: c.data["fields"].get("usage") for c in items.cards
              if c.data["kind"] == "row"}
    assert starts["Arrows"] == "ud8" and starts["Wand"] == "ud10" and starts["Staff"] == "ud12"


def test_sheets_and_cards_are_readable_at_arms_length(built):
    assert smaller_than(built / "reference.pdf", 8) == []
    for deck in ("event-deck", "encounter-deck", "item-cards", "retainer-cards"):
        assert smaller_than(built / f"{deck}.pdf", 7, ID_OR_NOTE) == [], deck
