"""`printshop new DIR`: a new game project that builds as it is, into a book, a deck and a
reference sheet."""

from __future__ import annotations

from conftest import folder_snapshot, pdf_reader, pdf_text, run_cli


def test_new_project_builds_as_it_is(tmp_path):
    result = run_cli("new", "tunnel-rats", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    project = tmp_path / "tunnel-rats"
    for name in ("printshop.yaml", "README.md", "guide/01-playing.md", "tables/outcomes.yaml",
                 "decks/omens.yaml", "sheets/quick-reference.yaml", "recipes/characters.yaml"):
        assert (project / name).is_file(), name
    assert "__TITLE__" not in "".join(p.read_text() for p in project.rglob("*") if p.is_file())

    result = run_cli("build", "--strict", cwd=project)  # from inside, with no options
    assert result.exit_code == 0, result.output
    build = project / "build"
    assert {p.name for p in build.iterdir() if p.name != ".printshop-cache"} == {
        "rules.pdf", "rules.html", "omen-deck.pdf", "reference.pdf", "characters.pdf",
        "rules.manifest.json"}   # (the book's build record beside it)
    book = pdf_text(build / "rules.pdf")
    assert "Tunnel Rats" in book
    # the embedded dice table and the cross-reference with its page number
    assert "10–12" in book and "It works as well as you hoped." in book
    # (p. 4: chapters start on the next page, not the next right-hand one, by default)
    assert "Rolling the Dice (p. 4)" in " ".join(book.split())
    deck = pdf_text(build / "omen-deck.pdf")
    assert "Cold Draught" in deck and "Glint" in deck
    assert len(pdf_reader(build / "omen-deck.pdf").pages) == 2  # fronts, then backs
    reference = pdf_text(build / "reference.pdf")
    assert "Rations (3 days)" in reference and "Player's Guide" not in reference
    # six delvers on the generic sheet, each headed by a background from the book's table
    sheets = pdf_reader(build / "characters.pdf").pages
    assert len(sheets) == 1 + 6
    backgrounds = ("Rat-catcher", "Candle-maker", "Ferryman", "Grave-digger", "Runaway novice",
                   "Tinker")
    for page in sheets[1:]:
        text = page.extract_text()
        assert "first-delvers #" in text and any(b in text for b in backgrounds), text
        assert all(a in text.upper() for a in ("STR", "DEX", "WIL", "HIT POINTS", "COINS"))


def test_a_new_project_rolls_characters_from_its_recipe(tmp_path):
    """`printshop roll characters` works in a new project (it once needed HAMMERCRAWL!'s
    tables/classes.yaml): the recipe's rolls, as its tables say."""
    import json

    assert run_cli("new", "delve", cwd=tmp_path).exit_code == 0
    result = run_cli("roll", "characters", "--count", "40", "--seed", "day-one", "--format",
                     "json", "--out", "-", cwd=tmp_path / "delve")
    assert result.exit_code == 0, result.output
    rolled = json.loads(result.stdout)["characters"]
    costs = {"Lantern and oil": 3, "Rope (50 ft)": 2, "Grappling hook": 2, "Crowbar": 2,
             "Chalk": 1, "Rations (3 days)": 3}
    for c in rolled:
        assert list(c["abilities"]) == ["STR", "DEX", "WIL"]
        assert all(3 <= v <= 18 for v in c["abilities"].values())
        assert 1 <= c["hit_points"] <= 6
        assert len(set(c["gear"])) == 2 and set(c["gear"]) <= set(costs)
        assert c["coins"] == 10 - sum(costs[g] for g in c["gear"])


def test_title_option_is_quoted_into_the_yaml(tmp_path):
    result = run_cli("new", tmp_path / "g", "--title", 'Rats: "The Return" #2')
    assert result.exit_code == 0, result.output
    result = run_cli("check", "--strict", "--source", tmp_path / "g")
    assert result.exit_code == 0, result.output
    assert '"Rats: \\"The Return\\" #2"' in (tmp_path / "g" / "printshop.yaml").read_text()


def test_new_refuses_a_folder_that_is_not_empty(tmp_path):
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("my notes")
    before = folder_snapshot(tmp_path)
    result = run_cli("new", target)
    assert result.exit_code == 2
    assert "not empty" in result.output and "nothing was changed" in result.output
    assert folder_snapshot(tmp_path) == before
    (tmp_path / "file").write_text("x")
    result = run_cli("new", tmp_path / "file")
    assert result.exit_code == 2 and "is a file" in result.output


def test_new_fills_an_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    result = run_cli("new", "empty", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "empty" / "printshop.yaml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]  # no staging left



def test_new_has_help_with_examples():
    result = run_cli("new", "--help")
    assert result.exit_code == 0
    assert "Examples" in result.output and "printshop new my-game" in result.output
    assert "printshop new my-game" in run_cli("--help").output


def test_new_in_the_current_empty_folder(tmp_path):
    (tmp_path / "here").mkdir()
    result = run_cli("new", ".", cwd=tmp_path / "here")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "here").iterdir()) == [
        "README.md", "decks", "guide", "palette.yaml", "printshop.yaml", "recipes", "sheets",
        "tables"]
    assert 'title: "Here"' in (tmp_path / "here" / "printshop.yaml").read_text()
