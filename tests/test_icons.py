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


# an icon as web icon sets draw them: strokes and fills in the colour of the text around
WEB_ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" '
            'stroke="currentColor" stroke-width="4"><rect x="2" y="2" width="20" height="20" '
            'fill="currentcolor"/></svg>')


def _project_with_icons(tmp_path):
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / "web.svg").write_text(WEB_ICON)
    (tmp_path / "icons" / "drawn.svg").write_text(WEB_ICON.replace("currentColor", "#00aa00")
                                                  .replace("currentcolor", "#00aa00"))
    return tmp_path


def test_a_project_icon_drawn_in_current_colour_asks_for_the_colour(tmp_path):
    icons = IconSet(_project_with_icons(tmp_path))
    assert 'src="project:icons/web.svg?ink=%23aa0000"' in icons.html(icons.find("web"),
                                                                   "#aa0000")
    # one drawn in colours of its own prints as drawn; a colour that is not one is not asked
    assert 'src="project:icons/drawn.svg"' in icons.html(icons.find("drawn"), "#aa0000")
    assert 'src="project:icons/web.svg"' in icons.html(icons.find("web"), "red;x")


def test_the_fetcher_draws_current_colour_in_the_ink_asked(tmp_path):
    from printshop.render.fetcher import ProjectFetcher

    root = _project_with_icons(tmp_path)
    fetcher = ProjectFetcher([root])
    inked = fetcher.fetch("project:icons/web.svg?ink=%23aa0000").read().decode()
    assert 'stroke="#aa0000"' in inked and 'fill="#aa0000"' in inked
    assert "currentcolor" not in inked.lower()
    assert fetcher.fetch("project:icons/web.svg").read().decode() == WEB_ICON
    # nothing but a colour is written into the file
    assert fetcher.fetch("project:icons/web.svg?ink=url(x)").read().decode() == WEB_ICON
    assert fetcher.fetch((root / "icons" / "web.svg").as_uri() + "?ink=%2300aa00"
                         ).read().decode().count("#00aa00") == 2


def _printed_colours(pdf: bytes) -> set[tuple[int, int, int]]:
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(pdf)[0]
    image = page.render(scale=2).to_pil().convert("RGB")
    return {colour for _, colour in image.getcolors(maxcolors=1 << 20) if sum(colour) < 600}


def test_a_project_icon_prints_in_the_colour_asked_on_the_page_and_in_html(tmp_path):
    from printshop.products.book.art import embed_images
    from printshop.render.job import RenderJob, render_job

    root = _project_with_icons(tmp_path)
    html, warnings = field(root, "Flee :icon[web]{colour=#aa0000} now")
    assert warnings == [] and "?ink=%23aa0000" in html
    pdf = render_job(RenderJob(html=f"<html><body><p>{html}</p></body></html>", stylesheets=(),
                               roots=(str(root), str(TEMPLATES_DIR)),
                               base_url=root.as_uri() + "/", source="test")).pdf
    reds = {(r, g, b) for r, g, b in _printed_colours(pdf) if r > 120 and g < 60 and b < 60}
    assert len(reds) >= 1      # the icon's strokes, red: black before
    import base64
    import re

    embedded = embed_images(f"<p>{html}</p>", [root])
    data = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', embedded)[1]
    assert 'stroke="#aa0000"' in base64.b64decode(data).decode()
