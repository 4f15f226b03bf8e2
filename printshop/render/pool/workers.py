"""The render worker processes (render/pool/pool.py hands them their tasks).

Each runs tasks with a memory limit, the garbage collector off during a task and the heap
given back after it. With a `preload` (WeasyPrint's import), the first worker runs it and
forks the others from itself, so the import is paid once.
"""

from __future__ import annotations

import gc
import os
import signal
import traceback
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Callable


@dataclass
class _Worker:
    process: Any
    conn: Any
    task: int | None = None
    deadline: float = 0.0


def start_workers(context, count: int, function: Callable, memory_mb: int,
                  warm_up: Callable | None = None, preload: Callable | None = None
                  ) -> list[_Worker]:
    """`count` new workers. With `preload` and fork, one is started here and forks the
    others once it has run `preload` (_first_worker_main); or the one started as printshop
    started (render/pool/early.py) is adopted and forks them."""
    fork = context.get_start_method() == "fork"
    if preload is not None and fork:
        from printshop.render.pool import early

        adopted = early.adopt(count, function, memory_mb, warm_up)
        if adopted:
            return adopted + (start_workers(context, count - len(adopted), function,
                                            memory_mb, warm_up, preload)
                              if count > len(adopted) else [])
    if count > 1 and preload is not None and fork:
        return _start_forked(context, count, function, memory_mb, warm_up, preload)
    workers = []
    for _ in range(count):
        parent, child = context.Pipe()
        process = context.Process(target=_worker_main,
                                  args=(child, function, memory_mb, warm_up), daemon=True)
        process.start()
        child.close()
        workers.append(_Worker(process, parent))
    return workers


def _start_forked(context, count, function, memory_mb, warm_up, preload) -> list[_Worker]:
    pipes = FirstWorkerPipes(context, count)
    first, siblings = pipes.child_side()
    process = context.Process(
        target=_first_worker_main, args=(first, siblings, function, memory_mb, preload,
                                         warm_up),
        daemon=True)
    process.start()
    return pipes.started(process)


class FirstWorkerPipes:
    """The pipes of a first worker and the `count - 1` siblings it forks: each worker's
    own pipe to the parent, and a sentinel pipe for each sibling (it holds the write end
    open for its life: the parent sees it end there)."""

    def __init__(self, context, count: int):
        self.ends = [context.Pipe() for _ in range(count)]
        self.sentinels = [os.pipe() for _ in range(count - 1)]

    def child_side(self) -> tuple:
        """(the first worker's end, [(a sibling's end, its sentinel's write end)])."""
        return self.ends[0][1], [(child, write) for (_, child), (_, write)
                                 in zip(self.ends[1:], self.sentinels)]

    def parent_fds(self) -> list[int]:
        """The parent's ends, for the first worker to close (so it sees them close)."""
        return [parent.fileno() for parent, _ in self.ends] + \
            [read for read, _ in self.sentinels]

    def started(self, process) -> list[_Worker]:
        """Once the first worker runs: the children's ends closed here, and every worker
        as the pool sees it (the siblings not forked yet)."""
        for _, child in self.ends:
            child.close()
        for _, write in self.sentinels:
            os.close(write)
        return [_Worker(process, self.ends[0][0])] + [
            _Worker(_Forked(read), parent)
            for (parent, _), (read, _) in zip(self.ends[1:], self.sentinels)]


def stop_worker(worker: _Worker, kill: bool) -> None:
    """Ask a worker to stop (`kill`: at once), wait for it, and close what leads to it."""
    if not kill:
        try:
            worker.conn.send(None)
        except OSError:
            pass
        worker.process.join(5)
    if worker.process.is_alive():
        if isinstance(worker.process, _Forked):
            worker.process.learn_pid(worker.conn)
        worker.process.kill()
        worker.process.join(5)
    worker.conn.close()
    if isinstance(worker.process, _Forked):
        worker.process.close()


