"""Same inputs (and seeds) → byte-identical files, whatever the world around the build.

The guide has its own (expensive) run in test_products_guide.py; this covers every other
product of the manifest at once: two builds, at the same time, from copies of rules-src/ in
different folders with different file times, hash seeds, time zones and working folders.
"""

import os
import shutil
import subprocess
import sys

from conftest import RULES_SRC, folder_snapshot
from printshop.project import Project

SLOW_ELSEWHERE = {"players-guide"}  # built twice in test_products_guide.py


def test_every_product_is_byte_identical_across_worlds(tmp_path):
    products = [name for name in Project.load(RULES_SRC).manifest.products
                if name not in SLOW_ELSEWHERE]
    runs = []
    for n, (hash_seed, zone, mtime) in enumerate([("0", "UTC", 1_600_000_000),
                                                  ("977", "America/Lima", 946_684_800)]):
        world = tmp_path / f"world {n} ü%"
        source = world / "src"
        shutil.copytree(RULES_SRC, source)
        for path in [source, *source.rglob("*")]:
            os.utime(path, (mtime, mtime))
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "TZ": zone}
        env.pop("SOURCE_DATE_EPOCH", None)
        runs.append((subprocess.Popen(
            [sys.executable, "-m", "printshop", "build", *products, "--strict", "-j", "1",
             "--source", str(source), "--out", str(world / "out")],
            cwd=world, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
            world / "out"))
    outputs = []
    for process, out in runs:
        _, stderr = process.communicate(timeout=900)
        assert process.returncode == 0, stderr
        # the build cache holds paths and file times by design; the products must not
        outputs.append({name: data for name, data in folder_snapshot(out).items()
                        if not name.startswith(".printshop-cache/")})
    first, second = outputs
    assert sorted(first) == sorted(second)
    assert len(first) >= len(products)
    for name in first:
        assert first[name] == second[name], f"{name} differs between the two builds"
