"""What the benchmarks compare printshop with: headless Chromium printing the same HTML.

A user's fallback is "open the HTML in Chrome and print to PDF", so each benchmark times
printshop and Debian's `chromium --headless --print-to-pdf` on the same content, alternated
(A B A B …) in the same run, and reports the best of each and their ratio: the machines are
shared and noisy, so only figures from one run are compared.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PRINTSHOP = REPO / ".venv" / "bin" / "printshop"
CHROMIUM = os.environ.get("PRINTSHOP_BENCH_CHROMIUM", "/usr/bin/chromium")


def chromium_available() -> bool:
    return Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is not None


def chromium_print(html: Path, pdf: Path) -> float:
    """Seconds for Chromium to print `html` to `pdf`, start-up included (a fresh profile
    each time, as a first print would be; no network)."""
    with tempfile.TemporaryDirectory(prefix="bench-chromium-") as profile:
        command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                   "--no-first-run", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--disable-quic",
                   f"--user-data-dir={profile}", f"--print-to-pdf={pdf}",
                   html.resolve().as_uri()]
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=600)
        seconds = time.perf_counter() - started
    if not pdf.exists() or pdf.stat().st_size == 0:
        raise SystemExit(f"chromium wrote no PDF for {html}")
    return seconds


def printshop_run(*args: str) -> float:
    """Seconds for `printshop ARGS` in a fresh process, as a user runs it."""
    started = time.perf_counter()
    subprocess.run([str(PRINTSHOP), *args], check=True, cwd=REPO)
    return time.perf_counter() - started


def alternate(first, second, repeat: int) -> tuple[list[float], list[float]]:
    """Runs first() and second() in turn, `repeat` times each: A B A B …"""
    a, b = [], []
    for _ in range(repeat):
        a.append(first())
        b.append(second())
    return a, b


def load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def seconds_list(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values) + " s"
