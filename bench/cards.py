"""How fast card sheets render, against baselines measured in the same run.

    .venv/bin/python bench/cards.py [--hirelings N] [-j JOBS] [--runs N]

1. The Event Deck (52 cards + rules, home layout) as a user builds it:
   `printshop build event-deck --strict` in a fresh process, best of --runs. Goal (issue
   13): at most 1.5 s. Alternated with Chromium printing a one-page HTML (its start-up
   floor), so a loaded machine shows in the reference too.
2. A pack of N rolled hirelings (home layout), built end to end in this process (load,
   roll, impose, render, fit, merge), against the same number of pages of plain text
   (one paragraph a page) through the same renderer: the ratio says what the card
   templates cost over WeasyPrint's floor on this machine, whatever its load.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
EVENT_DECK_GOAL_S = 1.5


def baseline_seconds(renderer, project, pages: int) -> float:
    from printshop.products.common import base_url, stylesheet
    from printshop.render.job import RenderJob

    body = "".join(f"<p style='break-after: page'>Page {i}: the quick brown fox jumps over "
                   "the lazy dog.</p>" for i in range(pages))
    job = RenderJob(html=f"<html><body>{body}</body></html>",
                    stylesheets=(stylesheet(project, "css/fonts.css"),),
                    roots=tuple(str(r) for r in project.read_roots),
                    base_url=base_url(project), source="baseline")
    started = time.monotonic()
    renderer.render([job])
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hirelings", type=int, default=200)
    parser.add_argument("-j", "--jobs", type=int, default=None)
    parser.add_argument("--runs", type=int, default=3, help="Event Deck builds (best counts)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()

    from printshop.products.cards.hirelings import roll_hireling_pack
    from printshop.project import Project
    from printshop.render.renderer import Renderer

    source = REPO / "rules-src"
    project = Project.load(source)
    from chromium import alternate, chromium_available, chromium_print, printshop_run, seconds_list
    from pypdf import PdfReader

    with tempfile.TemporaryDirectory() as tmp:
        jobs = ["-j", str(args.jobs)] if args.jobs else []

        def event_deck() -> float:
            return printshop_run("build", "event-deck", "--strict", "--quiet", "--force", *jobs,
                                 "--source", str(source), "--out", tmp)

        trivial = Path(tmp) / "one-page.html"
        trivial.write_text("<!DOCTYPE html><title>x</title><p>One page.</p>")
        if chromium_available():
            event_runs, chromium_runs = alternate(
                event_deck, lambda: chromium_print(trivial, Path(tmp) / "c.pdf"), args.runs)
        else:
            event_runs, chromium_runs = [event_deck() for _ in range(args.runs)], []
        event_seconds = min(event_runs)
        event_pages = len(PdfReader(str(Path(tmp) / "event-deck.pdf")).pages)
        verdict = "PASS" if event_seconds <= EVENT_DECK_GOAL_S else "MISS"
        print(f"event deck: {event_pages} pages, printshop build best {event_seconds:.2f} s "
              f"({seconds_list(event_runs)}), goal <= {EVENT_DECK_GOAL_S:g} s {verdict}")
        if chromium_runs:
            print(f"  same run, chromium printing one page (its start-up floor): best "
                  f"{min(chromium_runs):.2f} s ({seconds_list(chromium_runs)})")

        started = time.monotonic()
        written, rolled, _ = roll_hireling_pack(source, "bench", args.hirelings, None, "pdf",
                                                Path(tmp) / "hirelings.pdf", None, {},
                                                jobs=args.jobs)
        hireling_seconds = time.monotonic() - started
        hireling_pages = len(PdfReader(str(written[0])).pages)

    with Renderer(processes=1) as renderer:
        baseline_seconds(renderer, project, 2)  # warm the worker: fonts, CSS
        base = baseline_seconds(renderer, project, event_pages) / event_pages

    print(f"baseline (plain text, 1 process): {base * 1000:.0f} ms a page")
    figures = {"baseline_ms_per_page": round(base * 1000),
               "event_deck": {"pages": event_pages, "printshop_s": event_runs,
                              "chromium_one_page_s": chromium_runs,
                              "goal_s": EVENT_DECK_GOAL_S, "verdict": verdict}}
    for label, seconds, pages in ((f"{args.hirelings} hirelings", hireling_seconds,
                                   hireling_pages),):
        per_page = seconds / pages
        print(f"{label}: {pages} pages in {seconds:.1f} s = {per_page * 1000:.0f} ms a page "
              f"({per_page / base:.1f}× the baseline page, all cores, end to end)")
        figures[label] = {"pages": pages, "seconds": round(seconds, 1),
                          "ratio_to_baseline_page": round(per_page / base, 2)}
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
