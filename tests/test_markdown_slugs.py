from printshop.source.markdown.slugs import (
    Slugger,
    aliases,
    github_slug,
    kramdown_slug,
    readable_name,
    slugify,
    unique_id,
)


def test_github_slugs():
    assert github_slug("Arcane Eye") == "arcane-eye"
    assert github_slug("Step 1: Roll Your Class!") == "step-1-roll-your-class"
    assert github_slug("`socket.bind(port, callback)`") == "socketbindport-callback"
    assert github_slug("A & B") == "a--b"
    assert github_slug("日本語の見出し") == "日本語の見出し"


def test_repeats_count_within_a_file_like_github():
    slugger = Slugger()
    assert [slugger.slug(t) for t in ("Light", "Light", "Light", "Light 1")] == \
        ["light", "light-1", "light-2", "light-1-1"]


def test_chosen_ids_are_kept():
    assert Slugger().slug("Leveling Up", chosen="levelling") == "levelling"


def test_kramdown_and_old_printshop_slugs_are_aliases():
    assert kramdown_slug("1. Getting Started") == "getting-started"
    assert slugify("Élan & Crits!") == "elan-crits"
    assert aliases("Élan & Crits!") == ["élan--crits", "lan--crits", "elan-crits"]


def test_ids_stay_unique_across_the_book():
    used = {"death"}
    assert unique_id("death", used) == "death-1" and unique_id("death", used) == "death-2"


def test_readable_names():
    assert readable_name("03_arcane-eye") == "Arcane Eye"
    assert readable_name("my-rules_book") == "My Rules Book"
    assert readable_name("13th-Age-SRD") == "13th Age SRD"
