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


class _Batch:
    """One `map` call's tasks: its caller waits for them (and runs its own `on_done`) while
    whichever caller holds the pump hands every batch's tasks to the workers, the oldest
    batch first."""

    def __init__(self, payloads, on_done):
        import contextvars

        self.payloads, self.on_done = payloads, on_done
        self.results: list = [None] * len(payloads)
        self.pending = list(range(len(payloads)))
        self.made: dict[int, Any] = {}      # the next payload, made ahead
        self.running = 0
        self.finished: list[tuple[int, Any]] = []   # results waiting for on_done
        self.error: BaseException | None = None
        # payloads made lazily are made in their caller's context (what they read is
        # recorded for its product), whichever thread makes them
        self.context = contextvars.copy_context()

    @property
    def over(self) -> bool:
        return self.error is not None or (not self.pending and not self.running)

    def make(self, index: int):
        return self.context.run(self.payloads.__getitem__, index)


class WorkerPool:
    """Run `function(payload)` for many payloads on `processes` workers, results in order.

    Several threads may `map` at once (a build's products, `serve`'s preview and HTML
    editions): the workers take their tasks in turn, so one caller's quiet moments (its
    own work between renders) are another's rendering time."""

    def __init__(self, function: Callable, processes: int | None = None,
                 timeout: float = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB,
                 warm_up: Callable | None = None):
        import threading

        self.function = function
        self.warm_up = warm_up  # run by each worker when it starts
        self.processes = max(1, processes or os.cpu_count() or 1)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.workers: list[_Worker] = []
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._state = threading.Condition()   # guards the batches and the workers' tasks
        self._pump = threading.Lock()         # held by the caller handing out tasks
        self._batches: list[_Batch] = []
        self._wake_recv, self._wake_send = multiprocessing.Pipe(duplex=False)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self) -> None:
        with self._state:
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
        batch = _Batch(payloads, on_done)
        with self._state:
            self._start(min(self.processes, max(1, len(payloads))))
            self._batches.append(batch)
        self._wake_send.send_bytes(b"")   # a pump waiting on busy workers looks again
        try:
            while True:
                if self._pump.acquire(blocking=False):
                    try:
                        self._run_pump(batch)
                    finally:
                        self._pump.release()
                        with self._state:
                            self._state.notify_all()   # another caller may pump now
                with self._state:
                    while not batch.finished and not batch.over and self._pump.locked():
                        self._state.wait(0.5)
                    finished, batch.finished = batch.finished, []
                for index, value in finished:   # in the caller's own thread
                    batch.on_done(index, value)
                if batch.over and not batch.finished:
                    break
        finally:
            with self._state:
                if batch in self._batches:
                    self._batches.remove(batch)
                batch.pending = []
        if batch.error is not None:
            raise batch.error
        return batch.results

    def _run_pump(self, mine: _Batch) -> None:
        """Hand out tasks and take results until `mine` is over (or has results for its
        caller to handle): a freed worker gets its next task before anyone's on_done."""
        try:
            while not mine.over:
                self._dispatch()
                if mine.finished:
                    return
                with self._state:
                    active = [w for w in self.workers if w.task is not None]
                if not active:
                    continue
                remaining = max(0.0, min(w.deadline for w in active) - time.monotonic())
                ready = wait([w.conn for w in active] + [w.process.sentinel for w in active] +
                             [self._wake_recv], timeout=remaining)
                while self._wake_recv.poll():
                    self._wake_recv.recv_bytes()
                for worker in active:
                    self._collect(worker, ready)
        except BaseException as error:   # the pump itself failed (interrupted): all fail
            self.kill()
            with self._state:
                for batch in self._batches:
                    batch.error = batch.error or error
                    batch.running = 0
                self._state.notify_all()
            raise

    def _dispatch(self) -> None:
        with self._state:
            for worker in self.workers:
                if worker.task is not None:
                    continue
                batch = next((b for b in self._batches if b.pending and b.error is None), None)
                if batch is None:
                    break
                index = batch.pending.pop(0)
                try:
                    payload = batch.made.pop(index) if index in batch.made else \
                        batch.make(index)
                except Exception as error:   # a lazy payload that could not be made
                    self._fail(batch, error)
                    continue
                worker.task = (batch, index)
                worker.deadline = time.monotonic() + self.timeout
                try:
                    worker.conn.send((index, payload))
                except OSError:   # it died while idle (workers start early)
                    worker.task = None
                    self._fail(batch, TaskFailed(index, "died", _exit_status(worker.process)))
                    self._replace(worker)
                    continue
                batch.running += 1
            ahead = next((b for b in self._batches if b.pending and b.error is None), None)
        if ahead is not None and ahead.pending and ahead.pending[0] not in ahead.made:
            index = ahead.pending[0]   # made while the workers are busy
            try:
                ahead.made[index] = ahead.make(index)
            except Exception:
                pass   # made (and reported) again when its turn comes

    def _collect(self, worker: _Worker, ready) -> None:
        batch, index = worker.task
        failed = None
        if worker.conn in ready:
            try:
                index, (status, value) = worker.conn.recv()
            except (EOFError, OSError):
                failed = TaskFailed(index, "died")
            else:
                if status != "ok":
                    failed = TaskFailed(index, "error", value)
        elif worker.process.sentinel in ready:
            failed = TaskFailed(index, "died", f"exit code {worker.process.exitcode}")
        elif time.monotonic() >= worker.deadline:
            failed = TaskFailed(index, "timeout", f"{self.timeout:g}")
        else:
            return
        with self._state:
            worker.task = None
            batch.running -= 1
            if failed is not None:
                self._fail(batch, failed)
                if failed.reason != "error":
                    self._replace(worker)
            elif batch.error is None:
                batch.results[index] = value
                if batch.on_done:
                    batch.finished.append((index, value))
            self._state.notify_all()

    def _fail(self, batch: _Batch, error: BaseException) -> None:
        if batch.error is None:
            batch.error = error
        batch.pending = []

    def _replace(self, worker: _Worker) -> None:
        """A worker that died or overran: killed, and another started in its place."""
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(5)
        worker.conn.close()
        self.workers.remove(worker)
        if any(b.pending for b in self._batches):
            self._start(len(self.workers) + 1)

    def kill(self) -> None:
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.kill()
            worker.process.join(5)
            worker.conn.close()
        self.workers = []

    def close_if_idle(self) -> bool:
        """`close`, unless a caller is waiting for tasks (on another thread)."""
        with self._state:
            if self._batches:
                return False
            self.close()
            return True

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
