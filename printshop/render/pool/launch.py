"""How render workers start and stop (what they run: workers.py).

Every pool starts its workers one way (`Launch`): a first worker forked from this process
runs the `preload` (WeasyPrint's import), then forks the others from itself, so the import
is paid once. render/pool/early.py makes a Launch as printshop starts, before any pool
exists, and the first pool adopts it.

A worker never outlives the process that started it, however that process ends (SIGTERM,
SIGKILL, Ctrl-C, a crash): each watches the read end of a pipe ("alive") whose only write
end is that process's, and exits the moment the pipe closes, idle or in the middle of a task
(workers._watch_parent). A fork copies every descriptor, so the first worker closes its
copy of the write end, and of the parent's ends of its pool's pipes, first thing: held by a
worker (of this pool or of a later one), they would keep the pipes open after the parent
had gone; this is what let every pool but the first outlive its parent.
"""

from __future__ import annotations

import gc
import os
import signal
from multiprocessing.connection import wait
from typing import Callable

from printshop.render.pool.workers import Job, _Worker, _worker_main


def start_workers(context, count: int, function: Callable, memory_mb: int,
                  warm_up: Callable | None = None, preload: Callable | None = None
                  ) -> list[_Worker]:
    """`count` new workers: the one printshop started early (render/pool/early.py) adopted
    if there is one and the pool preloads, the rest from a new `Launch`."""
    job = (function, memory_mb, warm_up)
    if context.get_start_method() != "fork":   # no fork here: each starts on its own
        return [_spawn(context, job) for _ in range(count)]
    workers: list[_Worker] = []
    if preload is not None:
        from printshop.render.pool import early

        workers = early.adopt(count, job)
    if len(workers) < count:
        workers += Launch(context, count - len(workers), preload, job).workers
    return workers


class Launch:
    """A first worker forked from this process, with pipes for `count` workers in all: it
    runs `preload`, then forks the `count - 1` others from itself. With `job` it starts
    working at once; without, it waits (WeasyPrint loaded) until `adopt` says how many
    siblings to fork and what to run (render/pool/early.py)."""

    def __init__(self, context, count: int, preload: Callable | None, job: Job | None = None,
                 name: str | None = None):
        alive = _alive_pipe()
        pipes = FirstWorkerPipes(context, count)
        first, siblings = pipes.child_side()
        process = context.Process(
            target=_first_worker_main,
            args=(first, siblings, pipes.parent_side(), alive, preload, job),
            daemon=True, name=name)
        process.start()
        self.workers = pipes.started(process)

    def adopt(self, count: int, job: Job) -> list[_Worker]:
        """Up to `count` of this launch's workers, told to run `job` (which must pickle: a
        module's function), or [] if the first worker has died."""
        first, *siblings = self.workers
        self.workers = []
        wanted = max(0, min(count, 1 + len(siblings)) - 1)
        try:
            if not first.process.is_alive():
                raise OSError("the first worker ended")
            first.conn.send((wanted, job))
        except OSError:
            first.conn.close()
            wanted, adopted = 0, []
        else:
            adopted = [first] + siblings[:wanted]
        for unwanted in siblings[wanted:]:
            unwanted.conn.close()
            unwanted.process.close()
        return adopted


# The "alive" pipe: (read, write), made once by the process that starts workers. Its write
# end is never in a worker, so the read end sees end-of-file the moment that process ends.
_alive: tuple[int, int] | None = None
_alive_pid = 0


def _alive_pipe() -> tuple[int, int]:
    global _alive, _alive_pid
    if _alive is None or _alive_pid != os.getpid():   # (a worker's is its parent's)
        _alive, _alive_pid = os.pipe(), os.getpid()   # not inherited by programs run
    return _alive


def _spawn(context, job: Job) -> _Worker:
    """A worker where there is no fork: it holds no end of the parent's (spawn passes it
    only its own), and watches multiprocessing's sentinel of its parent."""
    parent, child = context.Pipe()
    process = context.Process(target=_worker_main, args=(child, job, None), daemon=True)
    process.start()
    child.close()
    return _Worker(process, parent)


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

    def parent_side(self) -> tuple[list, list[int]]:
        """The parent's ends (its connections, the sentinels' read ends): closed by the first
        worker, so it and its siblings see them close with the parent."""
        return [parent for parent, _ in self.ends], [read for read, _ in self.sentinels]

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


def _first_worker_main(conn, siblings: list, parent_side: tuple, alive: tuple[int, int],
                       preload: Callable | None, job: Job | None) -> None:
    """The first worker of a pool: drops the parent's ends of every pipe, imports what every
    worker needs (`preload`: WeasyPrint, ~0.3 s of CPU), then forks the others from itself,
    so that import is done once rather than once a worker, on cores the parent needs to
    load and check the project. Without a `job` (started early), it waits for one first."""
    parent_conns, parent_sentinels = parent_side
    for parent_conn in parent_conns:    # through the objects: never closed twice
        parent_conn.close()
    for fd in (*parent_sentinels, alive[1]):
        os.close(fd)
    try:
        if preload is not None:
            run_preload(preload)
        if job is None:
            ready = wait([conn, alive[0]])
            if conn not in ready:          # the parent ended without rendering
                return
            wanted, job = conn.recv()
            for sibling_conn, sentinel in siblings[wanted:]:
                sibling_conn.close()
                os.close(sentinel)
            siblings = siblings[:wanted]
    except (KeyboardInterrupt, EOFError, OSError):   # Ctrl-C (the parent says it), or gone
        return
    fork_siblings_then_work(conn, siblings, job, alive[0])


def run_preload(preload: Callable) -> None:
    gc.freeze()     # what came from the parent, before any collection here (see below)
    try:
        preload()
    except Exception:   # left for the first job to report
        pass
    gc.collect()
    gc.freeze()     # the imports, shared by the siblings page for page


def fork_siblings_then_work(conn, siblings: list, job: Job, alive: int) -> None:
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
                _worker_main(sibling_conn, job, alive)
                from multiprocessing import util

                # as a multiprocessing worker does: its font folder (only its own
                # finalizers run); a private function of the standard library, untyped
                util._run_finalizers(0)  # type: ignore[attr-defined]
                util._run_finalizers()  # type: ignore[attr-defined]
                status = 0
            finally:
                os._exit(status)
        children.append(pid)
        sibling_conn.close()
        os.close(sentinel)
    try:
        _worker_main(conn, job, alive)
    finally:
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


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