def _first_worker_main(conn, siblings: list, function: Callable, memory_mb: int,
                       preload: Callable, warm_up: Callable | None = None) -> None:
    """The first worker of a pool: imports what every worker needs (`preload`: WeasyPrint,
    ~0.3 s of CPU), then forks the others from itself, so that import is done once rather
    than once a worker, on cores the parent needs to load and check the project."""
    try:
        run_preload(preload)
    except KeyboardInterrupt:   # Ctrl-C: the parent says so, once; this worker just ends
        return
    fork_siblings_then_work(conn, siblings, function, memory_mb, warm_up)


def run_preload(preload: Callable) -> None:
    gc.freeze()     # what came from the parent, before any collection here (see below)
    try:
        preload()
    except Exception:   # left for the first job to report
        pass
    gc.collect()
    gc.freeze()     # the imports, shared by the siblings page for page


def fork_siblings_then_work(conn, siblings: list, function: Callable, memory_mb: int,
                            warm_up: Callable | None) -> None:
    """Fork a worker for each of `siblings`, then be one (`_worker_main`). Each sibling gets
    its own pipe to the parent and a sentinel pipe it holds open for its life (the parent
    sees it end there: it is this process's child, not the parent's), and sends its pid
    first. Then every worker warms up on its own (its fonts)."""
    children = []
    for number, (sibling_conn, sentinel) in enumerate(siblings):
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                conn.close()
                for later_conn, later_sentinel in siblings[number + 1:]:
                    later_conn.close()
                    os.close(later_sentinel)
                sibling_conn.send((None, os.getpid()))
                _worker_main(sibling_conn, function, memory_mb, warm_up)
                from multiprocessing import util

                util._run_finalizers(0)     # as a multiprocessing worker does: its font
                util._run_finalizers()      # folder (only its own finalizers run)
                status = 0
            finally:
                os._exit(status)
        children.append(pid)
        sibling_conn.close()
        os.close(sentinel)
    try:
        _worker_main(conn, function, memory_mb, warm_up)
    finally:
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


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
        _collect_after_job()
        _give_back_memory()


# What the last job asked of the collection after it (render/weasy/resume.py, `after_job`)
_after_job: str | None = None


def after_job(what: str) -> None:
    """Called by a job: "freeze" what is alive after it (a layout kept for a later job,
    walked by every collection after each job otherwise: 0.1-0.2 s a job once a worker
    keeps a book's chapters), or "thaw": collect everything, frozen objects too (the
    kept layouts are done with, and a book's boxes hold each other in cycles that only a
    collection frees), then freeze what is left."""
    global _after_job
    if _after_job != "thaw":
        _after_job = what


def _collect_after_job() -> None:
    global _after_job
    if _after_job == "thaw":
        gc.unfreeze()
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


_malloc_trim = None


def _exit_status(process) -> str:
    process.join(1)
    return f"exit code {process.exitcode}" if process.exitcode is not None else ""


class _Forked:
    """A worker the first worker forked (its child, not this process's), as the pool sees
    it: `sentinel` is the read end of a pipe the worker holds open for its life, ready here
    once it has ended; `pid` is its first message (see `learn_pid`)."""

    exitcode = None     # not this process's child: its exit status is not ours to read

    def __init__(self, sentinel: int):
        self.sentinel: int | None = sentinel
        self.pid: int | None = None

    def learn_pid(self, conn) -> None:
        """Read the worker's pid if it was sent and not yet read (to kill it)."""
        try:
            if self.pid is None and conn.poll(0):
                index, outcome = conn.recv()
                if index is None:
                    self.pid = outcome
        except (EOFError, OSError):
            pass

    def is_alive(self) -> bool:
        return self.sentinel is not None and not wait([self.sentinel], 0)

    def kill(self) -> None:
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def join(self, timeout: float | None = None) -> None:
        if self.sentinel is not None:
            wait([self.sentinel], timeout)

    def close(self) -> None:
        if self.sentinel is not None:
            os.close(self.sentinel)
            self.sentinel = None
