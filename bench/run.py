"""`make bench`: every benchmark in bench/, results in bench/results/ (git-ignored).

Each benchmark is a script, run in its own process (so one benchmark's workers and caches do
not colour the next) with `--json bench/results/NAME.json`. Figures are ratios against a
baseline measured in the same run; bench/BASELINE.md records measurements for later speed work.

    .venv/bin/python bench/run.py [NAME ...]      # default: all of them
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = ["guide", "pregens", "cards"]


def main() -> int:
    results_dir = HERE / "results"
    results_dir.mkdir(exist_ok=True)
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
