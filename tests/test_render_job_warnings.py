"""What a render job's WeasyPrint warnings become (render/job_warnings.py)."""

from printshop.render.job_warnings import empty_boxes_script, summarise_notdef

NOTDEF = '.notdef glyph rendered for Unicode string unsupported by fonts: "{}" (U+{:04X})'


def test_a_flood_of_empty_boxes_is_one_line_a_script_with_the_way_to_a_font():
    messages = [NOTDEF.format(c, ord(c)) for c in "日本語日本🐉"] + ["something else"]
    kept, problems = summarise_notdef("templates/sheet.html.j2", messages)
    assert kept == ["something else"]
    cjk, emoji = (p.message for p in problems)
    assert cjk.startswith("3 different CJK characters printed as empty boxes")
    assert "install fonts-noto-cjk" in cjk and "add a CJK font to fonts/" in cjk
    assert emoji.startswith("1 different Emoji character printed as empty boxes")
    assert "add an Emoji font to fonts/" in emoji
    # (what a product that said it before rendering, at its line, leaves out)
    assert [empty_boxes_script(p.message) for p in problems] == ["CJK", "Emoji"]
    assert empty_boxes_script("something else") is None
