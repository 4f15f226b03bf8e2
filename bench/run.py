"""`make bench`: every benchmark in bench/, results in bench/results/ (git-ignored).

Each benchmark module has `main() -> dict`. Figures are ratios against a baseline measured in
the same run; bench/BASELINE.md records the first measurements for later speed work.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = ["guide", "pregens", "cards", "sheets"]


def main() -> int:
    results_dir = HERE / "results"
    results_dir.mkdir(exist_ok=True)
    selected = sys.argv[1:] or BENCHMARKS
    for name in selected:
        path = HERE / f"{name}.py"
        if not path.exists():
            continue
        spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"== {name}", flush=True)
        result = module.main()
        (results_dir / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
