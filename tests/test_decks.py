"""Decks as data: dealing, counts, and the messages a deck file's mistakes get."""

from __future__ import annotations

import itertools
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from conftest import RULES_SRC, SMALL_DECK
from printshop.errors import PrintshopError
from printshop.project import Project
from printshop.source.decks import RANKS, SUITS, load_deck, parse_ranks


@pytest.fixture(scope="module")
def project() -> Project:
    return Project.load(RULES_SRC)


@pytest.fixture(scope="module")
def dcc() -> Project:
    """games/dcc: the Dungeon Crawl Classics fumble and crit decks live there."""
    return Project.load(RULES_SRC.parent / "games" / "dcc")


def test_the_event_deck_is_the_52_playing_cards_plus_rules_cards(project):
    deck = load_deck(project, "event")
    playing = [c for c in deck.cards if c.data["kind"] == "playing-card"]
    rules = [c for c in deck.cards if c.data["kind"] == "rules"]
    assert len(playing) == 52 and len(rules) == 3
    assert sorted((c.data["suit"], c.data["rank"]) for c in playing) == sorted(
        itertools.product(SUITS, RANKS))
    assert [c.id for c in deck.cards] == [f"EV-{n:02d}" for n in range(1, 56)]


def test_event_results_follow_the_suits_and_ranks_and_the_guides_event_die(project):
    deck = load_deck(project, "event")
    die = project.tables["event-die"]
    result = {(c.data["suit"], c.data["rank"]): c.data["fields"] for c in deck.cards
              if c.data["kind"] == "playing-card"}
    # the suits of The Red Hack's Event Deck, read through the guide's Event Die
    expected = {"hearts": ("Weariness", "Exhausted!"), "diamonds": ("Clock", "Alert!"),
                "clubs": ("Spoor", "Lost!"), "spades": ("Encounter", "Encounter!")}
    for suit, (name, running) in expected.items():
        for rank in ("A", "2", "3", "4", "5", "6", "7", "8"):
            assert result[(suit, rank)]["event"] == name
            assert running in result[(suit, rank)]["running"]
            row = next(r for r in die.rows if r["event"] == name)
            assert result[(suit, rank)]["effect"] == row["effect"]
    for suit in SUITS:
        assert result[(suit, "9")]["event"] == result[(suit, "10")]["event"] == "Light"
        assert "Dropped" in result[(suit, "10")]["running"]
        assert result[(suit, "J")]["event"] == result[(suit, "Q")]["event"] == "Magic fades"
        assert "Trip!" in result[(suit, "Q")]["running"]
        assert result[(suit, "K")]["event"] == "Reshuffle"


def test_changing_the_guides_event_die_changes_the_deck(project_copy):
    from printshop.project import Project

    path = project_copy / "tables" / "event-die.yaml"
    path.write_text(path.read_text().replace("Lights gutter", "Lights sputter"))
    deck = load_deck(Project.load(project_copy), "event")
    light = next(c for c in deck.cards if c.data.get("rank") == "9")
    assert light.data["fields"]["effect"].startswith("Lights sputter")


def test_the_event_rules_cards_carry_the_event_die(project):
    rules = [c.data for c in load_deck(project, "event").cards if c.data["kind"] == "rules"]
    text = "\n".join(r["text"] for r in rules)
    assert "every 2 turns" in text and "Running" in text
    assert "The Red Hack" in text  # labelled as adapted
    die = project.tables["event-die"]
    tables = [r["table"] for r in rules if r["table"]]
    assert len(tables) == 2  # the die's two result columns, one card each
    for table in tables:
        assert table["dice"] == "1d6" and len(table["rows"]) == 6
        assert table["title"] == "The Event Die"  # the guide's own table
        assert [r["cells"][0] for r in table["rows"]] == [r["event"] for r in die.rows]
    assert [r["cells"][1] for r in tables[0]["rows"]] == [r["effect"] for r in die.rows]
    assert [r["cells"][1] for r in tables[1]["rows"]] == [r["running"] for r in die.rows]


