"""Serial rendering (render/pool/serial.py): `--serial` renders in the calling process, for a
debugger or a profiler, and makes the same files as the worker processes."""

from __future__ import annotations

import os
import subprocess
import sys

import yaml

from conftest import RULES_SRC, pdf_text
from printshop.render.pool.pool import TaskFailed, WorkerPool


def _made(tmp_path, how: str, command: list[str], output: str) -> bytes:
    out = tmp_path / how
    out.mkdir()
    serial = ["--serial"] if how == "serial" else []
    finished = subprocess.run([sys.executable, "-m", "printshop", *command, *serial],
                              capture_output=True, text=True, timeout=300, cwd=out)
    assert finished.returncode == 0, finished.stderr
    return (out / output).read_bytes()


def test_a_serial_build_makes_the_same_bytes_as_the_workers(tmp_path):
    """The Fumble Deck: sheets, and the fit probes whose results add jobs while it renders.
    Each build in a process of its own (a serial one loads WeasyPrint where it runs)."""
    command = ["build", "fumble-deck", "--strict", "--quiet", "--source", str(RULES_SRC),
               "--out", ".", "--jobs", "2"]
    built = {how: _made(tmp_path, how, command, "fumble-deck.pdf")
             for how in ("parallel", "serial")}
    assert built["serial"] == built["parallel"]
    text = " ".join(pdf_text(built["serial"]).split())
    deck = yaml.safe_load((RULES_SRC / "decks" / "fumbles.yaml").read_text())
    rows = [row for table in deck.get("tables", []) for row in yaml.safe_load(
        (RULES_SRC / "tables" / f"{table}.yaml").read_text())["rows"]] + deck.get("rows", [])
    assert rows and all(row["name"] in text for row in rows)   # every card, by its name


def test_a_serial_pack_makes_the_same_bytes_as_the_workers(tmp_path):
    """A pack: its cover rendered in the background while its sheets' layers are learnt,
    then chunks made as the workers take them."""
    command = ["roll", "characters", "--count", "3", "--seed", "serial", "--source",
               str(RULES_SRC), "--out", "pack.pdf", "--quiet"]
    made = {how: _made(tmp_path, how, command, "pack.pdf") for how in ("parallel", "serial")}
    assert made["serial"] == made["parallel"]
    assert "serial #3" in pdf_text(made["serial"])   # each sheet carries its seed


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
