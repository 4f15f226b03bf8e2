"""Benchmark: pregen packs. Run on its own: `.venv/bin/python bench/pregens.py`.

1. Speed: `printshop roll characters --count 200` end to end in a fresh process (load,
   roll, chunks of sheets on every core, merge) against headless Chromium printing the same
   pack's HTML edition (`--format html`), alternated in this run, best of each.
   Goal: printshop in at most half Chromium's time (issue 13).
   `--weasyprint` also times the pack's HTML in one bare WeasyPrint call (slow: ~40 s).
2. Memory: the peak of the whole process tree (printshop and its render workers) while a
   1,000-character pack is built. Goal: under 250 MB of PSS (pages shared after fork
   counted once; RSS summed over the processes is printed too).

Both goals are printed with the measured numbers and PASS or MISS; the exit status is 0
either way (a benchmark reports, it does not gate). `--count` and `--memory-count` change
the sizes, `--json FILE` also writes the numbers for bench/run.py.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SPEED_GOAL = 0.5        # printshop's time / Chromium's, at most
MEMORY_GOAL_MB = 250
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def make_product(count: int, seed: str = "bench", **options):
    from printshop.products.characters.pregens import Pregens, PregensOptions
    from printshop.project import Project

    project = Project.load(REPO / "rules-src")
    options = PregensOptions(kind="pregens", seed=seed, count=count, **options)
    return Pregens(project, "bench", options, cli_flags={}, large_ok=True)


def _single_call(count: int, queue) -> None:
    """In a fresh process: the whole pack's HTML, one WeasyPrint call, same stylesheets."""
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    from printshop.render.fetcher import ProjectFetcher

    product = make_product(count)
    characters = product.characters()
    paper = "letter"
    pack = product.pack_info(characters, paper)
    html = product._render("all", characters, paper, pack)
    roots = [Path(r) for r in product.project.read_roots]
    started = time.perf_counter()
    fonts = FontConfiguration()
    fetcher = ProjectFetcher(roots)
    sheets = []
    for sheet in product._stylesheets(paper):
        if sheet.path:
            sheets.append(CSS(filename=sheet.path, url_fetcher=fetcher, font_config=fonts))
        else:
            sheets.append(CSS(string=sheet.text, font_config=fonts))
    document = HTML(string=html, base_url=product.project.root.as_uri() + "/",
                    url_fetcher=fetcher).render(stylesheets=sheets, font_config=fonts)
    pdf = document.write_pdf()
    queue.put((time.perf_counter() - started, len(document.pages), len(pdf)))


def render_in_one_call(count: int) -> tuple[float, int]:
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_single_call, args=(count, queue))
    process.start()
    seconds, pages, _ = queue.get()
    process.join()
    return seconds, pages


