import pytest

from printshop.dice import item_rng, parse_dice


@pytest.mark.parametrize("text, outcomes", [
    ("d4", (1, 4)), ("1d4", (1, 4)), ("3d6", (3, 18)), ("2d4-1", (1, 7)), ("1d6+1", (2, 7)),
    ("d100", (1, 100)), ("d%", (1, 100)),
])
def test_outcome_ranges(text, outcomes):
    values = parse_dice(text).outcomes()
    assert (values[0], values[-1]) == outcomes
    assert values == list(range(outcomes[0], outcomes[1] + 1))


def test_d66_reads_tens_and_units():
    values = parse_dice("d66").outcomes()
    assert len(values) == 36 and 11 in values and 66 in values and 17 not in values


@pytest.mark.parametrize("bad", ["", "d", "3x6", "0d6", "1d1", "101d6", "d6+", "banana"])
def test_bad_notation_says_what_is_wrong(bad):
    with pytest.raises(ValueError):
        parse_dice(bad)


def test_rolls_stay_within_outcomes_and_show_faces():
    rng = item_rng("seed", "test", 0)
    dice = parse_dice("3d6")
    for _ in range(500):
        roll = dice.roll(rng)
        assert len(roll.faces) == 3 and all(1 <= f <= 6 for f in roll.faces)
        assert roll.total == sum(roll.faces)


def test_item_generators_are_independent_of_each_other():
    first = [item_rng("con-2026", "character", i).random() for i in range(5)]
    again = [item_rng("con-2026", "character", i).random() for i in range(5)]
    assert first == again
    assert len(set(first)) == 5
    assert item_rng("con-2026", "hireling", 0).random() != first[0]
    assert item_rng("con-2027", "character", 0).random() != first[0]
