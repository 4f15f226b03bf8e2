"""Benchmark: a 300 KB manuscript from elsewhere (front matter, wikilinks, callouts, wide
tables, links across files) built as a book, against one bare WeasyPrint call on the same HTML.

Goal (issue 11): "well under a minute on 2 cores". Both are measured in the same run:
  baseline  = WeasyPrint alone: the composed print HTML → PDF in this process
  printshop = `printshop build --source MANUSCRIPT` as a user runs it (read and check the
              Markdown, compose, render in a worker, the HTML edition, atomic write)
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
TARGET_BYTES = 300_000
GOAL_S = 60.0

WORDS = ("the a an of to and in is on for with by at from torch cave goblin sword shield spell "
         "ward rune dungeon door trap gold silver lantern rope ration hireling save roll die "
         "damage armour attack round turn party guide rule table level class fighter thief "
         "cleric wizard dwarf elf halfling morale reaction encounter wandering monster light "
         "dark deep stair river bridge ruin tower").split()


def sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def chapter(rng: random.Random, number: int, chapters: int) -> str:
    other = rng.randrange(1, chapters + 1)
    lines = ["---", f"title: Chapter {number}", f"nav_order: {number}", "layout: default",
             "---", "", f"# Chapter {number}: {sentence(rng, 3)[:-1]}", ""]
    for section in range(1, 9):
        lines += [f"## Section {number}.{section}", ""]
        for _ in range(3):
            lines += [" ".join(sentence(rng, rng.randrange(8, 20)) for _ in range(5)), ""]
        lines += [f"See [[{other:02d}-chapter#Section {other}.2]] and "
                  f"[the next part](#section-{number}{section % 8 + 1}), or "
                  f"[chapter {other}]({other:02d}-chapter.md#section-{other}1).", ""]
        if section % 3 == 0:
            lines += ["> [!note] Remember", f"> {sentence(rng, 14)}", ""]
        if section % 4 == 0:
            columns = 12 if section == 8 else 4
            lines += ["| " + " | ".join(f"Col {c}" for c in range(columns)) + " |",
                      "|" + "---|" * columns]
            for _ in range(8):
                lines.append("| " + " | ".join(str(rng.randrange(1, 20)) if c else
                                               sentence(rng, 2) for c in range(columns)) + " |")
            lines.append("")
        if section == 5:
            lines += [f"- {sentence(rng, 6)}" for _ in range(6)] + [""]
    return "\n".join(lines) + "\n"


def make_manuscript(folder: Path) -> int:
    """About TARGET_BYTES of Markdown in chapters of about 10 KB; returns the size."""
    chapters = 1
    while True:
        rng = random.Random("manuscript-bench")
        texts = [chapter(rng, n, chapters) for n in range(1, chapters + 1)]
        total = sum(len(t.encode("utf-8")) for t in texts)
        if total >= TARGET_BYTES:
            break
        chapters = max(chapters + 1, int(chapters * TARGET_BYTES / total) + 1)
    for n, text in enumerate(texts, start=1):
        (folder / f"{n:02d}-chapter.md").write_text(text, encoding="utf-8")
    return total


def weasyprint_alone(source: Path) -> tuple[float, int]:
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    from printshop import deps
    from printshop.products import BuildContext, load_products
    from printshop.products.common import page_size_css, stylesheet
    from printshop.products.printing import colours_for, palette_css
    from printshop.project import Project
    from printshop.render.fetcher import ProjectFetcher
    from printshop.render.fonts import isolate_fontconfig

    project = Project.load(source)
    guide, = load_products(project)
    guide._recorder = deps.Recorder()  # compose() hashes what it read for the colophon
    guide._composed_inputs = guide.read()
    html = guide.compose(BuildContext(project=project), "print")
    isolate_fontconfig()
    started = time.perf_counter()
    fonts = FontConfiguration()
    fetcher = ProjectFetcher(project.read_roots)
    palette = palette_css(colours_for(project, guide.print_profile()))
    sheets = [CSS(string=palette.text, font_config=fonts)]
    sheets += [CSS(filename=stylesheet(project, s).path, font_config=fonts, url_fetcher=fetcher)
               for s in guide.options.stylesheets]
    sheets.append(CSS(string=page_size_css(project, "letter").text))
    document = HTML(string=html, base_url=project.root.as_uri() + "/",
                    url_fetcher=fetcher).render(stylesheets=sheets, font_config=fonts)
    document.write_pdf()
    return time.perf_counter() - started, len(document.pages)


def printshop_build(source: Path) -> float:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([str(REPO / ".venv" / "bin" / "printshop"), "build", "--quiet",
                        "--source", str(source), "--out", out], check=True)
        return time.perf_counter() - started


def main(runs: int = 1) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "bench-manuscript"
        source.mkdir()
        size = make_manuscript(source)
        alone, builds, pages = [], [], 0
        for _ in range(runs):
            seconds, pages = weasyprint_alone(source)
            alone.append(seconds)
            builds.append(printshop_build(source))
    build_s = statistics.median(builds)
    result = {
        "benchmark": "manuscript",
        "kilobytes": round(size / 1000),
        "pages": pages,
        "weasyprint_alone_s": round(statistics.median(alone), 1),
        "printshop_build_s": round(build_s, 1),
        "ratio_build_to_weasyprint": round(build_s / statistics.median(alone), 2),
        "share_of_one_minute": round(build_s / GOAL_S, 2),
    }
    print(f"manuscript: {result['kilobytes']} KB of Markdown, {pages} pages; WeasyPrint alone "
          f"{result['weasyprint_alone_s']} s, printshop build {result['printshop_build_s']} s "
          f"(×{result['ratio_build_to_weasyprint']} of WeasyPrint alone; "
          f"{result['share_of_one_minute']:.0%} of the one-minute budget)")
    return result


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each (the median counts)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    figures = main(args.runs)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
