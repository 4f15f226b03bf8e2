"""Extract the game-icons.net icons printshop bundles (templates/icons/game-icons/).

game-icons.net's icons are CC BY 3.0, each by its author. printshop ships only the icons it
uses, each an SVG file with its author in credits.yaml beside it, so every product that
prints one can credit it. The SVG bodies come from the npm package @iconify-json/game-icons
(icons.json; its info.json gives the licence, CC-BY-3.0); the authors are the contributor
folders of game-icons.net's own repository (github.com/game-icons/icons: lorc/, delapouite/,
...), written into AUTHORS below.

    npm pack @iconify-json/game-icons@1.2.4 && tar xzf iconify-json-game-icons-1.2.4.tgz
    python tools/game_icons_subset.py package/

Add an icon: look its author up in game-icons.net's repository, add it to AUTHORS, run again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

PACKAGE = "@iconify-json/game-icons"
TARGET = Path(__file__).resolve().parent.parent / "templates" / "icons" / "game-icons"

# icon → its author on game-icons.net (the contributor folder it is in)
AUTHORS = {
    # classes (pregen sheets, class cards)
    "dwarf-helmet": "Kier Heyl", "elf-helmet": "Kier Heyl", "lockpicks": "Delapouite",
    "ogre": "Delapouite", "holy-symbol": "Lorc", "broadsword": "Lorc",
    "wizard-staff": "Lorc", "hood": "Lorc",
    # the Event Die's events (the Event Deck, the guide's table)
    "monster-grasp": "Lorc", "footprint": "Lorc", "torch": "Delapouite", "sleepy": "Lorc",
    "hourglass": "Lorc", "magic-swirl": "Lorc", "card-random": "Faithtoken",
    # reference sheets
    "crossed-swords": "Lorc", "sword-clash": "Lorc", "shield-bash": "Delapouite",
    "dodging": "Lorc", "death-skull": "Sbed", "campfire": "Lorc", "dungeon-gate": "Delapouite",
    "upgrade": "Delapouite", "broken-shield": "Lorc", "lantern-flame": "Lorc",
    "treasure-map": "Lorc", "scroll-unfurled": "Lorc", "spell-book": "Delapouite",
    "skull-crossed-bones": "Lorc",
    # dice
    "d4": "Skoll", "perspective-dice-six": "Delapouite", "dice-eight-faces-eight": "Delapouite",
    "d10": "Skoll", "d12": "Skoll", "dice-twenty-faces-twenty": "Delapouite",
    # the cover
    "warhammer": "Delapouite",
}


def main(package: Path) -> None:
    info = json.loads((package / "info.json").read_text())
    if info["license"]["spdx"] != "CC-BY-3.0":
        raise SystemExit(f"{PACKAGE}: licence is {info['license']['spdx']}, not CC-BY-3.0")
    data = json.loads((package / "icons.json").read_text())
    version = json.loads((package / "package.json").read_text())["version"]
    width, height = data.get("width", 512), data.get("height", 512)
    TARGET.mkdir(parents=True, exist_ok=True)
    for old in TARGET.glob("*.svg"):
        old.unlink()
    lines = ["# Who drew each icon in this folder (game-icons.net, CC BY 3.0). Made by",
             f"# tools/game_icons_subset.py from the npm package {PACKAGE} {version}: "
             "do not edit by hand.",
             '"*":',
             "  licence: CC BY 3.0",
             "  licence_url: https://creativecommons.org/licenses/by/3.0/",
             "  source: game-icons.net"]
    for name in sorted(AUTHORS):
        icon = data["icons"][name]
        w, h = icon.get("width", width), icon.get("height", height)
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}">'
               f'{icon["body"]}</svg>\n')
        (TARGET / f"{name}.svg").write_text(svg)
        lines.append(f"{name}.svg: {{author: {AUTHORS[name]}}}")
    (TARGET / "credits.yaml").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(AUTHORS)} icons to {TARGET}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "package"))
