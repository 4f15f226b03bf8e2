"""The author's loop: a no-op build, one-edit builds and `serve`, against the full build.

All in one run, on a private copy of rules-src/, through the command line as a user runs it:

1. the full kit, cold (no cache): the baseline;
2. `printshop build` again with nothing changed (best of 3; goal < 1 s, aim 0.5 s);
3. one edit each: a chapter (rebuilds the guide), a deck (that deck), a table the guide
   prints and a deck deals from;
4. `printshop serve`: from saving a chapter to the new text being served in the HTML
   edition (goal < 2 s), to its pages alone in the PDF preview (goal about 3 s), and to the
   whole book's PDF; from saving one card's text to the deck's new PDF.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PRINTSHOP = [sys.executable, "-m", "printshop"]


def build(project: Path, *extra: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(PRINTSHOP + ["build", "--strict", "--source", str(project), *extra],
                          capture_output=True, text=True, cwd=project.parent)
    seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"build failed:\n{done.stderr}")
    return seconds, done.stderr


def built_names(log: str) -> list[str]:
    return re.findall(r"^printshop: (\S+): building", log, re.M)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def serve_times(project: Path) -> dict:
    process = subprocess.Popen(PRINTSHOP + ["serve", "--source", str(project), "--port", "0"],
                               stderr=subprocess.PIPE, text=True, cwd=project.parent)
    try:
        url = None
        while url is None:
            line = process.stderr.readline()
            if not line:
                sys.exit("serve stopped")
            match = re.search(r"at (http://\S+/) ", line)
            url = match[1] if match else None

        # one event stream, read all along, as an open preview page reads it
        states: list[tuple[float, dict]] = []
        arrived = threading.Condition()

        def follow():
            with urllib.request.urlopen(url + "_events", timeout=600) as stream:
                for line in stream:
                    if line.startswith(b"data: "):
                        with arrived:
                            states.append((time.perf_counter(),
                                           json.loads(line.removeprefix(b"data: "))))
                            arrived.notify_all()

        threading.Thread(target=follow, daemon=True).start()

        def wait_for(test, since: float, what: str) -> tuple[float, dict]:
            """The first state that arrived after `since` and passes `test`."""
            with arrived:
                found = None
                while found is None:
                    found = next(((t, st) for t, st in states if t >= since and test(st)),
                                 None)
                    if found is None and not arrived.wait(300):
                        sys.exit(f"serve: no {what} within 300 s")
                return found

        def settled(st):
            return not st["building"] and "players-guide.pdf" in st["files"] \
                and "fumble-deck.pdf" in st["files"]

        _, s = wait_for(settled, 0, "first build")
        chapter = project / "guide" / "06-playing.md"
        marker = f"Saved at {time.time():.0f}."
        pdf_before = s["files"]["players-guide.pdf"]
        html_before = s["files"]["players-guide.html"]
        chapter.write_text(chapter.read_text() + f"\n{marker}\n")
        saved = time.perf_counter()
        html = None
        since = saved
        while html is None:   # a new HTML edition: the page reloads it
            t, st = wait_for(lambda st, before=html_before:
                             st["files"].get("players-guide.html") != before,
                             since, "HTML edition")
            with urllib.request.urlopen(url + "players-guide.html", timeout=30) as page:
                if marker.encode() in page.read():
                    html = time.perf_counter() - saved
            html_before, since = st["files"]["players-guide.html"], t
        t, _ = wait_for(lambda st: "players-guide" in st["previews"] or
                        st["files"]["players-guide.pdf"] != pdf_before, saved, "first pages")
        first = t - saved   # the chapter alone (or, without a page map, the book)
        t, _ = wait_for(lambda st: st["files"]["players-guide.pdf"] != pdf_before, saved,
                        "whole book")
        pdf = t - saved
        _, s = wait_for(settled, t, "quiet")
        deck = project / "decks" / "fumbles.yaml"
        deck_before = s["files"]["fumble-deck.pdf"]
        edit(deck, "Berserker never fumbles", "Berserker never, ever fumbles")
        saved = time.perf_counter()
        t, _ = wait_for(lambda st: st["files"]["fumble-deck.pdf"] != deck_before, saved,
                        "deck")
        deck_pdf = t - saved
        return {"serve_chapter_to_html_s": round(html, 2),
                "serve_chapter_to_first_pages_s": round(first, 2),
                "serve_chapter_to_pdf_s": round(pdf, 2),
                "serve_card_to_deck_pdf_s": round(deck_pdf, 2)}
    finally:
        process.terminate()
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="printshop-bench-") as tmp:
        project = Path(tmp) / "rules-src"
        shutil.copytree(REPO / "rules-src", project)
        full, _ = build(project)
        results["full_build_s"] = round(full, 2)
        noop = []
        for _ in range(3):
            seconds, log = build(project)
            assert built_names(log) == [], log
            noop.append(seconds)
        results["noop_build_s"] = round(min(noop), 3)
        for label, path, old, new in [
            ("chapter", "guide/06-playing.md", "\n", "\nA new sentence for the benchmark.\n"),
            ("deck", "decks/fumbles.yaml", "then shuffle it back.", "then shuffle it back in."),
            ("table", "tables/encounter-reactions.yaml", "title:", "# edited\ntitle:"),
        ]:
            edit(project / path, old, new)
            seconds, log = build(project)
            results[f"edit_{label}_s"] = round(seconds, 2)
            results[f"edit_{label}_rebuilt"] = built_names(log)
        results.update(serve_times(project))
    results["noop_verdict"] = "PASS" if results["noop_build_s"] < 1 else "MISS"
    results["serve_verdict"] = "PASS" if results["serve_chapter_to_html_s"] < 2 else "MISS"
    results["first_pages_verdict"] = ("PASS" if results["serve_chapter_to_first_pages_s"]
                                      <= 3.5 else "MISS")
    full = results["full_build_s"]
    print(f"full build of the kit (cold)       {full:8.2f} s")
    print(f"no-op build (best of 3)            {results['noop_build_s']:8.3f} s   "
          f"{full / results['noop_build_s']:.0f}x faster (goal < 1 s)")
    for label in ("chapter", "deck", "table"):
        seconds = results[f"edit_{label}_s"]
        rebuilt = ", ".join(results[f"edit_{label}_rebuilt"])
        print(f"one {label} edited{' ' * (17 - len(label))}{seconds:8.2f} s   "
              f"{full / seconds:.1f}x faster; rebuilt {rebuilt}")
    print(f"serve: chapter saved → HTML served {results['serve_chapter_to_html_s']:8.2f} s "
          "(goal < 2 s)")
    print(f"serve: chapter saved → its pages   {results['serve_chapter_to_first_pages_s']:8.2f} s "
          "(alone, numbered as in the book; goal about 3 s)")
    print(f"serve: chapter saved → whole book  {results['serve_chapter_to_pdf_s']:8.2f} s")
    print(f"serve: one card saved → deck PDF   {results['serve_card_to_deck_pdf_s']:8.2f} s")
    results["load_average"] = round(os.getloadavg()[0], 1)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