def test_the_encounter_deck_is_one_card_per_way_two_dice_fall(project):
    deck = load_deck(project, "encounter")
    dice_cards = [c for c in deck.cards if c.data["kind"] == "dice"]
    assert len(dice_cards) == 36
    totals = Counter(c.data["total"] for c in dice_cards)
    assert totals == Counter(a + b for a in range(1, 7) for b in range(1, 7))
    tables = {t.id: t for t in deck.tables}
    for card in dice_cards:
        total = card.data["total"]
        awareness, reaction = card.data["sections"]
        assert awareness["fields"] == tables["encounter-awareness"].row_for(total).values
        assert reaction["fields"] == tables["encounter-reactions"].row_for(total).values
    ambush = next(c for c in dice_cards if c.data["total"] == 2)
    assert "Ambush" in ambush.data["sections"][0]["fields"]["result"]
    assert ambush.data["sections"][1]["fields"]["attitude"] == "Hostile"


@pytest.mark.parametrize("deck_id, rows", [("fumbles", 17), ("crit-1", 7), ("crit-2", 13),
                                           ("crit-3", 15)])
def test_table_decks_have_one_card_per_row_with_its_roll(dcc, deck_id, rows):
    deck = load_deck(dcc, deck_id)
    row_cards = [c for c in deck.cards if c.data["kind"] == "row"]
    assert len(row_cards) == rows == len(deck.tables[0].rows)
    numbers = [c.data["fields"]["number"] for c in row_cards]
    assert numbers[0] == "0 or less" and numbers[-1] == f"{rows - 1} or more"
    assert numbers[1:-1] == [str(n) for n in range(1, rows - 1)]
    assert all(c.data["fields"]["effect"] for c in row_cards)
    assert len({c.id for c in deck.cards}) == len(deck.cards)


def test_fumble_cards_say_which_fumble_dice_reach_them(dcc):
    fields = {c.data["fields"]["number"]: c.data["fields"]["dice"]
              for c in load_deck(dcc, "fumbles").cards if c.data["kind"] == "row"}
    assert "d4" in fields["4"] and "d4" not in fields["5"]
    assert "d8" in fields["8"] and "d8" not in fields["9"]
    assert "d12" in fields["12"] and "d12" not in fields["13"]
    assert "Luck" in fields["0 or less"]


def test_each_deck_has_its_own_back(project, dcc):
    backs = set()
    decks = [(project, d) for d in ("event", "encounter", "fumbles", "hirelings")]
    decks += [(dcc, d) for d in ("fumbles", "crit-1", "crit-2", "crit-3")]
    for where, deck_id in decks:
        spec = load_deck(where, deck_id).spec
        backs.add((spec.colour, spec.back.title, spec.back.emblem, spec.back.subtitle))
    assert len(backs) == 8


def test_hammercrawls_fumble_deck_is_its_own_fumble_mishaps(project):
    """HAMMERCRAWL!'s kit keeps only decks its own rules use: the fumble deck is the guide's
    Fumble Mishaps table, a card a result (six cards: a draw is a d6)."""
    deck = load_deck(project, "fumbles")
    table = project.tables["fumble-mishaps"]
    rows = [c.data["fields"] for c in deck.cards if c.data["kind"] == "row"]
    assert rows == [dict(r.values) for r in table.rows] and len(rows) == 6
    text = " ".join(str(v) for r in rows for v in r.values())
    for dcc_only in ("Reflex", "Agility", "Luck", "DC "):
        assert dcc_only not in text


def test_decks_drawn_from_dcc_credit_it_instead_of_wearing_its_name(dcc):
    for deck_id in ("fumbles", "crit-1", "crit-2", "crit-3"):
        spec = load_deck(dcc, deck_id).spec
        assert spec.credit.startswith("Adapted from the Dungeon Crawl Classics")
        assert "crawl classics" not in (spec.back.subtitle or "").lower()
        assert "crawl classics" not in spec.back.title.lower()


