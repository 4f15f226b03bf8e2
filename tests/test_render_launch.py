"""Render workers start one way for every pool (render/pool/launch.py) and never outlive the
process that started them, however it ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")

# A parent with two pools, as a build's or `serve`'s process has over its life: the first
# adopts a first worker started before it (as render/pool/early.py starts one), the later
# one starts its own. The later pool's workers are in the middle of a minute-long task, the
# first pool's are idle, when the parent ends: `how`.
PARENT = textwrap.dedent("""
    import multiprocessing, os, signal, sys, threading, time
    from printshop.render.pool import early
    from printshop.render.pool.launch import Launch
    from printshop.render.pool.pool import WorkerPool

    def nap(seconds):
        time.sleep(seconds)
        return os.getpid()

    def preload():
        pass

    how = sys.argv[1]
    # Ctrl-C as in a terminal, even where this test runs with SIGINT ignored (a background
    # job of a shell script: its children inherit the ignoring, and Python then has no
    # KeyboardInterrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    early._early = Launch(multiprocessing.get_context("fork"), 2, preload)
    adopted = early._early.workers[0].process.pid
    first = WorkerPool(nap, processes=2, preload=preload)
    later = WorkerPool(nap, processes=2, preload=preload)
    pids = [set(first.map([0.3, 0.3])), set(later.map([0.3, 0.3]))]
    assert adopted in pids[0] and len(pids[0] | pids[1]) == 4, pids
    threading.Thread(target=later.map, args=([60, 60],), daemon=True).start()
    time.sleep(0.3)
    print(" ".join(str(pid) for pid in sorted(pids[0] | pids[1])), flush=True)
    if how == "crash":
        raise RuntimeError("a bug in the parent")
    os.kill(os.getpid(), {"SIGTERM": signal.SIGTERM, "SIGKILL": signal.SIGKILL,
                          "Ctrl-C": signal.SIGINT}[how])
    time.sleep(30)
""")


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL", "Ctrl-C", "crash"])
def test_no_worker_of_any_pool_outlives_its_parent(how):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, how], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
    pids = []
    try:
        pids = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(pids) == 4, parent.stderr.read()
        parent.wait(30)
        ended = time.monotonic()
        while time.monotonic() - ended < 5 and any(map(_running, pids)):
            time.sleep(0.05)
        assert [pid for pid in pids if _running(pid)] == []
    finally:
        for pid in pids:     # only if the test failed: none of them is left behind
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
        parent.kill()
        parent.wait()
        parent.stdout.close()
        parent.stderr.close()


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
