"""`make bench`: every benchmark in bench/, results in bench/results/ (git-ignored).

Each benchmark is a script, run in its own process (so one benchmark's workers and caches do
not colour the next) with `--json bench/results/NAME.json`. Figures are ratios against a
baseline measured in the same run (headless Chromium on the same content, see chromium.py);
the latest figures are written into bench/BASELINE.md between its "make bench" markers.

    .venv/bin/python bench/run.py [NAME ...]      # default: all of them
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = ["guide", "pregens", "cards", "kit", "incremental", "manuscript"]


def interpreter() -> str:
    """Which Python the figures are for: the interpreter counts. printshop is CPU-bound
    Python, and pyenv's Python 3.11.7 (built with --enable-shared, its core a shared
    libpython, no profile-guided optimisation) ran the guide 8-11 % slower than Debian's
    python3 (its core linked into the executable) on the same machine, with the same bytes
    out (bench/BASELINE.md, 2026-12-06)."""
    version = ".".join(map(str, sys.version_info[:3]))
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return f"Python {version}, {sys.executable}"
    core = "core in a shared libpython" if "libpython" in maps else "core in the executable"
    return f"Python {version} ({os.path.realpath(sys.executable)}, {core})"


def main() -> int:
    results_dir = HERE / "results"
    results_dir.mkdir(exist_ok=True)
    print(f"printshop's benchmarks on {interpreter()}", flush=True)
    selected = sys.argv[1:] or BENCHMARKS
    failed = []
    for name in selected:
        path = HERE / f"{name}.py"
        if not path.exists():
            print(f"no benchmark {name} (have: {', '.join(BENCHMARKS)})", file=sys.stderr)
            return 2
        print(f"== {name}", flush=True)
        done = subprocess.run([sys.executable, str(path), "--json",
                               str(results_dir / f"{name}.json")])
        if done.returncode:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    for name in failed:   # a failed benchmark's figures are not this run's
        (results_dir / f"{name}.json").unlink(missing_ok=True)
    write_baseline(results_dir, failed)
    return 1 if failed else 0


START, END = "<!-- make bench: start -->", "<!-- make bench: end -->"


def _row(what: str, ours: list | None, theirs: list | None, ratio, goal: str,
         verdict: str | None) -> str:
    best = lambda runs: f"{min(runs):.2f} s" if runs else "–"  # noqa: E731
    ratio_text = f"{ratio:.2f}" if isinstance(ratio, (int, float)) else "–"
    return f"| {what} | {best(ours)} | {best(theirs)} | {ratio_text} | {goal} | {verdict or '–'} |"


def _row_key(line: str) -> str:
    return re.sub(r"[\d.?]+", "N", line.split("|")[1].strip())


def _carry_over(rows: list[str], previous: str) -> list[str]:
    """A benchmark not run this time (`bench/run.py incremental`) keeps its figures from the
    last run, marked so, instead of a row of dashes."""
    old = {_row_key(line): line for line in previous.splitlines()
           if line.startswith("| ") and not line.startswith("| Benchmark")}
    out = []
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        earlier = old.get(_row_key(row)) if row.startswith("| ") else None
        if len(cells) > 2 and cells[1] == cells[2] == "–" and earlier:
            first = earlier.split("|")[1]
            row = earlier if "(earlier run)" in first else earlier.replace(
                first, first.rstrip() + " (earlier run) ", 1)
        out.append(row)
    return out


def write_baseline(results_dir: Path, failed: list[str] | None = None) -> None:
    """The figures of this run (each benchmark's latest JSON) as a table in BASELINE.md."""
    def figures(name):
        path = results_dir / f"{name}.json"
        return json.loads(path.read_text()) if path.exists() else {}

    guide, pregens, cards, kit = (figures(n) for n in ("guide", "pregens", "cards", "kit"))
    speed, memory = pregens.get("speed", {}), pregens.get("memory", {})
    event = cards.get("event_deck", {})
    rows = [
        "| Benchmark | printshop (best) | Chromium (best, same run) | ratio | goal | |",
        "|---|---|---|---|---|---|",
        _row(f"pack of {speed.get('characters', 200)} characters vs Chromium on its HTML",
             speed.get("printshop_s"), speed.get("chromium_s"), speed.get("ratio"),
             "≤ 0.5", speed.get("verdict")),
        _row(f"Player's Guide ({guide.get('pages', '?')} pages), first build, vs Chromium on "
             "its HTML edition", guide.get("printshop_first_build_s"),
             guide.get("chromium_s"), guide.get("ratio"), "≤ 3", guide.get("verdict")),
        _row("Player's Guide rebuilt (`--force`; the last build's page positions as the "
             "first guess)", guide.get("printshop_build_s"), guide.get("chromium_s"),
             guide.get("rebuild_ratio"), "≤ 3", guide.get("rebuild_verdict")),
        _row("Event Deck, `printshop build event-deck` (Chromium: one page, start-up floor)",
             event.get("printshop_s"), event.get("chromium_one_page_s"), None, "≤ 1.5 s",
             event.get("verdict")),
        _row("the whole kit, cold (Chromium: the guide's HTML)", kit.get("printshop_s"),
             kit.get("chromium_guide_html_s"), None, "≤ 15 s", kit.get("verdict")),
    ]
    words = kit.get("words_check")
    if words:
        rows.append(f"| the words check's share of the workers' CPU in a cold kit build | "
                    f"{words['words_cpu_s']:.2f} s of {words['jobs_cpu_s']:.2f} s | | "
                    f"{100 * words['share']:.1f} % | ≤ 5 % | {words['verdict']} |")
    incremental = figures("incremental")
    if incremental:
        full = incremental.get("full_build_s")
        rows += [
            _row(f"no-op `printshop build` of the kit (the cold build: {full} s, same run)",
                 [incremental["noop_build_s"]], None, None, "< 1 s",
                 incremental.get("noop_verdict")),
            _row("one chapter edited, `printshop build` (rebuilds the guide only)",
                 [incremental["edit_chapter_s"]], None, None, "–", None),
            _row("one deck's card edited, `printshop build` (that deck, one sheet rendered)",
                 [incremental["edit_deck_s"]], None, None, "–", None),
            _row("`printshop serve`: chapter saved → its text served in the HTML edition",
                 [incremental["serve_chapter_to_html_s"]], None, None, "< 2 s",
                 incremental.get("serve_verdict")),
        ]
        if "serve_chapter_to_first_pages_s" in incremental:
            rows += [
                _row("`printshop serve`: chapter saved → its pages alone in the PDF preview",
                     [incremental["serve_chapter_to_first_pages_s"]], None, None,
                     "≈ 3 s", incremental.get("first_pages_verdict")),
                _row("`printshop serve`: chapter saved → the whole book's PDF",
                     [incremental["serve_chapter_to_pdf_s"]], None, None, "–", None),
                _row("`printshop serve`: one card saved → the deck's PDF",
                     [incremental["serve_card_to_deck_pdf_s"]], None, None, "–", None),
            ]
    if memory:
        rows.append(f"| pack of {memory['characters']} characters: peak memory of the "
                    f"process tree | PSS {memory['peak_pss_mb']:.0f} MB (RSS summed "
                    f"{memory['peak_rss_mb']:.0f} MB) | | | < 250 MB | "
                    f"{memory.get('verdict', '–')} |")
    else:   # not run this time: the last run's row, if there is one (_carry_over)
        rows.append("| pack of 1000 characters: peak memory of the process tree | – | – | – "
                    "| < 250 MB | – |")
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    path = HERE / "BASELINE.md"
    text = path.read_text() if path.exists() else "# Baseline figures\n"
    if START in text and END in text:
        rows = _carry_over(rows, text[text.index(START):text.index(END)])
    failed = [n for n in (failed or []) if not (results_dir / f"{n}.json").exists()]
    if failed:
        rows.append(f"| {', '.join(failed)}: FAILED in this run (see its output) | – | – | – "
                    "| – | MISS |")
    block = "\n".join([START, f"Latest `make bench` ({stamp}, {os.cpu_count()} cores, load "
                        f"{load:.1f} at the end; {interpreter()}):", "", *rows, "", END])
    if START in text and END in text:
        text = text[:text.index(START)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)
    print(f"figures written to {path.relative_to(HERE.parent)}")


if __name__ == "__main__":
    sys.exit(main())
