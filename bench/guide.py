"""Benchmark: the Player's Guide build, against one bare WeasyPrint call on the same HTML.

Both are measured in the same run (the machines are noisy, so the ratio is what matters):
  baseline  = WeasyPrint alone: the composed print HTML → PDF in this process
  printshop = `printshop build players-guide --strict` as a user runs it (check, compose,
              render in a worker, HTML edition, atomic write)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def weasyprint_alone() -> tuple[float, int]:
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    from printshop.products import BuildContext, load_products
    from printshop.products.common import page_size_css, stylesheet
    from printshop.project import Project
    from printshop.render.fetcher import ProjectFetcher
    from printshop.render.fonts import isolate_fontconfig

    project = Project.load(REPO / "rules-src")
    guide, = load_products(project, ["players-guide"])
    guide._composed_inputs = guide.read()
    html = guide.compose(BuildContext(project=project), "print")
    isolate_fontconfig()
    started = time.perf_counter()
    fonts = FontConfiguration()
    fetcher = ProjectFetcher(project.read_roots)
    sheets = [CSS(filename=stylesheet(project, s).path, font_config=fonts, url_fetcher=fetcher)
              for s in guide.options.stylesheets]
    sheets.append(CSS(string=page_size_css(project, "letter").text))
    document = HTML(string=html, base_url=project.root.as_uri() + "/",
                    url_fetcher=fetcher).render(stylesheets=sheets, font_config=fonts)
    document.write_pdf()
    return time.perf_counter() - started, len(document.pages)


def printshop_build() -> float:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([str(REPO / ".venv" / "bin" / "printshop"), "build", "players-guide",
                        "--strict", "--quiet", "--source", str(REPO / "rules-src"), "--out", out],
                       check=True)
        return time.perf_counter() - started


def main(runs: int = 1) -> dict:
    alone, builds, pages = [], [], 0
    for _ in range(runs):
        seconds, pages = weasyprint_alone()
        alone.append(seconds)
        builds.append(printshop_build())
    result = {
        "benchmark": "players-guide",
        "pages": pages,
        "weasyprint_alone_s": round(statistics.median(alone), 1),
        "printshop_build_s": round(statistics.median(builds), 1),
        "ratio_build_to_weasyprint": round(statistics.median(builds) / statistics.median(alone), 2),
        "pages_per_s": round(pages / statistics.median(builds), 2),
    }
    print(f"players-guide: {pages} pages; WeasyPrint alone {result['weasyprint_alone_s']} s, "
          f"printshop build {result['printshop_build_s']} s "
          f"(×{result['ratio_build_to_weasyprint']} of WeasyPrint alone, "
          f"{result['pages_per_s']} pages/s)")
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
