"""Rolled hirelings: every number matches the tier table, tiers come up as often as their
chance of finding says, and a seed always gives the same hirelings."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from conftest import RULES_SRC, run_cli
from printshop.project import Project
from printshop.roll.hirelings import hireling_tables, roll_hireling, roll_hirelings
from printshop.source.decks import load_deck


@pytest.fixture(scope="module")
def tables():
    project = Project.load(RULES_SRC)
    deck = load_deck(project, "hirelings")
    return hireling_tables(project.tables, deck.spec.hirelings, deck.path)


@pytest.fixture(scope="module")
def tier_rows():
    table = Project.load(RULES_SRC).tables["hireling-tiers"]
    return {row["tier"]: row for row in table.rows}


def test_cost_expertise_and_hit_dice_match_the_tier_on_1000_rolls(tables, tier_rows):
    professions = {r["profession"]: r for r in tables.professions.rows}
    quirks = {r["quirk"] for r in tables.quirks.rows}
    seen_tiers = set()
    for hireling in roll_hirelings(tables, "audit", 1000):
        row = tier_rows[hireling.tier]
        seen_tiers.add(hireling.tier)
        assert hireling.daily_cost == row["cost"]
        assert hireling.expertise == row["expertise"] == hireling.tier
        assert hireling.standing == row["description"]
        assert hireling.hit_dice == hireling.tier
        if hireling.tier == 0:
            assert hireling.hit_points_roll == "1d4" and 1 <= hireling.hit_points <= 4
        else:
            assert hireling.hit_points_roll == f"{hireling.tier}d6"
            assert hireling.tier <= hireling.hit_points <= 6 * hireling.tier
        assert hireling.good_at == professions[hireling.profession]["good_at"]
        assert hireling.will_not == professions[hireling.profession]["will_not"]
        assert hireling.quirk in quirks
        assert "Rally save" in hireling.morale
    assert {0, 1, 2} <= seen_tiers


@pytest.mark.parametrize("tier", [0, 1, 2, 3, 4, 5])
def test_a_forced_tier_gives_only_that_tier(tables, tier_rows, tier):
    for hireling in roll_hirelings(tables, "guild", 200, tier=tier):
        assert hireling.tier == tier
        assert hireling.daily_cost == tier_rows[tier]["cost"]
        assert hireling.expertise == tier_rows[tier]["expertise"]
        assert hireling.id.startswith(f"SEED guild T{tier} #")


def chance_of_finding(tier_rows) -> dict[int, float]:
    """What share of a town's hirelings each tier is, read from the guide's table: each tier
    that is not certain comes up with its own Chance of Finding (1 in 10 …), and the certain
    one (Tier 0, "100 in 100") makes up the rest."""
    chances = {t: row["chance_in"] / row["chance_of"] for t, row in tier_rows.items()}
    certain = [t for t, c in chances.items() if c == 1]
    assert certain == [0]
    chances[0] = 1 - sum(c for t, c in chances.items() if t != 0)
    return chances


def test_tiers_come_up_as_often_as_their_chance_of_finding(tables, tier_rows):
    """40,000 hirelings from fixed seeds (so this can never flake): each tier's count is
    within 4.5 standard deviations of what its chance of finding predicts."""
    expected_share = chance_of_finding(tier_rows)
    assert expected_share[1] == 0.1 and expected_share[5] == 0.0001
    n = 0
    counts: Counter = Counter()
    for seed in ("market", "docks", "temple", "gate"):
        rolled = roll_hirelings(tables, seed, 10_000)
        counts.update(h.tier for h in rolled)
        n += len(rolled)
    for tier, p in expected_share.items():
        expected = n * p
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(counts[tier] - expected) <= max(4.5 * sigma, 2), (tier, counts, expected)
    # the common tiers really are common and the legends really are rare
    assert counts[0] > 30_000 and counts[1] > 3_000 and counts[5] < 20


def test_a_towns_hireling_deck_is_dealt_by_the_chance_of_finding(tables, tier_rows):
    """The shipped hireling deck is one town's hirelings dealt by the odds (not a fixed mix
    with a Tier 5 in every town), and over 3,000 towns of that size the tiers come up as
    the Chance of Finding says: a Tier 1 is 1 in 10 of the folk met, a Tier 4 turns up in
    about 1 town in 37, a Tier 5 in about 1 in 370."""
    from printshop.products.cards.hirelings import hireling_cards
    from printshop.roll.hirelings import hireling_tier

    project = Project.load(RULES_SRC)
    entry = project.manifest.products["hirelings"]
    size, seed = int(entry["count"]), entry["seed"]
    assert "per_tier" not in entry and size >= 20
    deck = load_deck(project, "hirelings")
    dealt = [c.data["tier"] for c in hireling_cards(deck, tables, seed, count=size)
             if c.data["kind"] == "hireling"]
    assert dealt == [hireling_tier(tables, seed, i) for i in range(1, size + 1)]
    towns = [[hireling_tier(tables, f"town-{t}", i) for i in range(1, size + 1)]
             for t in range(3_000)]
    counts = Counter(tier for town in towns for tier in town)
    n = size * len(towns)
    for tier, p in chance_of_finding(tier_rows).items():
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(counts[tier] - n * p) <= max(4.5 * sigma, 3), (tier, counts, n * p)
    for tier, p in ((4, 0.001), (5, 0.0001)):
        with_one = sum(tier in town for town in towns)
        p_town = 1 - (1 - p) ** size
        sigma = math.sqrt(len(towns) * p_town * (1 - p_town))
        assert abs(with_one - len(towns) * p_town) <= max(4.5 * sigma, 3), (tier, with_one)
    rules = " ".join(c.data["text"] for c in deck.cards if c.data["kind"] == "rules")
    assert "Chance of Finding" in rules and "top card" in rules


def test_the_same_seed_gives_the_same_hirelings_whatever_the_count(tables):
    ten = roll_hirelings(tables, "inn", 10)
    three = roll_hirelings(tables, "inn", 3)
    assert ten[:3] == three
    assert roll_hireling(tables, "inn", 7) == ten[6]
    assert roll_hirelings(tables, "inn", 10) == ten
    assert roll_hirelings(tables, "tavern", 10) != ten
    assert [h.id for h in three] == ["SEED inn #1", "SEED inn #2", "SEED inn #3"]


def test_roll_hirelings_json_is_reproducible(tmp_path):
    out = tmp_path / "pack.json"
    result = run_cli("roll", "hirelings", "--count", "5", "--seed", "inn", "--format", "json",
                     "--out", out, "--source", RULES_SRC)
    assert result.exit_code == 0, result.output
    first = json.loads(out.read_text())
    assert len(first) == 5 and first[0]["id"] == "SEED inn #1"
    assert {"name", "profession", "good_at", "will_not", "tier", "daily_cost", "expertise",
            "hit_dice", "hit_points", "quirk", "morale"} <= set(first[0])
    again = tmp_path / "again.json"
    run_cli("roll", "hirelings", "--count", "8", "--seed", "inn", "--format", "json",
            "--out", again, "--source", RULES_SRC)
    assert json.loads(again.read_text())[:5] == first


def test_roll_hirelings_refuses_a_tier_that_does_not_exist(tmp_path):
    out = tmp_path / "x.pdf"
    result = run_cli("roll", "hirelings", "--tier", "9", "--seed", "inn", "--out", out,
                     "--source", RULES_SRC)
    assert result.exit_code == 2
    assert "--tier: error: no tier 9" in result.output and "0, 1, 2, 3, 4, 5" in result.output
    assert not out.exists()


def test_a_bad_seed_is_refused():
    result = run_cli("roll", "hirelings", "--seed", "../x", "--format", "json", "--out", "-",
                     "--source", RULES_SRC)
    assert result.exit_code == 2 and "--seed" in result.output


def test_first_and_count_1_reprint_one_card(tables):
    """The card `SEED brightwater T2 #3` alone: --tier 2 --first 3 --count 1."""
    result = run_cli("roll", "hirelings", "--seed", "brightwater", "--tier", "2", "--first", "3",
                     "--count", "1", "--format", "json", "--out", "-", "--source", RULES_SRC)
    assert result.exit_code == 0, result.output
    card, = json.loads(result.stdout)
    assert card["id"] == "SEED brightwater T2 #3"
    assert card == roll_hirelings(tables, "brightwater", 3, tier=2)[2].as_data()
