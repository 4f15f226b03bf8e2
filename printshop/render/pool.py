"""Child processes for rendering, with a wall-clock and a memory limit.

WeasyPrint on hostile CSS can loop for minutes or eat all memory, and a crash there must not
take the build (or yesterday's PDFs) with it. Each task runs in a worker process; the parent
waits on the workers' pipes *and* their process sentinels, so a worker that dies (killed,
out of memory) is noticed at once, and one that overruns its deadline is killed.
Workers live for the whole build, so each parses its stylesheets and fonts once.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Callable

DEFAULT_TIMEOUT = float(os.environ.get("PRINTSHOP_RENDER_TIMEOUT", "600"))
DEFAULT_MEMORY_MB = int(os.environ.get("PRINTSHOP_RENDER_MEMORY_MB", "4096"))


class TaskFailed(Exception):
    """A task could not finish: `reason` is 'timeout', 'died' or 'error'."""

    def __init__(self, index: int, reason: str, detail: str = ""):
        super().__init__(f"task {index}: {reason} {detail}".strip())
        self.index, self.reason, self.detail = index, reason, detail


@dataclass
class _Worker:
    process: Any
    conn: Any
    task: int | None = None
    deadline: float = 0.0


def _worker_main(conn, function: Callable, memory_mb: int,
                 warm_up: Callable | None = None) -> None:
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
    # are dropped when the next build starts (`serve`, the epoch in render/pdf.py), and a
    # frozen object that becomes garbage in a cycle is never freed.
    gc.collect()
    gc.freeze()
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        index, payload = message
        # A layout makes millions of objects; most die by reference counting, and the
        # cyclic collector, run every few hundred allocations, mostly walks live boxes.
        # Off during a job and one full collection after it: 10-20 % faster a page for
        # 1-2 MB more at the peak (measured; bench/pregens.py).
        gc.disable()
        try:
            result = ("ok", function(payload))
        except MemoryError:
            result = ("error", "ran out of memory")
        except RecursionError:
            result = ("error", "nesting too deep")
        except BaseException as exc:  # reported by the parent, with the traceback for --debug
            result = ("error", f"{exc.__class__.__name__}: {exc}\n{traceback.format_exc()}")
        finally:
            gc.enable()
        try:
            conn.send((index, result))
        except Exception as exc:  # unpicklable result
            conn.send((index, ("error", f"cannot return result: {exc}")))
        del result, payload, message
        gc.collect()
        _give_back_memory()


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


_malloc_trim = None


def _exit_status(process) -> str:
    process.join(1)
    return f"exit code {process.exitcode}" if process.exitcode is not None else ""


class WorkerPool:
    """Run `function(payload)` for many payloads on `processes` workers, results in order."""

    def __init__(self, function: Callable, processes: int | None = None,
                 timeout: float = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB,
                 warm_up: Callable | None = None):
        self.function = function
        self.warm_up = warm_up  # run by each worker when it starts
        self.processes = max(1, processes or os.cpu_count() or 1)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.workers: list[_Worker] = []
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self) -> None:
        self._start(self.processes)

    def _start(self, count: int) -> None:
        while len(self.workers) < count:
            parent, child = self.context.Pipe()
            process = self.context.Process(target=_worker_main,
                                           args=(child, self.function, self.memory_mb, self.warm_up),
                                           daemon=True)
            process.start()
            child.close()
            self.workers.append(_Worker(process, parent))

    def map(self, payloads: list, on_done: Callable[[int, Any], None] | None = None) -> list:
        results: list = [None] * len(payloads)
        pending = list(range(len(payloads)))
        self._start(min(self.processes, max(1, len(payloads))))
        busy = 0
        # The next payload, made while the workers are busy: payloads may be lazy (made
        # when taken), and a worker should not sit idle while its next one is made.
        made: dict[int, Any] = {}
        # Results wait for `on_done` until the freed workers have their next payloads: the
        # caller's work on a result (a pack's merge) must not keep a worker idle.
        finished: list[tuple[int, Any]] = []
        try:
            while pending or busy or finished:
                for worker in self.workers:
                    if worker.task is None and pending:
                        index = pending.pop(0)
                        payload = made.pop(index) if index in made else payloads[index]
                        worker.task = index
                        worker.deadline = time.monotonic() + self.timeout
                        try:
                            worker.conn.send((index, payload))
                        except OSError:   # it died while idle (workers start early)
                            raise TaskFailed(index, "died",
                                             _exit_status(worker.process)) from None
                        busy += 1
                if pending and pending[0] not in made:
                    made[pending[0]] = payloads[pending[0]]
                for index, value in finished:
                    on_done(index, value)
                finished = []
                active = [w for w in self.workers if w.task is not None]
                if not active:
                    continue
                remaining = max(0.0, min(w.deadline for w in active) - time.monotonic())
                ready = wait([w.conn for w in active] + [w.process.sentinel for w in active],
                             timeout=remaining)
                for worker in active:
                    if worker.conn in ready:
                        try:
                            index, (status, value) = worker.conn.recv()
                        except (EOFError, OSError):
                            raise TaskFailed(worker.task, "died") from None
                        worker.task = None
                        busy -= 1
                        if status != "ok":
                            raise TaskFailed(index, "error", value)
                        results[index] = value
                        if on_done:
                            finished.append((index, value))
                    elif worker.process.sentinel in ready:
                        raise TaskFailed(worker.task, "died",
                                         f"exit code {worker.process.exitcode}")
                    elif time.monotonic() >= worker.deadline:
                        raise TaskFailed(worker.task, "timeout", f"{self.timeout:g}")
        except BaseException:
            self.kill()
            raise
        return results

    def kill(self) -> None:
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.kill()
            worker.process.join(5)
            worker.conn.close()
        self.workers = []

    def close(self) -> None:
        for worker in self.workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in self.workers:
            worker.process.join(5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(5)
            worker.conn.close()
        self.workers = []
