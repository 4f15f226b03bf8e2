"""The user's cache (printshop/user_cache.py): what is made from a file's bytes is made once a
machine and read back after, remade when the file changes or the cached copy is damaged; a
font's WOFF and the code points it covers come out the same from it as made afresh."""

from __future__ import annotations

import glob

from printshop import user_cache
from printshop.resources import TEMPLATES_DIR


def test_made_once_from_the_same_bytes_and_again_from_other_bytes(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    made: list[bytes] = []

    def maker(source: bytes):
        return lambda: made.append(source) or source.upper()

    assert user_cache.made_from("test-1", b"abc", maker(b"abc")) == b"ABC"
    assert user_cache.made_from("test-1", b"abc", maker(b"abc")) == b"ABC"
    assert made == [b"abc"]                                  # the second: read back
    assert user_cache.made_from("test-1", b"abd", maker(b"abd")) == b"ABD"
    assert user_cache.made_from("test-2", b"abc", maker(b"abc")) == b"ABC"   # another kind
    assert made == [b"abc", b"abd", b"abc"]
    for cached in (tmp_path / "printshop" / "test-1").iterdir():
        cached.write_bytes(b"")                              # damaged: made again
    assert user_cache.made_from("test-1", b"abc", maker(b"abc"),
                                lambda data: data.isupper()) == b"ABC"
    assert made[-1] == b"abc" and len(made) == 4


def test_a_cache_that_cannot_be_written_is_passed_over(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    made = []
    for _ in range(2):
        assert user_cache.made_from("test-1", b"x", lambda: made.append(1) or b"X") == b"X"
    assert len(made) == 2


def test_fonts_read_from_the_cache_are_the_fonts_read_afresh(tmp_path, monkeypatch):
    from printshop.products.common import font_as_data_url
    from printshop.render.fonts import _font_file_info, _read_font_file_info

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fonts = sorted(glob.glob(str(TEMPLATES_DIR / "fonts" / "**" / "*.ttf"), recursive=True))
    assert len(fonts) > 5
    for font in fonts[:3]:
        for _ in ("made", "read back"):
            _font_file_info.cache_clear()
            font_as_data_url.cache_clear()
            points, family = _font_file_info(font)
            assert (points, family) == _read_font_file_info(font) and len(points) > 100
            assert font_as_data_url(font).startswith("data:font/woff;base64,d09GR")
        assert len(list((tmp_path / "printshop" / "font-info-1").iterdir())) >= 1
    woffs = list((tmp_path / "printshop" / "woff-1").iterdir())
    assert len(woffs) == 3 and all(w.read_bytes()[:4] == b"wOFF" for w in woffs)
