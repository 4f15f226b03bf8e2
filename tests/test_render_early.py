"""The first render worker started as printshop starts (render/pool/early.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import RULES_SRC
from printshop.render.job import RenderJob, preload
from printshop.render.pool import early
from printshop.render.renderer import Renderer

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def job(text: str) -> RenderJob:
    return RenderJob(html=f"<p>{text}</p>", stylesheets=(), roots=(str(RULES_SRC),),
                     base_url=RULES_SRC.as_uri() + "/", source="test")


@pytest.mark.parametrize("argv, rendering", [
    (["build"], True), (["build", "players-guide", "--strict"], True),
    (["roll", "characters", "--count", "3"], True), (["serve"], True),
    (["check"], False), (["new", "x"], False), (["preflight", "a.pdf"], False), ([], False),
    (["--version"], False), (["build", "--help"], False), (["roll", "-h"], False),
    (["build", "--serial"], False)])
def test_only_a_command_that_renders_starts_a_worker_early(argv, rendering):
    assert early.renders(argv) is rendering


def _pids(renderer: Renderer) -> list[int | None]:
    return [w.process.pid for w in renderer.pool.workers]


def test_the_first_pool_adopts_the_early_worker_and_it_forks_the_others():
    early.start(preload, 2)
    first = early._early.workers[0].process
    with Renderer(processes=2) as renderer:
        results = renderer.render([job(f"page {n}") for n in range(4)])
        assert [r.pages for r in results] == [1, 1, 1, 1]
        pids = _pids(renderer)
        assert pids[0] == first.pid and len(set(pids)) == 2
    assert early._early is None and not first.is_alive()
    with Renderer(processes=1) as renderer:   # a second pool starts its own
        renderer.render([job("again")])
        assert _pids(renderer)[0] != first.pid


def test_a_pool_wanting_fewer_workers_takes_fewer_and_one_wanting_more_starts_them():
    early.start(preload, 2)
    first = early._early.workers[0].process
    with Renderer(processes=1) as renderer:
        result, = renderer.render([job("alone")])
        assert result.pages == 1 and _pids(renderer) == [first.pid]
    early.start(preload, 2)
    with Renderer(processes=3) as renderer:
        renderer.render([job(f"page {n}") for n in range(6)])
        assert len(set(_pids(renderer))) == 3


def test_a_dead_early_worker_is_replaced_by_a_new_pool():
    early.start(preload, 2)
    first = early._early.workers[0].process
    first.kill()
    first.join(5)
    with Renderer(processes=2) as renderer:
        result, = renderer.render([job("still renders")])
        assert result.pages == 1 and first.pid not in _pids(renderer)


PARENT = textwrap.dedent("""
    import os, sys, time
    from printshop.launch import _preload
    from printshop.render.pool import early
    early.start(_preload, 2)
    print(early._early.workers[0].process.pid, flush=True)
    if sys.argv[1] == "killed":
        time.sleep(1.5)            # the worker has loaded WeasyPrint and waits
        os.kill(os.getpid(), 9)
""")


@pytest.mark.parametrize("how", ["exits", "killed"])
def test_an_early_worker_never_adopted_ends_with_its_parent(how):
    parent = subprocess.run([sys.executable, "-c", PARENT, how], capture_output=True,
                            text=True, timeout=60)
    pid = int(parent.stdout.split()[0])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and _running(pid):
        time.sleep(0.1)
    assert not _running(pid)
    assert "Traceback" not in parent.stderr


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
