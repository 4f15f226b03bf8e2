"""What a render worker process runs: its tasks, one after another, with a memory limit,
the garbage collector off during a task and the heap given back after it; and the thread
that ends it the moment its parent has ended. How workers start and stop: launch.py."""

from __future__ import annotations

import gc
import os
import threading
import traceback
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any


@dataclass
class _Worker:
    process: Any
    conn: Any
    task: Any = None     # (batch, index) while it runs one (render/pool/pool.py)
    deadline: float = 0.0


# What a worker runs: (function, memory_mb, warm_up)
Job = tuple


def _watch_parent(alive: int | None) -> None:
    """End this worker the moment its parent has ended (`alive`: the read end of the
    parent's alive pipe; None: multiprocessing's sentinel of the parent, where workers are
    spawned), whatever it is doing: a task may run for minutes, and nobody wants its result.
    Its font folder is left to the next printshop process (render/fonts)."""
    if alive is None:
        import multiprocessing

        parent = multiprocessing.parent_process()
        if parent is None:
            return
        alive = parent.sentinel

    def watch() -> None:
        wait([alive])
        os._exit(0)

    threading.Thread(target=watch, name="printshop-parent-watch", daemon=True).start()


def _worker_main(conn, job: Job, alive: int | None) -> None:
    function, memory_mb, warm_up = job
    _watch_parent(alive)    # (its thread's stack reserved before the memory limit)
    if memory_mb:
        try:
            import resource

            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):
            pass
    # The full collection after every job (below) walked everything the worker keeps for
    # its life: ~80,000 objects, 22-27 ms a job. Frozen, they are never walked again and
    # it takes 1-2 ms. First the objects forked from the parent, before any collection
    # here: a collection writes to every object it visits, which would copy the parent's
    # pages into this process (6-14 MB less PSS for a 1,000-character pack's process tree).
    gc.freeze()
    if warm_up is not None:
        # imports and set-up every job needs, done while the parent is still checking its
        # inputs; a failure here is left for the first job to report
        try:
            warm_up()
        except Exception:
            pass
    # Then the warm-up's (WeasyPrint's modules, the bundled fonts), collected first so no
    # garbage is frozen. Nothing a job leaves is: a build's parsed stylesheets and images
    # are dropped when the next build starts (`serve`, the epoch in render/job.py), and a
    # frozen object that becomes garbage in a cycle is never freed.
    gc.collect()
    gc.freeze()
    while True:
        try:
            message = conn.recv()
        except (EOFError, KeyboardInterrupt):   # the parent is gone, or says it (Ctrl-C)
            return
        if message is None:
            return
        index, payload = message
        # A layout makes millions of objects; most die by reference counting, and the
        # cyclic collector, run every few hundred allocations, mostly walks live boxes.
        # Off during a job and one full collection after it: 10-20 % faster a page for
        # 1-2 MB more at the peak (measured; bench/pregens.py). Still off while the result
        # is sent: every object the job made is young, and the automatic collection the
        # pickling set off walked them all, as long as the one after it (87 ms after the
        # guide's Appendix; 0.3 s of CPU in a guide's build).
        gc.disable()
        try:
            result = ("ok", function(payload))
        except MemoryError:
            result = ("error", "ran out of memory")
        except RecursionError:
            result = ("error", "nesting too deep")
        except BaseException as exc:  # reported by the parent, with the traceback for --debug
            result = ("error", f"{exc.__class__.__name__}: {exc}\n{traceback.format_exc()}")
        try:
            conn.send((index, result))
        except Exception as exc:  # unpicklable result
            conn.send((index, ("error", f"cannot return result: {exc}")))
        del result, payload, message
        _collect_after_job()
        gc.enable()
        _give_back_memory()


# What the last job asked of the collection after it (render/weasy/resume.py, `after_job`)
_after_job: str | None = None


def after_job(what: str) -> None:
    """Called by a job: "freeze" what is alive after it (a layout kept for a later job,
    walked by every collection after each job otherwise: 0.1-0.2 s a job once a worker
    keeps a book's chapters), or "thaw": collect everything, frozen objects too (the
    kept layouts are done with, and a book's boxes hold each other in cycles that only a
    collection frees), then freeze what is left.

    A job that freezes is not collected first: the collection walked the whole layout it
    kept (390,000 objects after the guide's Appendix: 0.11 s, each first-pass layout of
    a book) to find the 3 % of them the job left in cycles. Those are frozen with it, and
    freed at the thaw (1-4 MB more at the peak, measured on the Appendix laid out three
    times)."""
    global _after_job
    if _after_job != "thaw":
        _after_job = what


def _collect_after_job() -> None:
    global _after_job
    if _after_job == "thaw":
        gc.unfreeze()
    if _after_job != "freeze":
        gc.collect()
    if _after_job is not None:
        gc.freeze()
    _after_job = None


def _give_back_memory() -> None:
    """Hand the heap a job freed back to the system (glibc keeps it otherwise): a worker
    then sits at its own size between jobs instead of at its biggest job's, which is what
    lets two workers and the parent stay under the memory a big pack may use."""
    global _malloc_trim
    if _malloc_trim is None:
        try:
            import ctypes

            _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):   # not glibc (macOS, musl): nothing to do
            _malloc_trim = False
    if _malloc_trim:
        _malloc_trim(0)


_malloc_trim: Any = None    # libc's malloc_trim, False where there is none


