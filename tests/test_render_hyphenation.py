"""English hyphenation patterns read from a cache of the parsed dictionary
(render/weasy/hyphenation.py): the same patterns, the same hyphens, any bad cache ignored."""

from __future__ import annotations

import pyphen
import pytest

from printshop.render.weasy import hyphenation

WORDS = ["hyphenation", "adventurers", "encumbrance", "hammersmith", "unfortunately"]


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(pyphen, "hdcache", {})
    return tmp_path / "printshop"


def _parsed():
    path = pyphen.LANGUAGES[pyphen.language_fallback("en")]
    return pyphen.HyphDict(path).patterns


def test_the_patterns_are_parsed_once_then_read_from_the_cache(fresh):
    hyphenation.load("en")
    cached, = fresh.glob("hyphenation-*.json")
    parsed = pyphen.Pyphen(lang="en")
    expected = [parsed.inserted(word) for word in WORDS]
    pyphen.hdcache.clear()
    hyphenation.load("en")                 # from the cache this time
    read = pyphen.Pyphen(lang="en")
    assert read.hd.patterns == _parsed()
    assert [read.inserted(word) for word in WORDS] == expected
    assert "hy-phen-a-tion" in expected
    assert cached.stat().st_size > 100_000


def test_a_broken_cache_is_passed_over_and_made_again(fresh):
    hyphenation.load("en")
    cached, = fresh.glob("hyphenation-*.json")
    cached.write_text('{"ab": [1, ["x"]]')          # torn: not JSON, nor patterns
    pyphen.hdcache.clear()
    hyphenation.load("en")
    assert pyphen.Pyphen(lang="en").hd.patterns == _parsed()
    cached.write_text('{"ab": [1, ["x"]]}')         # JSON, but no patterns
    pyphen.hdcache.clear()
    hyphenation.load("en")
    assert pyphen.Pyphen(lang="en").hd.patterns == _parsed()


def test_a_cache_folder_that_cannot_be_written_changes_nothing(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr(pyphen, "hdcache", {})
    hyphenation.load("en")
    assert pyphen.Pyphen(lang="en").hd.patterns == _parsed()


def test_switched_off_the_dictionary_is_parsed_as_pyphen_does(fresh):
    from printshop.render.weasy import registry

    with registry.switched({"hyphenation-cache"}):
        hyphenation.load("en")
    # no cache written or read (the registry keeps its targets' sources there: source-1)
    assert not list(fresh.glob("hyphenation*"))
    loaded = pyphen.Pyphen(lang="en")
    assert loaded.hd.patterns == _parsed()
    assert loaded.inserted("hyphenation") == "hy-phen-a-tion"
