"""Reading a font's characters from its cmap table: the same set fontTools gives."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from printshop.render.fonts import BUNDLED_FONTS, _font_file_info
from printshop.render.fonts.cmap import cmap_codepoints

FONTS = sorted(Path(BUNDLED_FONTS).rglob("*.[ot]tf"))


@pytest.mark.parametrize("path", FONTS, ids=lambda p: p.name)
def test_the_bundled_fonts_read_as_fonttools_reads_them(path):
    assert cmap_codepoints(str(path)) == _font_file_info(str(path))[0]


def test_what_it_does_not_know_is_left_to_fonttools(tmp_path):
    collection = tmp_path / "fonts.ttc"
    collection.write_bytes(b"ttcf" + bytes(60))
    assert cmap_codepoints(str(collection)) is None
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(FONTS[0].read_bytes()[:200])
    assert cmap_codepoints(str(broken)) is None
    assert cmap_codepoints(str(tmp_path / "missing.ttf")) is None


def test_format_12_groups_and_glyph_zero():
    from printshop.render.fonts.cmap import _format_12

    groups = [(0x41, 0x43, 0), (0x1F600, 0x1F601, 7)]
    table = struct.pack(">HHIII", 12, 0, 16 + 12 * len(groups), 0, len(groups)) + \
        b"".join(struct.pack(">III", *g) for g in groups)
    assert _format_12(table, 0) == {0x42, 0x43, 0x1F600, 0x1F601}   # A is glyph 0: none
    overlapping = [(0x41, 0x50, 1), (0x45, 0x46, 9)]
    table = struct.pack(">HHIII", 12, 0, 16 + 24, 0, 2) + \
        b"".join(struct.pack(">III", *g) for g in overlapping)
    assert _format_12(table, 0) is None
