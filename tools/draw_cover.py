"""Draw HAMMERCRAWL!'s cover picture (rules-src/art/cover.png) from two game-icons.net
icons bundled with printshop (dungeon-gate and warhammer, both by Delapouite, CC BY 3.0),
arranged by the printshop project. A PNG, not the SVG itself: a press profile converts
raster pictures to its CMYK, and the picture covers the page and its bleed at 300 ppi.

    .venv/bin/python tools/draw_cover.py
"""

from __future__ import annotations

import io
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ICONS = REPO / "templates" / "icons" / "game-icons"
TARGET = REPO / "rules-src" / "art" / "cover.png"
# Letter with 3.2 mm of bleed each side (A4 and A5 crop it: the picture is centred)
WIDTH_MM, HEIGHT_MM, PPI = 222.3, 285.8, 300


def body(name: str, colour: str) -> str:
    text = (ICONS / f"{name}.svg").read_text()
    inner = text[text.index(">") + 1:text.rindex("</svg>")]
    return inner.replace("currentColor", colour)


def svg() -> str:
    w, h = WIDTH_MM, HEIGHT_MM
    return f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}">
<rect width="{w}" height="{h}" fill="#1d1a17"/>
<rect x="10" y="10" width="{w - 20}" height="{h - 20}" fill="none" stroke="#6b4a2a" stroke-width="0.8"/>
<rect x="12.5" y="12.5" width="{w - 25}" height="{h - 25}" fill="none" stroke="#6b4a2a" stroke-width="0.3"/>
<g transform="translate({w / 2 - 85} {h - 190}) scale({170 / 512})">{body("dungeon-gate", "#3d322b")}</g>
<g transform="translate({w / 2} {h - 100}) rotate(-18) translate(-62 -62) scale({124 / 512})">{body("warhammer", "#c9a14a")}</g>
<path d="M 30 {h - 22} L {w - 30} {h - 22}" stroke="#6b4a2a" stroke-width="0.6"/>
</svg>"""  # noqa: E501 (an SVG's elements one a line)


def main() -> None:
    import pypdfium2
    import weasyprint

    html = (f"<style>@page {{ size: {WIDTH_MM}mm {HEIGHT_MM}mm; margin: 0 }} body {{ margin: 0 }}"
            f" svg {{ display: block; width: {WIDTH_MM}mm; height: {HEIGHT_MM}mm }}</style>{svg()}")
    pdf = weasyprint.HTML(string=html).write_pdf()
    page = pypdfium2.PdfDocument(pdf)[0]
    image = page.render(scale=PPI / 72).to_pil().convert("P", palette=1, colors=32)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True, dpi=(PPI, PPI))
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_bytes(out.getvalue())
    print(f"wrote {TARGET} ({image.size[0]}×{image.size[1]}, {len(out.getvalue()) // 1024} KB)")


if __name__ == "__main__":
    main()
