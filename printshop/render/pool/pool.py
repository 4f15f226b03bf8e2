"""Tasks handed to child processes for rendering, with a wall-clock and a memory limit.

WeasyPrint on hostile CSS can loop for minutes or eat all memory, and a crash there must not
take the build (or yesterday's PDFs) with it. Each task runs in a worker process
(render/pool/workers.py); the parent waits on the workers' pipes *and* their process sentinels,
so a worker that dies (killed, out of memory) is noticed at once, and one that overruns its
deadline is killed. Workers live for the whole build, so each parses its stylesheets and
fonts once.

Several threads may give the pool tasks at once (a build's products, `serve`'s preview and
HTML editions): each call is a batch; whichever caller holds the pump hands out every
batch's tasks, the oldest batch first, and each caller handles its own results on its own
thread (render/pool/batches.py). One caller's quiet moments (its own work between renders)
are another's rendering time.

Serial (PRINTSHOP_SERIAL=1, `--serial`): no worker at all; each task runs in the calling
process (render/pool/serial.py).
"""

from __future__ import annotations

import contextvars
import multiprocessing
import os
import threading
import time
from multiprocessing.connection import wait
from typing import Any, Callable

from printshop.render.pool import early
from printshop.render.pool.batches import Batch, InOrder
from printshop.render.pool.launch import _exit_status, start_workers, stop_worker
from printshop.render.pool.serial import InProcess
from printshop.render.pool.workers import _Worker

# Called (in the calling thread's context) once a call's batch is in the pool's list: a
# render started on a thread of its own (Renderer.in_background) lets its starter go on
# only then, so its jobs come before those the starter asks for next
on_batch_listed: contextvars.ContextVar[Callable[[], None] | None] = \
    contextvars.ContextVar("on_batch_listed", default=None)

DEFAULT_TIMEOUT = float(os.environ.get("PRINTSHOP_RENDER_TIMEOUT", "600"))
DEFAULT_MEMORY_MB = int(os.environ.get("PRINTSHOP_RENDER_MEMORY_MB", "4096"))


class TaskFailed(Exception):
    """A task could not finish: `reason` is 'timeout', 'died' or 'error'."""

    def __init__(self, index: int, reason: str, detail: str = ""):
        super().__init__(f"task {index}: {reason} {detail}".strip())
        self.index, self.reason, self.detail = index, reason, detail