# --- memory ----------------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as handle:
                    kids = [int(k) for k in handle.read().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def _rss_and_pss(pid: int) -> tuple[int, int]:
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/statm") as handle:
            rss = int(handle.read().split()[1]) * PAGE
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    return rss, pss


class TreeMemory:
    """Polls /proc for the RSS (and PSS, which splits pages shared after fork fairly) of a
    process and all its descendants; keeps the peaks."""

    def __init__(self, pid: int, interval: float = 0.05):
        self.pid, self.interval = pid, interval
        self.peak_rss = self.peak_pss = 0
        self.peak_processes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            pids = [self.pid] + _children(self.pid)
            totals = [_rss_and_pss(p) for p in pids]
            self.peak_rss = max(self.peak_rss, sum(t[0] for t in totals))
            self.peak_pss = max(self.peak_pss, sum(t[1] for t in totals))
            self.peak_processes = max(self.peak_processes, len(pids))
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def measure_memory(count: int) -> dict:
    """Runs `printshop roll characters` in a fresh process (nothing inherited from this
    one) and polls the memory of it and its render workers."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "pack.pdf"
        command = [sys.executable, "-m", "printshop", "roll", "characters", "--count",
                   str(count), "--seed", "bench-memory", "--yes", "--quiet", "--out", str(out),
                   "--source", str(REPO / "rules-src")]
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=REPO)
        with TreeMemory(process.pid) as memory:
            process.wait()
        seconds = time.perf_counter() - started
        if process.returncode:
            raise SystemExit(f"printshop roll characters failed ({process.returncode})")
        from pypdf import PdfReader

        pages = len(PdfReader(str(out)).pages)
        size = out.stat().st_size
    return {"characters": count, "pages": pages, "seconds": seconds,
            "peak_rss_mb": memory.peak_rss / 1e6, "peak_pss_mb": memory.peak_pss / 1e6,
            "processes": memory.peak_processes, "pdf_mb": size / 1e6}


def measure_speed(args) -> dict:
    """printshop and Chromium on the same pack, alternated; the best of each."""
    import tempfile

    from chromium import alternate, chromium_available, chromium_print, printshop_run, seconds_list

    source = str(REPO / "rules-src")
    with tempfile.TemporaryDirectory(prefix="bench-pregens-") as folder:
        folder = Path(folder)
        html = folder / "pack.html"
        printshop_run("roll", "characters", "--count", str(args.count), "--seed", "bench",
                      "--format", "html", "--quiet", "--out", str(html), "--source", source)

        def printshop() -> float:
            return printshop_run("roll", "characters", "--count", str(args.count), "--seed",
                                 "bench", "--quiet", "--out", str(folder / "pack.pdf"),
                                 "--source", source)

        if not chromium_available():
            runs = [printshop() for _ in range(args.repeat)]
            print(f"  printshop: {min(runs):.2f} s (best of {args.repeat}); chromium not "
                  "installed, no ratio")
            return {"characters": args.count, "printshop_s": runs}
        ours, theirs = alternate(printshop, lambda: chromium_print(html, folder / "c.pdf"),
                                 args.repeat)
        from pypdf import PdfReader

        pages = len(PdfReader(str(folder / "pack.pdf")).pages)
        chromium_pages = len(PdfReader(str(folder / "c.pdf")).pages)
    ratio = min(ours) / min(theirs)
    verdict = "PASS" if ratio <= SPEED_GOAL else "MISS"
    print(f"  printshop roll characters --count {args.count}: {pages} pages, best "
          f"{min(ours):.2f} s ({seconds_list(ours)})")
    print(f"  chromium printing the pack's HTML:  {chromium_pages} pages, best "
          f"{min(theirs):.2f} s ({seconds_list(theirs)})")
    print(f"  ratio printshop/chromium: {ratio:.2f} (goal <= {SPEED_GOAL:g}) {verdict}")
    figures = {"characters": args.count, "pages": pages, "printshop_s": ours,
               "chromium_s": theirs, "chromium_pages": chromium_pages, "ratio": ratio,
               "goal": SPEED_GOAL, "verdict": verdict}
    if args.weasyprint:
        single_s, _ = render_in_one_call(args.count)
        print(f"  one bare WeasyPrint call on the pack's HTML: {single_s:.2f} s")
        figures["weasyprint_single_call_s"] = single_s
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--memory-count", type=int, default=1000)
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--repeat", type=int, default=3,
                        help="speed runs of each (the best counts)")
    parser.add_argument("--weasyprint", action="store_true",
                        help="also time the pack's HTML in one bare WeasyPrint call")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    cores = os.cpu_count() or 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"pregens benchmark: {args.count} characters, {cores} cores, load {load:.1f}")
    results: dict = {"cores": cores, "load_before": load}

    if not args.skip_speed:
        results["speed"] = measure_speed(args)

    if not args.skip_memory:
        print(f"  memory: building {args.memory_count} characters…")
        memory = measure_memory(args.memory_count)
        results["memory"] = memory
        verdict = "PASS" if memory["peak_pss_mb"] < MEMORY_GOAL_MB else "MISS"
        memory["goal_mb"], memory["verdict"] = MEMORY_GOAL_MB, verdict
        print(f"  peak memory of the process tree ({memory['processes']} processes), "
              f"{memory['pages']} pages in {memory['seconds']:.0f} s:")
        print(f"    PSS {memory['peak_pss_mb']:.0f} MB (pages shared by the parent and its "
              f"forked workers counted once) {verdict}   goal < {MEMORY_GOAL_MB} MB")
        print(f"    RSS summed over the processes {memory['peak_rss_mb']:.0f} MB (counts those "
              f"shared pages once per process)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
