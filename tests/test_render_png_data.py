"""render/weasy/png_data.py: a PNG's own data written into the PDF. The pages look exactly as
WeasyPrint's own (the patch switched off) at every resolution tried, for each kind of PNG it
takes; the kinds it does not take (transparency, interlacing, damage) are left to WeasyPrint;
and the palette cover is neither converted nor encoded again."""

from __future__ import annotations

import io
import subprocess
import zlib

import pytest
from PIL import Image, ImageChops

from printshop.render.job import RenderJob, Stylesheet, render_job
from printshop.render.weasy import png_data, registry


def _png(mode: str, **save) -> bytes:
    """A 64 x 40 picture with flat areas, stripes and a gradient (every row filter)."""
    image = Image.new("RGB", (64, 40), (250, 240, 220))
    for x in range(64):
        for y in range(40):
            if (x // 8 + y // 5) % 2:
                image.putpixel((x, y), (x * 4 % 256, 40 + y * 5, 200 - x))
    if mode == "P":
        image = image.quantize(colors=16)
    elif mode == "P2":    # four colours: two bits a pixel
        image = image.quantize(colors=4)
        save.setdefault("bits", 2)
    elif mode != "RGB":
        image = image.convert(mode)
    out = io.BytesIO()
    image.save(out, format="PNG", **save)
    return out.getvalue()


def _pdf(tmp_path, data: bytes) -> bytes:
    from printshop.render import job

    job._process_state.pop("images", None)   # (what a worker loaded is kept by its URL)
    (tmp_path / "pic.png").write_bytes(data)
    html = ('<html><body style="margin: 0"><img src="pic.png" '
            'style="width: 60mm; image-rendering: pixelated"></body></html>')
    sheet = "@page { size: 80mm 60mm; margin: 5mm }"
    job = RenderJob(html=html, stylesheets=(Stylesheet(text=sheet),),
                    roots=(str(tmp_path),), base_url=tmp_path.as_uri() + "/", source="test")
    return render_job(job).pdf


def _pixels(tmp_path, pdf: bytes, name: str, dpi: int) -> Image.Image:
    (tmp_path / f"{name}.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile",
                    str(tmp_path / f"{name}.pdf"), str(tmp_path / name)], check=True)
    return Image.open(tmp_path / f"{name}.png").convert("RGB")


def _image_dictionary(pdf: bytes) -> bytes:
    start = pdf.index(b"/Subtype /Image")
    return pdf[pdf.rindex(b"<<", 0, start):pdf.index(b"stream", start)]


@pytest.mark.parametrize("mode", ["P", "P2", "RGB", "L"])
def test_each_kind_of_png_prints_as_weasyprint_prints_it(tmp_path, mode):
    assert registry.active("png-data")
    data = _png(mode)
    ours = _pdf(tmp_path, data)
    with registry.switched({"png-data"}):
        theirs = _pdf(tmp_path, data)
    assert ours != theirs     # (its own data, not WeasyPrint's encoding)
    for dpi in (72, 100, 300):
        difference = ImageChops.difference(_pixels(tmp_path, ours, "ours", dpi),
                                           _pixels(tmp_path, theirs, "theirs", dpi))
        assert difference.getbbox() is None, (mode, dpi)
    found = png_data.png_data(data)
    assert found is not None and found.idat in ours    # the file's own compressed rows
    if mode.startswith("P"):
        assert b"/Indexed" in _image_dictionary(ours)
        assert len(ours) < len(theirs)


@pytest.mark.parametrize("what, data", [
    ("transparency", _png("P", transparency=0)),
    ("alpha", _png("RGBA")),
])
def test_what_it_cannot_take_is_left_to_weasyprint(tmp_path, what, data):
    assert png_data.png_data(data) is None
    ours = _pdf(tmp_path, data)
    with registry.switched({"png-data"}):
        assert ours == _pdf(tmp_path, data)


def _chunk(kind: bytes, body: bytes) -> bytes:
    import struct

    return struct.pack(">I", len(body)) + kind + body + \
        struct.pack(">I", zlib.crc32(kind + body))


def test_a_palette_index_past_its_palette_is_left_to_weasyprint(tmp_path):
    import struct

    rows = b"".join(b"\0" + bytes([0, 1, 2, 5]) for _ in range(4))   # colour 5 of three
    data = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 3, 0, 0, 0)) \
        + _chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255])) \
        + _chunk(b"IDAT", zlib.compress(rows)) + _chunk(b"IEND", b"")
    assert png_data.png_data(data) is not None     # (whole, but for that index)
    ours = _pdf(tmp_path, data)
    assert b"/Indexed" not in ours
    with registry.switched({"png-data"}):
        assert ours == _pdf(tmp_path, data)


def test_an_interlaced_cut_short_or_odd_png_is_not_taken():
    good = _png("RGB")
    assert png_data.png_data(good) is not None
    header_at = good.index(b"IHDR")
    interlaced = bytearray(good)
    interlaced[header_at + 4 + 12] = 1             # IHDR's interlace method: Adam7
    assert png_data.png_data(bytes(interlaced)) is None
    assert png_data.png_data(good[:len(good) // 2]) is None      # cut short
    idat_at = good.index(b"IDAT")
    length = int.from_bytes(good[idat_at - 4:idat_at], "big")
    rows = zlib.decompress(good[idat_at + 4:idat_at + 4 + length])
    fewer = zlib.compress(rows[:len(rows) // 2])   # a whole stream of half the rows
    short = good[:idat_at - 4] + _chunk(b"IDAT", fewer) + good[idat_at + 8 + length:]
    assert png_data.png_data(short) is None
    sixteen = io.BytesIO()
    Image.new("I;16", (8, 8)).save(sixteen, format="PNG")
    assert png_data.png_data(sixteen.getvalue()) is None           # 16 bits a sample
    assert png_data.png_data(b"GIF89a...") is None


def test_a_palette_png_is_not_converted_or_encoded_again(tmp_path, monkeypatch):
    data = _png("P")
    saved: list[str] = []
    converted: list[str] = []
    real_save, real_convert = Image.Image.save, Image.Image.convert

    def save(self, *args, **kwargs):
        saved.append(self.mode)
        return real_save(self, *args, **kwargs)

    def convert(self, mode=None, *args, **kwargs):
        converted.append(f"{self.mode}->{mode}")
        return real_convert(self, mode, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "save", save)
    monkeypatch.setattr(Image.Image, "convert", convert)
    _pdf(tmp_path, data)
    assert saved == [] and not any(c.startswith("P->") for c in converted)
    with registry.switched({"png-data"}):
        _pdf(tmp_path, data)
    assert saved == ["RGB", "RGB"]      # WeasyPrint's own: at load, and again to write it
