"""What each speed patch of WeasyPrint buys (render/weasy/registry.py), on the product it helps.

For each speed patch, its product is built in a fresh process into an empty folder with the
patch switched off (`PRINTSHOP_WEASYPRINT_PATCHES=NAME`) and with every patch on, the two
alternated (off, on, off, on, ...) in the same run. The figure is CPU time, user + sys of
the whole process tree (the workers are the build's children), because the machine is
shared: wall time is printed too, but other sessions' work inflates it. A patch that buys
under ~3 % of its product's CPU time is not worth its code (issue 27).

    .venv/bin/python bench/patches.py [--rounds N] [--json FILE] [NAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRINTSHOP = Path(sys.executable).with_name("printshop")

# patch → (what it is measured on: `printshop build` arguments, a label)
PRODUCTS = {
    "column-balance": (["players-guide"], "Player's Guide"),
    "column-trial": (["players-guide"], "Player's Guide"),
    "line-splits": (["players-guide"], "Player's Guide"),
    "pango-setups": ([], "the kit"),
    "parser-regexes": (["pregens"], "the pregen pack"),
    "absent-margin-boxes": (["pregens"], "the pregen pack"),
    "layout-only": (["players-guide"], "Player's Guide"),
    "array-types": (["players-guide"], "Player's Guide"),
    "hyphenation-cache": (["event-deck"], "Event Deck"),
    "png-data": (["players-guide"], "Player's Guide"),
    "table-widths": (["players-guide"], "Player's Guide"),
    "carried-strings": (["players-guide"], "Player's Guide"),
    "kept-layouts": (["players-guide"], "Player's Guide"),
}


def build(args: list[str], off: str) -> tuple[float, float]:
    """(CPU s, wall s) of one cold build with `off` switched off."""
    out = Path(tempfile.mkdtemp(prefix="printshop-bench-patches-"))
    env = dict(os.environ, PRINTSHOP_WEASYPRINT_PATCHES=off)
    try:
        before, started = os.times(), time.monotonic()
        subprocess.run([str(PRINTSHOP), "build", "--strict", "--quiet", *args, "--out",
                        str(out)], cwd=ROOT, env=env, check=True)
        wall, after = time.monotonic() - started, os.times()
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return (after.children_user - before.children_user) + \
        (after.children_system - before.children_system), wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="patches (default: every speed patch)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from printshop.render.weasy import registry

    speed = [p.name for p in registry.patches() if p.kind == "speed"]
    names = options.names or speed
    unknown = [n for n in names if n not in PRODUCTS]
    if unknown:
        print(f"not a measured speed patch: {', '.join(unknown)}", file=sys.stderr)
        return 2
    results = {}
    for name in names:
        args, label = PRODUCTS[name]
        runs = {"off": [], "on": []}
        build(args, "")      # warm: fontconfig's cache, the hyphenation cache, the OS's files
        for _ in range(options.rounds):
            for state, off in (("off", name), ("on", "")):
                runs[state].append(build(args, off))
        cpu = {s: [c for c, _ in r] for s, r in runs.items()}
        wall = {s: [w for _, w in r] for s, r in runs.items()}
        median = {s: statistics.median(v) for s, v in cpu.items()}
        gain = (median["off"] - median["on"]) / median["off"] * 100
        results[name] = {"product": label, "cpu_off_s": cpu["off"], "cpu_on_s": cpu["on"],
                         "wall_off_s": wall["off"], "wall_on_s": wall["on"],
                         "gain_cpu_percent": round(gain, 1),
                         "gain_wall_percent": round(
                             (statistics.median(wall["off"]) - statistics.median(wall["on"]))
                             / statistics.median(wall["off"]) * 100, 1)}
        wall_gain = results[name]["gain_wall_percent"]
        print(f"{name:<20} {label:<18} CPU median {median['off']:.2f} s off, "
              f"{median['on']:.2f} s on: {gain:+.1f} % (wall {wall_gain:+.1f} %)"
              f"   CPU off {' '.join(f'{c:.2f}' for c in cpu['off'])} | on "
              f"{' '.join(f'{c:.2f}' for c in cpu['on'])}", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(load {load:.1f} at the end, {os.cpu_count()} cores)")
    if options.json:
        options.json.write_text(json.dumps({"rounds": options.rounds, "load": load,
                                            "patches": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