def test_ranks():
    assert parse_ranks("A-8") == ["A", "2", "3", "4", "5", "6", "7", "8"]
    assert parse_ranks("1-8") == parse_ranks("A-8")
    assert parse_ranks("J-Q") == ["J", "Q"]
    assert parse_ranks("K") == ["K"]
    with pytest.raises(ValueError):
        parse_ranks("Q-J")
    with pytest.raises(ValueError):
        parse_ranks("11")


# --- mistakes ------------------------------------------------------------------------------

def write_deck(project_dir: Path, name: str, text: str) -> Path:
    path = project_dir / "decks" / f"{name}.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


GOOD = SMALL_DECK


def problem_of(project_dir: Path, deck: str) -> str:
    with pytest.raises(PrintshopError) as caught:
        load_deck(Project.load(project_dir), deck)
    return "\n".join(str(p) for p in caught.value.problems)


def test_a_good_small_deck_loads(project_copy):
    write_deck(project_copy, "test", GOOD)
    deck = load_deck(Project.load(project_copy), "test")
    assert [c.id for c in deck.cards] == ["TD-01", "TD-02"]
    assert deck.cards[1].line == 12 and deck.cards[1].path.name == "test.yaml"


def test_a_missing_field_names_the_file_and_line(project_copy):
    write_deck(project_copy, "test", GOOD.replace('code: TD\n', ''))
    message = problem_of(project_copy, "test")
    assert "test.yaml:1" in message and "code: missing" in message


def test_a_row_missing_a_column_names_its_line(project_copy):
    write_deck(project_copy, "test", GOOD.replace(
        "{name: Second Card, effect: The second card's text.}", "{name: Second Card}"))
    message = problem_of(project_copy, "test")
    assert "test.yaml:12" in message and "missing column 'effect'" in message


def test_an_unknown_card_size_is_named(project_copy):
    write_deck(project_copy, "test", GOOD.replace("code: TD\n", "code: TD\nsize: pokr\n"))
    message = problem_of(project_copy, "test")
    assert "test.yaml:3" in message and "unknown card size 'pokr'" in message
    assert "did you mean 'poker'" in message


def test_a_project_adds_its_own_card_size(project_copy):
    (project_copy / "card-sizes.yaml").write_text(textwrap.dedent("""\
        title: Our card sizes
        columns:
          - {key: id, label: Size}
          - {key: name, label: Name}
          - {key: width, label: Width, type: number}
          - {key: height, label: Height, type: number}
        rows:
          - {id: square, name: Square, width: 70, height: 70}
        """))
    write_deck(project_copy, "test", GOOD.replace("code: TD\n", "code: TD\nsize: square\n"))
    deck = load_deck(Project.load(project_copy), "test")
    assert (deck.size.width, deck.size.height) == (70, 70)


@pytest.mark.parametrize("template", ["../../../etc/passwd", "/etc/passwd",
                                      "cards/../../../x.j2"])
def test_a_template_outside_the_project_is_refused(project_copy, template):
    write_deck(project_copy, "test", GOOD.replace("code: TD\n",
                                                  f"code: TD\ntemplate: {template}\n"))
    message = problem_of(project_copy, "test")
    assert "test.yaml:3" in message and "outside the project" in message


def test_a_missing_template_is_named(project_copy):
    write_deck(project_copy, "test", GOOD.replace("code: TD\n",
                                                  "code: TD\ntemplate: cards/nope.html.j2\n"))
    message = problem_of(project_copy, "test")
    assert "test.yaml:3" in message and "not found" in message


