"""Icons: the bundled set and its credits, `:icon[NAME]` in fields and chapters, a project's
own icons and emblems, unknown names with the available ones and a did-you-mean; fields'
HTML, links and pictures rendered or warned about where they come from."""

from __future__ import annotations

import pytest

from printshop.errors import PrintshopError, Problem
from printshop.products import markup
from printshop.products.markup import FieldMarkup
from printshop.resources import TEMPLATES_DIR
from printshop.source.credits import credit_for
from printshop.source.icons import BUNDLED, IconSet, UnknownIcon


def test_every_bundled_icon_has_an_author_and_a_licence():
    svgs = [p for folder in BUNDLED for p in folder.glob("*.svg")]
    assert len(svgs) >= 40
    for path in svgs:
        credit = credit_for(path, path.name)
        assert credit.complete, path
        assert "currentColor" in path.read_text(), path   # drawn in the colour asked for
    assert credit_for(TEMPLATES_DIR / "icons" / "game-icons" / "torch.svg", "torch") \
        .line() == "Torch: Delapouite, CC BY 3.0 (game-icons.net)"


def test_an_unknown_icon_lists_the_known_ones_with_a_did_you_mean(tmp_path):
    icons = IconSet(tmp_path)
    with pytest.raises(UnknownIcon) as info:
        icons.find("skul")
    message = str(info.value)
    assert message.startswith("no icon 'skul' (did you mean ")
    assert "add icons/skul.svg to the project" in message and "crossed-swords" in message


def test_a_project_icon_comes_before_a_bundled_one(tmp_path):
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "torch.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    icon = IconSet(tmp_path).find("torch")
    assert icon.path == tmp_path / "icons" / "torch.svg" and not icon.bundled
    assert "<img" in IconSet(tmp_path).html(icon, "#000000")


def field(tmp_path, text, block=False):
    warnings: list[Problem] = []
    with markup.collecting(warnings.append, tmp_path / "decks" / "x.yaml", 7,
                           "card X-01 (row 1)"):
        html = FieldMarkup(tmp_path).render(text, block=block)
    return str(html), [str(w) for w in warnings]


def test_an_icon_in_a_field_is_drawn_in_the_colour_asked(tmp_path):
    html, warnings = field(tmp_path, "Fight :icon[crossed-swords]{colour=#aa0000} now")
    assert warnings == []
    assert html.startswith("Fight <svg class=\"icon icon-crossed-swords\"")
    assert 'fill="#aa0000"' in html and "currentColor" not in html


def test_field_problems_are_warnings_where_the_field_is(tmp_path):
    html, warnings = field(tmp_path, "A :icon[skul] and ![k](art/none.png) <script>x</script>")
    where = str(tmp_path / "decks" / "x.yaml")
    assert len(warnings) == 3
    assert all(w.startswith(f"{where}:7: card X-01 (row 1): ") for w in warnings)
    assert "no icon 'skul' (did you mean" in warnings[0]
    assert "picture 'art/none.png' file not found" in warnings[1]
    assert "HTML <script> is not printed in a field: left out" in warnings[2]
    assert "<script>" not in html and "![" not in html
    assert '<span class="missing-icon">[skul?]</span>' in html


def test_html_links_and_emphasis_in_a_field_render(tmp_path):
    html, warnings = field(tmp_path, "**Bold** <b>raw</b> and a [link](http://x.org)")
    assert warnings == []
    assert html == "<strong>Bold</strong> <b>raw</b> and a link"


def test_a_field_problem_outside_a_build_is_an_error(tmp_path):
    with pytest.raises(PrintshopError):
        FieldMarkup(tmp_path).render(":icon[no-such-icon]")


def test_an_emblem_may_be_an_icon_and_an_unknown_one_lists_both(project_copy):
    from printshop.project import Project
    from printshop.source.decks import load_deck

    path = project_copy / "decks" / "fumbles.yaml"
    path.write_text(path.read_text().replace("emblem: broken-sword", "emblem: death-skull"))
    deck = load_deck(Project.load(project_copy), "fumbles")
    assert deck.emblem_template is None            # drawn from the icon
    path.write_text(path.read_text().replace("emblem: death-skull", "emblem: skull"))
    with pytest.raises(PrintshopError) as info:
        load_deck(Project.load(project_copy), "fumbles")
    message = str(info.value)
    assert "back.emblem: no emblem 'skull' (did you mean 'death-skull'" in message
    assert "the emblems are broken-sword, burst, crossed-swords, lantern, torch" in message
    assert "templates/cards/emblems/skull.svg or icons/skull.svg" in message


def test_a_class_with_an_unknown_icon_is_named_at_its_line(project_copy):
    from printshop.source.classes import load_classes

    path = project_copy / "tables" / "classes.yaml"
    text = path.read_text().replace("icon: ogre", "icon: orge")
    path.write_text(text)
    with pytest.raises(PrintshopError) as info:
        load_classes(path)
    line = text.split("\n").index("    icon: orge") + 1
    assert str(info.value).startswith(f"{path}:{line}:") or \
        f"classes.yaml:{line}:" in str(info.value)
    assert "no icon 'orge' (did you mean 'ogre'" in str(info.value)
