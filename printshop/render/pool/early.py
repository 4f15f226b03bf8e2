"""The first render worker, started as printshop starts, before its own modules load.

A build's workers used to start once the command line and the products' modules were
imported (0.2 s), and the first then spent 0.3 s importing WeasyPrint before it forked the
others: the parent, ready to hand out its first job, waited for them (a third of the Event
Deck's 2 s). Started first thing (`printshop.launch`), that import overlaps the parent's:
the worker waits, WeasyPrint loaded, until the build's pool adopts it (`adopt`) and tells it
how many of the siblings prepared for it to fork (render/pool/workers.py does the rest as for any
first worker). A command that renders nothing never adopts it; it ends with the parent:
multiprocessing stops a daemon process at exit, and the worker holds no end of its own pipe,
so it sees the pipe close if the parent is killed.
"""

from __future__ import annotations

import os

RENDERING_COMMANDS = ("build", "bundle", "roll", "serve")

_early = None   # the early worker and its siblings-to-be, as render/workers `_Worker`s


def renders(argv: list[str]) -> bool:
    """Whether this command line will render (and not just print its help)."""
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    return command in RENDERING_COMMANDS and not {"-h", "--help"} & set(argv)


def start(count: int | None = None) -> None:
    """Start the first worker, with pipes for `count` workers in all (one a core)."""
    global _early
    import multiprocessing

    if _early is not None or "fork" not in multiprocessing.get_all_start_methods():
        return
    from printshop.render.pool.workers import FirstWorkerPipes

    context = multiprocessing.get_context("fork")
    pipes = FirstWorkerPipes(context, max(1, count or os.cpu_count() or 1))
    first, siblings = pipes.child_side()
    process = context.Process(target=_early_main, args=(first, siblings, pipes.parent_fds()),
                              daemon=True, name="printshop-render-0")
    process.start()
    _early = pipes.started(process)


def adopt(count: int, function, memory_mb: int, warm_up) -> list:
    """The early worker and up to `count - 1` siblings as a pool's workers (render/workers
    `_Worker`s), or [] if there is none (or it died)."""
    global _early
    if _early is None:
        return []
    first, *siblings = _early
    _early = None
    wanted = max(0, min(count, 1 + len(siblings)) - 1)
    try:
        if not first.process.is_alive():
            raise OSError("the early worker ended")
        first.conn.send((wanted, function, memory_mb, warm_up))
    except OSError:
        first.conn.close()
        wanted, adopted = 0, []
    else:
        adopted = [first] + siblings[:wanted]
    for unwanted in siblings[wanted:]:
        unwanted.conn.close()
        unwanted.process.close()
    return adopted


def _early_main(conn, siblings: list, parent_fds: list[int]) -> None:
    try:
        _wait_for_adoption(conn, siblings, parent_fds)
    except KeyboardInterrupt:   # Ctrl-C: the parent says so, once; this worker just ends
        pass


def _wait_for_adoption(conn, siblings: list, parent_fds: list[int]) -> None:
    for fd in parent_fds:   # the parent's ends: closed here, so their closing is seen here
        try:
            os.close(fd)
        except OSError:
            pass
    from printshop.render.pool import workers
    from printshop.render.job import preload

    workers.run_preload(preload)
    try:
        wanted, function, memory_mb, warm_up = conn.recv()
    except (EOFError, OSError):   # the parent ended without rendering
        return
    for sibling_conn, sentinel in siblings[wanted:]:
        sibling_conn.close()
        os.close(sentinel)
    workers.fork_siblings_then_work(conn, siblings[:wanted], function, memory_mb, warm_up)