def test_a_face_slot_naming_no_column_is_caught(project_copy):
    write_deck(project_copy, "test", GOOD.replace("text: [effect]", "text: [efect]"))
    message = problem_of(project_copy, "test")
    assert "test.yaml:6" in message and "did you mean 'effect'" in message


def test_every_unknown_column_of_a_rules_card_is_named(project_copy):
    # two were an internal error (the second looked up the table the first had dropped)
    path = project_copy / "decks" / "hirelings.yaml"
    path.write_text(path.read_text().replace("columns: [tier, chance, description]",
                                             "columns: [tier, chanse, descripton]"))
    message = problem_of(project_copy, "hirelings")
    assert "rules_cards[0].columns: no column 'chanse' in 'hireling-tiers'" in message
    assert "rules_cards[0].columns: no column 'descripton' in 'hireling-tiers'" in message
    assert "(columns: tier, " in message


def test_playing_cards_must_all_be_dealt_exactly_once(project_copy):
    text = (RULES_SRC / "decks" / "event.yaml").read_text()
    write_deck(project_copy, "gap", text.replace("ranks: A-8,", "ranks: A-7,", 1))
    assert "no row deals 8 of hearts" in problem_of(project_copy, "gap")
    write_deck(project_copy, "twice", text.replace("ranks: 9-10", "ranks: 8-10", 1))
    write_deck(project_copy, "nodie", text.replace("die: 4}", "die: 9}", 1))
    assert "die: 9 is not a result of 1d6 on 'event-die'" in problem_of(project_copy, "nodie")
    message = problem_of(project_copy, "twice")
    assert "already dealt by the row on line" in message and "twice.yaml:" in message


def test_a_deck_table_file_must_be_inside_decks(project_copy):
    (project_copy / "decks" / "tables").mkdir(exist_ok=True)
    (project_copy / "decks" / "tables" / "mine.yaml").write_text(textwrap.dedent("""\
        title: Mine
        columns:
          - {key: name, label: Name}
        rows:
          - {name: Alpha}
          - {name: Beta}
          - {name: Gamma}
        """))
    base = GOOD.split("columns:")[0].replace("text: [effect]", "text: []")
    write_deck(project_copy, "fromfile", base + "table: tables/mine.yaml\n")
    deck = load_deck(Project.load(project_copy), "fromfile")
    assert [c.data["fields"]["name"] for c in deck.cards] == ["Alpha", "Beta", "Gamma"]
    write_deck(project_copy, "escape", base + "table: ../tables/armour.yaml\n")
    assert "outside the project" in problem_of(project_copy, "escape")


def test_a_guide_table_becomes_a_deck_by_id(project_copy):
    base = GOOD.split("columns:")[0].replace("face: {title: name, text: [effect]}",
                                             "face: {title: mishap}")
    write_deck(project_copy, "mishaps", base + "tables: [fumble-mishaps]\n")
    deck = load_deck(Project.load(project_copy), "mishaps")
    assert len(deck.cards) == len(Project.load(project_copy).tables["fumble-mishaps"].rows)
    write_deck(project_copy, "typo", base + "tables: [fumble-mishap]\n")
    assert "did you mean 'fumble-mishaps'" in problem_of(project_copy, "typo")


def test_an_unknown_deck_is_named_with_the_known_ones(project):
    with pytest.raises(PrintshopError, match="no deck 'evnt'.*did you mean 'event'"):
        load_deck(project, "evnt")


@pytest.mark.parametrize("change,expected", [
    (lambda text: text.split("rows:\n")[0] + "rows: []\n",
     "test.yaml:10:7: rows: must not be empty"),
    (lambda text: text.split("rows:\n")[0], "test.yaml:1: a deck needs its cards' data"),
    (lambda text: "", "test.yaml:1: file is empty"),
])
def test_an_empty_deck_is_a_clear_error(project_copy, change, expected):
    write_deck(project_copy, "test", change(GOOD))
    message = problem_of(project_copy, "test")
    assert expected in message and "Error" not in message
