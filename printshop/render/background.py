"""Work on a thread of its own while the caller renders: a render (`Background`: a pack's
cover while its sheets' forms are prepared, a rider handed over by `Renderer.also`), any
work whose renders wait for idle workers (`IdleWork`: the book's HTML edition), or the
imports the caller needs once the render is over (`import_while_waiting`)."""

from __future__ import annotations

import contextvars
import importlib
import os
import sys
import threading

from printshop.render.job import RenderResult
from printshop.render.pool.batches import Idle


class Background:
    """A render on a thread of its own, in a copy of the caller's context (what it reads is
    recorded for the build like any render's); `result()` returns it or raises its error.
    The caller goes on once its jobs are in the pool's list (or done): the thread, left to
    get there while the caller works, took 0.4 s (each of its waits for the interpreter
    lock), and the caller's next jobs went first."""

    def __init__(self, render, jobs, on_thread: bool = True):
        self._results: list[RenderResult] = []
        self._error: BaseException | None = None
        self._listed = threading.Event()
        self.priority: Idle | None = None   # an `also` rider's (set by the renderer)
        context = contextvars.copy_context()
        self._thread = threading.Thread(target=context.run, args=(self._run, render, jobs),
                                        daemon=True)
        if not on_thread:
            context.run(self._run, render, jobs)
            return
        self._thread.start()
        self._listed.wait()

    def _run(self, render, jobs) -> None:
        from printshop.render.pool.pool import on_batch_listed

        on_batch_listed.set(self._listed.set)
        try:
            self._results = render(jobs)
        except BaseException as error:   # given to the caller by result()
            self._error = error
        finally:
            self._listed.set()   # nothing to render (all cached), or it failed first

    def join(self) -> None:
        if self._thread.ident is not None:
            self._thread.join()

    def result(self) -> list[RenderResult]:
        self.join()
        if self._error is not None:
            raise self._error
        return self._results


class IdleWork:
    """`make()` on a thread of its own, in a copy of the caller's context (what it reads and
    warns is the caller's product's), its renders idle batches until `join` or `result`:
    the book's HTML edition composed while the workers lay the PDF out and the parent only
    waits for them (its Jinja, and the fillable sheet it links, were ~1 s after the PDF).
    Serial (`--serial`): no thread; `make()` runs where its result is first asked for, so a
    debugger sees one thing at a time, in the order a build without it did them."""

    def __init__(self, make, pool):
        from printshop.render.pool.batches import idle_batch

        self._value = None
        self._error: BaseException | None = None
        self._pool, self._priority = pool, Idle()
        self._make = make if pool.serial else None
        self._thread: threading.Thread | None = None
        # started once the caller's renders are handed out and it only waits: before, its
        # turns with the interpreter held up the book's first jobs (~0.1 s)
        self._start = pool.waiting()
        if self._make is not None:
            return
        context = contextvars.copy_context()
        context.run(idle_batch.set, self._priority)
        self._thread = threading.Thread(target=context.run, args=(self._run, make),
                                        daemon=True)
        self._thread.start()

    def _run(self, make) -> None:
        self._start.wait()
        try:
            self._value = make()
        except BaseException as error:   # raised where the result is asked for
            self._error = error

    def join(self) -> None:
        if self._make is not None:
            make, self._make = self._make, None
            self._run(make)
            return
        self._priority.hurry()
        self._pool.wake()
        self._start.set()
        if self._thread is not None:
            self._thread.join()

    def result(self):
        self.join()
        if self._error is not None:
            raise self._error
        return self._value


# the thread importing ahead (import_while_waiting): a fork waits for it, so that no child
# starts with a module's import lock held by a thread it does not have
_importing: threading.Thread | None = None


def import_while_waiting(pool, modules: tuple[str, ...]) -> None:
    """Import `modules` on a thread once the workers have their first tasks and the caller
    only waits for them: what the parent needs after the render (pikepdf joins the PDFs,
    and its import, 54 ms, was at the end of every build). Serial: nothing (a module is
    imported where it is used)."""
    global _importing
    if pool.serial or all(name in sys.modules for name in modules):
        return
    started = pool.waiting()

    def run() -> None:
        started.wait()
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:   # (imported again where it is used, and reported there)
                pass

    _importing = threading.Thread(target=run, daemon=True, name="printshop-imports")
    _importing.start()


def _before_fork() -> None:
    thread = _importing
    if thread is not None and thread.is_alive() and thread is not threading.current_thread():
        thread.join()


os.register_at_fork(before=_before_fork)
