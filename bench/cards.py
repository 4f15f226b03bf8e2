"""How fast card sheets render, against a baseline measured in the same run.

    .venv/bin/python bench/cards.py [--hirelings N] [-j JOBS]

Baseline: the same number of pages of plain text (one paragraph a page) through the same
renderer, so the ratio says what the card templates cost over WeasyPrint's floor on this
machine, whatever its load. Measured: the Event Deck (52 cards + rules, home layout) and a
pack of N rolled hirelings (home layout), each built end to end (load, roll, impose,
render, fit, merge).
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


def baseline_seconds(renderer, project, pages: int) -> float:
    from printshop.products.common import base_url, stylesheet
    from printshop.render.pdf import RenderJob

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
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()

    from printshop.builder import build_project
    from printshop.products.cards import roll_hireling_pack
    from printshop.project import Project
    from printshop.render.pdf import Renderer

    source = REPO / "rules-src"
    project = Project.load(source)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        report = build_project(source, Path(tmp), ["event-deck"], jobs=args.jobs)
        event_seconds = time.monotonic() - started
        from pypdf import PdfReader

        event_pages = len(PdfReader(str(report.written[0])).pages)

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
    figures = {"baseline_ms_per_page": round(base * 1000)}
    for label, seconds, pages in (("event deck", event_seconds, event_pages),
                                  (f"{args.hirelings} hirelings", hireling_seconds,
                                   hireling_pages)):
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
