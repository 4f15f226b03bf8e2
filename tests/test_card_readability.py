"""No card text below 7 pt: HAMMERCRAWL!'s Event Deck (whose rules card was fitted down to
5.5 pt before it went on three cards) and the hireling deck (whose stat labels were 6.5 pt),
read back from the built PDFs. The games' decks are checked in tests/test_game_*.py."""

from __future__ import annotations

import pytest

from conftest import RULES_SRC
from game_helpers import pdf_squashed, squash
from print_sizes import ID_OR_NOTE, smaller_than
from printshop.builder import build_project


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("cards")
    report = build_project(RULES_SRC, out, ["event-deck", "hirelings"], strict=True)
    assert report.warnings == []
    return out


@pytest.mark.parametrize("name", ["event-deck.pdf", "hirelings.pdf"])
def test_no_card_text_is_smaller_than_7_pt(built, name):
    assert smaller_than(built / name, 7, ID_OR_NOTE) == []


def test_the_event_decks_rules_and_its_die_go_on_cards_of_their_own(built):
    text = pdf_squashed(built / "event-deck.pdf")
    for title in ("Using the Event Deck", "No Deck? The Event Die", "The Event Die, Running"):
        assert squash(title) in text, title
    assert squash("Adapted from the Event Deck of The Red Hack") in text