class WorkerPool:
    """Run `function(payload)` for many payloads on `processes` workers."""

    def __init__(self, function: Callable, processes: int | None = None,
                 timeout: float = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB,
                 warm_up: Callable | None = None, preload: Callable | None = None,
                 serial: bool | None = None):
        self.function = function
        self.serial = early.serial() if serial is None else serial
        self._serial = InProcess(function, preload, warm_up) if self.serial else None
        self.warm_up = warm_up  # run by each worker when it starts
        self.preload = preload  # run once, by the first worker, before it forks the others
        self.processes = max(1, processes or os.cpu_count() or 1)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.workers: list[_Worker] = []
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._state = threading.Condition()   # guards the batches and the workers' tasks
        self._pump = threading.Lock()         # held by the caller handing out tasks
        self._batches: list[Batch] = []
        self._wake_recv, self._wake_send = multiprocessing.Pipe(duplex=False)
        self._on_wait: list[threading.Event] = []   # set when the pump next waits (`waiting`)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self) -> None:
        with self._state:
            self._start(self.processes)

    def _start(self, count: int) -> None:
        if self.serial:
            return
        missing = count - len(self.workers)
        if missing > 0:
            self.workers += start_workers(self.context, missing, self.function,
                                          self.memory_mb, self.warm_up, self.preload)

    def map(self, payloads: Any, on_done: Callable[[int, Any], None] | None = None) -> list:
        """`function(payload)` of each payload, in order; `on_done(index, result)` as each
        finishes (in this thread). `payloads`: a list, or anything with a length whose items
        are made when taken (renderer._Stamped)."""
        results: list = [None] * len(payloads)

        def done(index: int, value) -> None:
            results[index] = value
            if on_done:
                on_done(index, value)

        self.run(InOrder(payloads), done, min(self.processes, max(1, len(payloads))))
        return results

    def run(self, queue, on_done: Callable[[int, Any], None],
            processes: int | None = None) -> None:
        """Hand `queue`'s payloads to the workers until it has none left and none of them
        is running. `on_done(index, result)` runs in this thread, after the freed worker has
        its next task, and may add to the queue: a task can follow from another's result."""
        batch = Batch(queue, on_done)
        if self._serial is not None:
            listed = on_batch_listed.get()
            if listed is not None:
                listed()
            return self._serial.run(batch)
        with self._state:
            self._start(processes or self.processes)
            self._batches.append(batch)
        listed = on_batch_listed.get()
        if listed is not None:
            listed()
        self._wake()
        try:
            while True:
                if self._pump.acquire(blocking=False):
                    try:
                        self._run_pump(batch)
                    finally:
                        self._pump.release()
                        with self._state:
                            self._state.notify_all()   # another caller may pump now
                with self._state:   # (a result counts as finished and not running at once)
                    while not batch.finished and not batch.over and self._pump.locked():
                        self._state.wait(0.5)
                    finished, over = bool(batch.finished), batch.over
                if finished:
                    batch.handle()
                    self._wake()     # a pump on another thread takes what it added
                elif over:
                    break
        finally:
            with self._state:
                if batch in self._batches:
                    self._batches.remove(batch)
        if batch.error is not None:
            raise batch.error

    def waiting(self) -> threading.Event:
        """An event set the next time the workers have their tasks and the pump only waits
        for them: work started then on another thread (`IdleWork`) does not take the
        interpreter from the caller while it makes and hands out the first tasks."""
        event = threading.Event()
        if self.serial:
            event.set()
        else:
            with self._state:
                self._on_wait.append(event)
        return event

    def wake(self) -> None:
        """A pump waiting on busy workers looks again (a batch hurried: Renderer.also)."""
        self._wake()

    def _wake(self) -> None:
        """A pump waiting on busy workers looks again (a new batch, new tasks)."""
        try:
            self._wake_send.send_bytes(b"")
        except OSError:
            pass

    def _run_pump(self, mine: Batch) -> None:
        """Hand out tasks and take results until `mine` is over or has results for its
        caller: a freed worker gets its next task before anyone's on_done runs, unless the
        caller's queue says its results come first (`results_first`: on_done adds urgent
        tasks, a card's fit following the sheet that overflowed)."""
        try:
            while not mine.over:
                if mine.finished and getattr(mine.queue, "results_first", False):
                    return   # its on_done adds the tasks that should go next (urgent ones)
                self._dispatch()
                if mine.finished or mine.over:
                    return
                with self._state:
                    active = [w for w in self.workers if w.task is not None]
                if not active:
                    if not self.workers:   # all lost (died while every queue was dry)
                        with self._state:
                            self._start(self.processes)
                        continue
                    with self._state:
                        # an idle batch (`mine`) held back while another's results wait for
                        # their caller: wait for it to hand them over, rather than spin
                        held = mine.rank == 2 and not mine.dry and \
                            any(b.finished for b in self._batches if b.rank < 2)
                        if held:
                            self._state.wait(0.05)
                    if held:
                        continue
                    return   # every queue is dry: `mine` is over, or its on_done adds
                ahead = next((b for b in self._batches if not b.dry and b.error is None),
                             None)
                if ahead is not None:
                    ahead.prepare()   # its next payload made while the workers are busy
                with self._state:
                    on_wait, self._on_wait = self._on_wait, []
                for event in on_wait:
                    event.set()
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
        live = frozenset(w.process.pid for w in self.workers if w.process.pid)
        for worker in list(self.workers):
            if worker.task is not None:
                continue
            passed: list[Batch] = []   # batches whose tasks are all for other workers
            while True:   # the oldest batch with a task to give
                with self._state:
                    candidates = [b for b in self._batches if not b.dry and b.error is None
                                  and b not in passed]
                    # an idle batch waits while another's results are not handled yet
                    # (its on_done may add the tasks that should go next)
                    waiting = any(b.finished for b in self._batches if b.rank < 2)
                candidates.sort(key=lambda b: b.rank)   # (stable: the oldest first in each)
                if waiting:
                    candidates = [b for b in candidates if b.rank < 2]
                if not candidates:
                    break
                batch = candidates[0]
                try:
                    item = batch.take(worker.process.pid or 0, live)
                except Exception as error:   # a lazy payload that could not be made
                    self._fail(batch, error)
                    continue
                if item is not None:
                    break
                if not batch.dry:
                    passed.append(batch)
            if not candidates:
                continue
            index, payload = item
            with self._state:
                worker.task = (batch, index)
                worker.deadline = time.monotonic() + self.timeout
                batch.running += 1
                try:
                    worker.conn.send((index, payload))
                except OSError:   # it died while idle (workers start early)
                    worker.task = None
                    batch.running -= 1
                    self._fail(batch, TaskFailed(index, "died",
                                                 _exit_status(worker.process)))
                    self._replace(worker)

    def _collect(self, worker: _Worker, ready) -> None:
        batch, index = worker.task
        failed = None
        if worker.conn in ready:
            try:
                got, outcome = worker.conn.recv()
            except (EOFError, OSError):
                failed = TaskFailed(index, "died", _exit_status(worker.process))
            else:
                if got is None:   # a forked worker's pid, its first message
                    worker.process.pid = outcome
                    return
                status, value = outcome
                if status != "ok":
                    failed = TaskFailed(index, "error", value)
        elif worker.process.sentinel in ready:
            failed = TaskFailed(index, "died", _exit_status(worker.process))
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
                batch.finished.append((index, value))
            self._state.notify_all()

    def _fail(self, batch: Batch, error: BaseException) -> None:
        with self._state:
            if batch.error is None:
                batch.error = error
            self._state.notify_all()

    def _replace(self, worker: _Worker) -> None:
        """A worker that died or overran: killed, and another started in its place."""
        stop_worker(worker, kill=True)
        self.workers.remove(worker)
        if any(not b.dry and b.error is None for b in self._batches):
            self._start(len(self.workers) + 1)

    def kill(self) -> None:
        for worker in self.workers:
            stop_worker(worker, kill=True)
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
            stop_worker(worker, kill=False)
        self.workers = []
