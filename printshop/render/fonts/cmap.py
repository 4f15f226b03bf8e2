"""The characters a font file maps, read straight from its `cmap` table.

Checking a document's characters against the bundled fonts (render/fonts/__init__.py) needs only
the set of code points each font maps. fontTools gives it (`getBestCmap`), but first names
every glyph of the font from its `post` table and imports itself: ~0.1 s for the eleven
bundled fonts, before a deck's first sheet can go to a worker. The two subtable formats
fonts use for Unicode (4: the BMP in segments, 12: groups over all planes) are read here
with `struct`, choosing the subtable as fontTools does; anything else (a font collection,
another format, a table that is not well formed) returns None and the caller asks fontTools.
"""

from __future__ import annotations

import struct

# fontTools' getBestCmap order (HarfBuzz's): (platform, encoding), largest repertoire first
PREFERENCES = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


def cmap_codepoints(path: str) -> frozenset[int] | None:
    """The code points the font's best Unicode subtable maps to a glyph (not glyph 0), or
    None when this reader does not know the font's layout."""
    try:
        with open(path, "rb") as file:
            data = file.read()
        return _read(data)
    except (OSError, struct.error, IndexError, ValueError):
        return None


def _read(data: bytes) -> frozenset[int] | None:
    tag = data[:4]
    if tag not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
        return None     # a collection (ttcf) or not a font
    tables = {}
    count = struct.unpack_from(">H", data, 4)[0]
    for i in range(count):
        name, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[name] = (offset, length)
    if b"DMAP" in tables or b"cmap" not in tables:
        return None     # fontTools would look at more than the cmap table
    start, length = tables[b"cmap"]
    cmap = data[start:start + length]
    _version, subtables = struct.unpack_from(">HH", cmap, 0)
    records = [struct.unpack_from(">HHI", cmap, 4 + 8 * i) for i in range(subtables)]
    for wanted in PREFERENCES:
        for platform, encoding, offset in records:
            if (platform, encoding) == wanted:
                return _subtable(cmap, offset)
    return frozenset()


def _subtable(cmap: bytes, offset: int) -> frozenset[int] | None:
    form = struct.unpack_from(">H", cmap, offset)[0]
    if form == 4:
        return _format_4(cmap, offset)
    if form == 12:
        return _format_12(cmap, offset)
    return None


def _format_4(cmap: bytes, offset: int) -> frozenset[int] | None:
    length, = struct.unpack_from(">H", cmap, offset + 2)
    seg_count = struct.unpack_from(">H", cmap, offset + 6)[0] // 2
    words = (length - 14) // 2
    values = struct.unpack_from(f">{words}H", cmap, offset + 14)
    ends = values[:seg_count]
    starts = values[seg_count + 1:2 * seg_count + 1]   # after the reserved pad
    deltas = values[2 * seg_count + 1:3 * seg_count + 1]
    range_offsets = values[3 * seg_count + 1:4 * seg_count + 1]
    glyphs = values[4 * seg_count + 1:]
    mapped: dict[int, bool] = {}
    # as fontTools: the last segment (0xFFFF) is skipped; a later segment overrides an
    # earlier one, but a missing glyph does not erase an earlier mapping
    for i in range(seg_count - 1):
        start, end, delta, range_offset = starts[i], ends[i], deltas[i], range_offsets[i]
        if range_offset == 0:
            for code in range(start, end + 1):
                if (code + delta) & 0xFFFF:
                    mapped[code] = True
                else:
                    mapped.setdefault(code, False)
            continue
        partial = range_offset // 2 - start + i - seg_count
        for code in range(start, end + 1):
            index = code + partial
            if not 0 <= index < len(glyphs):
                return None     # fontTools refuses the table
            glyph = (glyphs[index] + delta) & 0xFFFF if glyphs[index] else 0
            if glyph:
                mapped[code] = True
            else:
                mapped.setdefault(code, False)
    return frozenset(code for code, has_glyph in mapped.items() if has_glyph)


def _format_12(cmap: bytes, offset: int) -> frozenset[int] | None:
    _format, _reserved, length, _language, groups = struct.unpack_from(">HHIII", cmap,
                                                                      offset)
    if length != 16 + 12 * groups:
        return None
    covered: set[int] = set()
    last = -1
    for i in range(groups):
        start, end, glyph = struct.unpack_from(">III", cmap, offset + 16 + 12 * i)
        if start <= last or end < start or end > 0x10FFFF:
            return None     # overlapping, inverted or out of range: fontTools' rules
        last = end
        covered.update(range(start, end + 1) if glyph else range(start + 1, end + 1))
    return frozenset(covered)
