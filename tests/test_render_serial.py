"""Serial rendering (render/pool/serial.py): `--serial` renders in the calling process, for a
debugger or a profiler, and makes the same files as the worker processes."""

from __future__ import annotations

import os
import subprocess
import sys

import yaml

from printshop.render.pool.pool import TaskFailed, WorkerPool

from conftest import RULES_SRC, pdf_text


def test_a_serial_build_makes_the_same_bytes_as_the_workers(tmp_path):
    """The Fumble Deck: sheets and the fit probes whose results add jobs while it renders.
    Each build in a process of its own (a serial one loads WeasyPrint where it runs)."""
    built = {}
    for how in ("parallel", "serial"):
        out = tmp_path / how
        command = [sys.executable, "-m", "printshop", "build", "fumble-deck", "--strict",
                   "--quiet", "--source", str(RULES_SRC), "--out", str(out), "--jobs", "2"]
        if how == "serial":
            command.append("--serial")
        finished = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert finished.returncode == 0, finished.stderr
        built[how] = (out / "fumble-deck.pdf").read_bytes()
    assert built["serial"] == built["parallel"]
    text = " ".join(pdf_text(built["serial"]).split())
    rows = yaml.safe_load((RULES_SRC / "decks" / "fumbles.yaml").read_text())["rows"]
    assert all(row["name"] in text for row in rows)


def where(task):
    if task == "fail":
        raise ValueError("a bug in the job")
    return os.getpid()


def test_serial_tasks_run_in_this_process_and_a_failure_is_a_worker_s_failure():
    pool = WorkerPool(where, processes=2, serial=True)
    assert pool.map([1, 2, 3]) == [os.getpid()] * 3 and pool.workers == []
    try:
        pool.map([1, "fail"])
    except TaskFailed as failed:
        assert failed.reason == "error" and failed.detail.startswith("ValueError: a bug")
        assert isinstance(failed.__cause__, ValueError)   # for a debugger's post-mortem
    else:
        raise AssertionError("the failure was not reported")


def test_printshop_serial_in_the_environment_means_serial(monkeypatch):
    monkeypatch.setenv("PRINTSHOP_SERIAL", "1")
    assert WorkerPool(where).serial
    monkeypatch.setenv("PRINTSHOP_SERIAL", "0")
    assert not WorkerPool(where).serial
