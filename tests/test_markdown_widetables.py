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


def test_an_empty_header_row_is_left_out_and_a_real_one_kept():
    from printshop.source.markdown.parser import build_parser

    md = build_parser()
    # Cairn's roll tables: no header of their own, the column names bold in the first row
    empty = md.render("|  |  |\n|--|--|\n| **d20** | **Physique** |\n| 1 | Albino |\n")
    assert "<thead>" not in empty and "<th>" not in empty
    assert "<td><strong>d20</strong></td>" in empty and "<td>Albino</td>" in empty
    named = md.render("| d20 | Physique |\n|--|--|\n| 1 | Albino |\n")
    assert "<thead>" in named and "<th>Physique</th>" in named
    half = md.render("| d20 |  |\n|--|--|\n| 1 | Albino |\n")   # one name is a header
    assert "<th>d20</th>" in half
