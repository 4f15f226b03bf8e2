from printshop.source.markdown.widetables import classify


def test_a_narrow_table_stays_in_its_column():
    assert classify([["Roll", "Result"], ["1", "A rat"], ["2", "Two rats"]]) == []


def test_many_columns_span_the_page_and_shrink_to_a_floor_then_wrap():
    row = ["Level", "XP", "Hit Dice", "Attack", "Death", "Wands", "Paralysis", "Breath",
           "Spells", "Title", "Spell slots", "Special abilities gained at this level"]
    assert classify([row, [str(n) for n in range(12)]])[:1] == ["wide"]
    huge = [[f"a very long cell text number {n} that goes on" for n in range(12)]]
    classes = classify(huge)
    assert classes[0] == "wide" and "size-4" in classes and "wrap-cells" in classes


def test_long_text_in_few_columns_spans_without_shrinking():
    classes = classify([["Name", "Description " * 6, "Notes " * 6]])
    assert classes == ["wide"]
