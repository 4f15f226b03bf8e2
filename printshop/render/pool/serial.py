"""Serial rendering (PRINTSHOP_SERIAL=1, `--serial`): a pool's tasks run in the calling
process, one at a time, so a debugger's breakpoints (`breakpoint()` in a job) and a profiler
(`python -m cProfile -m printshop build --serial`) see the rendering, which they never see
in a worker process. The results are byte for byte those of the workers (tests/
test_render_serial.py); there is no time or memory limit, and a task that fails raises the
same TaskFailed a worker's failure does, with the original exception as its cause."""

from __future__ import annotations

import os
import threading
import traceback
from typing import Callable


class InProcess:
    """What a pool's workers would do, done here: `preload` and `warm_up` once (a failure
    there left for the first task to report, as in a worker), then each task."""

    def __init__(self, function: Callable, preload: Callable | None,
                 warm_up: Callable | None):
        self.function, self.preload, self.warm_up = function, preload, warm_up
        self._lock = threading.Lock()   # one task at a time, whichever thread asks
        self._ready = False

    def run(self, batch) -> None:
        """Each of a pool batch's tasks, then its on_done, in the caller's thread. A task
        held for a given worker (render/weasy/resume.py) is this process's."""
        me = os.getpid()
        while (item := batch.take(me, frozenset({me}))) is not None:
            index, payload = item
            with self._lock:
                self._warm_up()
                value = self._task(index, payload)
            batch.finished.append((index, value))
            batch.handle()

    def _warm_up(self) -> None:
        if self._ready:
            return
        self._ready = True
        for step in (self.preload, self.warm_up):
            if step is not None:
                try:
                    step()
                except Exception:
                    pass

    def _task(self, index: int, payload):
        from printshop.render.pool import workers
        from printshop.render.pool.pool import TaskFailed

        try:
            return self.function(payload)
        except MemoryError:
            raise TaskFailed(index, "error", "ran out of memory") from None
        except RecursionError:
            raise TaskFailed(index, "error", "nesting too deep") from None
        except Exception as exc:   # as a worker reports it
            raise TaskFailed(index, "error", f"{exc.__class__.__name__}: {exc}\n"
                             f"{traceback.format_exc()}") from exc
        finally:
            workers._after_job = None   # a worker's collection after a job: not here
