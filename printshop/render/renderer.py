"""The renderer: render jobs handed to worker processes (render/pool/pool.py), each run by
`pdf.render_job`; results taken from the build's chunk cache where it has them, a small job
handed over early rendered while a worker would wait (`also`), every failure turned into a
PrintshopError."""

from __future__ import annotations

import contextlib
import contextvars
import threading

from printshop import deps
from printshop.errors import PrintshopError, Problem
from printshop.render.background import Background, IdleWork
from printshop.render.job import Cached, RenderJob, RenderResult, preload, render_job, warm_up
from printshop.render.job_warnings import unique as _unique
from printshop.render.pool.pool import DEFAULT_TIMEOUT, TaskFailed, WorkerPool


class Renderer:
    """Renders jobs on worker processes; turns every failure into a PrintshopError."""

    def __init__(self, processes: int | None = None, timeout: float = DEFAULT_TIMEOUT):
        self.pool = WorkerPool(render_job, processes=processes, timeout=timeout,
                               warm_up=warm_up, preload=preload)
        self.epoch = 1
        self.cache = None   # a printshop.render.chunks.ChunkCache, set per build
        # Several threads render at once (a build's products, `serve`'s preview and HTML
        # editions): the pool shares its workers between them; this guards the riders
        self._lock = threading.RLock()
        self._pending: dict[str, RenderJob] = {}   # job key → a job for `also`, not started
        self._riding: dict[str, Background] = {}   # job key → its render (`also`)

    def also(self, job: RenderJob, now: bool = False) -> None:
        """Render `job` whenever a worker has nothing else to do, and keep its result for the
        `render` that asks for it (which, if it is not rendered by then, has it rendered next):
        a small job a product needs after a long render (the blank sheet after the book's
        parts) then costs no time of its own. It is handed to the pool once the next render
        is (before, it would take a worker the first jobs of that render wait for), or `now`:
        where the caller has work of its own before that render while the workers wait (the
        book's composition: its blank sheets are drawn meanwhile, not when every core has a
        part to lay out)."""
        from printshop.render.chunks import job_key

        with self._lock:
            self._pending.setdefault(job_key(job), job)
        if now:
            self._start_riders()

    def _start_riders(self) -> None:
        """The jobs `also` was given, each rendered on a thread of its own as an idle batch."""
        from printshop.render.pool.batches import Idle, idle_batch

        with self._lock:
            pending, self._pending = self._pending, {}
        for key, job in pending.items():
            priority = Idle()
            token = idle_batch.set(priority)
            try:   # (its own render does not look for riders: it is one)
                riding = Background(lambda jobs: self._list_render(jobs, None, riders=False),
                                    [job], on_thread=not self.pool.serial)
            finally:
                idle_batch.reset(token)
            riding.priority = priority
            with self._lock:
                self._riding[key] = riding

    @contextlib.contextmanager
    def _riders_after_listing(self):
        """Around a render: the riders handed to the pool once its batch is listed."""
        from printshop.render.pool.pool import on_batch_listed

        if not self._pending:
            yield
            return
        before = on_batch_listed.get()

        def listed() -> None:
            self._start_riders()
            if before is not None:   # (after: its caller may ask for a rider at once)
                before()

        token = on_batch_listed.set(listed)
        try:
            yield
        finally:
            on_batch_listed.reset(token)

    def _ridden(self, key: str) -> RenderResult | None:
        """The result of a job handed over by `also`, waited for (hurried); None if none (or
        it was never started: it is rendered with the caller's jobs)."""
        with self._lock:
            self._pending.pop(key, None)
            riding = self._riding.pop(key, None)
        if riding is None:
            return None
        if riding.priority is not None:
            riding.priority.hurry()
            self.pool.wake()
        return riding.result()[0]

    def while_idle(self, make) -> "IdleWork":
        """`make()` on a thread of its own while the caller renders, its renders handed out
        only when the workers have nothing else (until its result is asked for)."""
        return IdleWork(make, self.pool)

    def in_background(self, jobs: list[RenderJob]) -> "Background":
        """Render `jobs` on a thread while the caller goes on (preparing the next jobs): its
        `result()` waits for them. A render the caller starts meanwhile shares the workers
        with it (the background's jobs first). Serial: rendered here and now."""
        return Background(self.render, list(jobs), on_thread=not self.pool.serial)

    def new_build(self) -> None:
        """A renderer kept warm across builds (`serve`): workers keep their fonts but drop
        the stylesheets and images they parsed, which may have been edited since."""
        self.epoch += 1
        self._pending, self._riding = {}, {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.pool.close()

    def start(self) -> None:
        """Start the workers now rather than at the first render: before loading big inputs,
        so the workers do not inherit a copy of them, and so their start-up overlaps it.
        Workers already running are kept (`serve` calls this to keep its pool warm)."""
        self.pool.start()

    def release(self) -> None:
        """Stop the workers now, giving their memory back (before a big merge, say); the
        next render starts fresh ones. Not while another caller renders (a build's other
        product): its workers are left alone."""
        self.pool.close_if_idle()

    def render(self, jobs: list[RenderJob], on_done=None) -> list[RenderResult]:
        if not isinstance(jobs, (list, tuple)):
            return self._lazy_render(jobs, on_done)
        return self._list_render(list(jobs), on_done)

    def _list_render(self, jobs, on_done, riders: bool = True) -> list[RenderResult]:
        """A list of jobs: identical jobs rendered once (a deck's backs are the same page on
        every full sheet); a job handed over before (`also`), or rendered before (the chunk
        cache), taken as it is; the rest rendered."""
        from printshop.render.chunks import job_key

        keys = [job_key(job) for job in jobs]
        indices: dict[str, list[int]] = {}
        for index, key in enumerate(keys):
            indices.setdefault(key, []).append(index)
        found: dict[str, RenderResult] = {}
        for key in indices:
            rode = self._ridden(key) if riders else None
            if rode is not None:
                found[key] = rode
                deps.merge(rode.read)
            elif self.cache is not None and (cached := self.cache.get(key)) is not None:
                found[key] = cached
                deps.merge(cached.read)   # what the cached render read, for the build cache
        todo = [key for key in indices if key not in found]
        if todo:
            def finished(n: int, result: RenderResult) -> None:
                if on_done is not None:
                    for index in indices[todo[n]]:
                        on_done(index, result)

            rendered = self._render([jobs[indices[key][0]] for key in todo], finished)
            for key, result in zip(todo, rendered):
                if self.cache is not None:
                    self.cache.put(key, result)
                found[key] = result
            if self.cache is not None:
                with self._lock:
                    self.cache.rendered += len(todo)
        if self.cache is not None:
            with self._lock:
                self.cache.reused += len(jobs) - len(todo)
        if on_done is not None:
            for key in indices:
                if key not in todo:
                    for index in indices[key]:
                        on_done(index, found[key])
        return [found[key] for key in keys]

    def _lazy_render(self, jobs, on_done=None) -> list[RenderResult]:
        """Jobs made lazily (a pack's chunks): each is looked up in the chunk cache when a
        worker takes it, and a cached one goes through the worker as its stored result."""
        cache = self.cache
        stamped = _Stamped(jobs, self.epoch, cache)
        results = self._render(jobs, on_done, stamped=stamped)
        if cache is not None:
            for index, result in enumerate(results):
                if index in stamped.keys:
                    cache.put(stamped.keys[index], result)
            with self._lock:
                cache.reused += len(results) - len(stamped.keys)
                cache.rendered += len(stamped.keys)
        return results

    def run(self, queue, on_done) -> None:
        """Render a RenderQueue's jobs, and those `on_done(tag, result)` adds to it as
        results come in (render/queue.py); results come in the order they finish."""
        from printshop.render.queue import _PoolFeed

        refused: list[Problem] = []

        def finished(index: int, result: RenderResult) -> None:
            deps.merge(result.read)
            if result.refused or _failing_lost(result):
                refused.extend(result.refused + result.lost)
                feed.queue = _EMPTY   # nothing more: the build fails with what was refused
            if not refused:
                feed.finished(index, result)

        feed = _PoolFeed(queue, self.epoch, self.cache, on_done)
        try:
            with self._riders_after_listing():
                self.pool.run(feed, finished)
        except TaskFailed as failed:
            raise _failure(feed.jobs[failed.index], failed) from None
        finally:
            if self.cache is not None:
                with self._lock:
                    self.cache.rendered += feed.rendered
                    self.cache.reused += feed.reused
        if refused:
            raise PrintshopError(_unique(refused))

    def _render(self, jobs, on_done=None, stamped=None) -> list[RenderResult]:
        try:
            with self._riders_after_listing():
                results = self.pool.map(stamped or _Stamped(jobs, self.epoch), on_done=on_done)
        except TaskFailed as failed:
            raise _failure(jobs[failed.index], failed) from None
        for result in results:
            deps.merge(result.read)
        refused = [p for r in results for p in r.refused]
        refused += [p for r in results if _failing_lost(r) for p in r.lost]
        if refused:
            raise PrintshopError(_unique(refused))
        return results


# Words missing from a render's pages (RenderResult.lost) are kept here while a product
# builds, and fail it once its build is over: a product's own account of the same trouble
# ("the text of card X does not fit", "the sheet of #7 overflows") comes first.
_LOST_WORDS: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "printshop_lost_words", default=None)


@contextlib.contextmanager
def deferring_lost_words():
    """Collects the lost words of every render inside; without it a render fails at once."""
    found: list[Problem] = []
    token = _LOST_WORDS.set(found)
    try:
        yield found
    finally:
        _LOST_WORDS.reset(token)


@contextlib.contextmanager
def lost_words_fail_after():
    """The words lost in the renders inside fail it once it is over (when nothing else
    did): a product's build, a rolled pack."""
    with deferring_lost_words() as lost:
        yield
    if lost:
        from printshop.errors import unique_sorted

        raise PrintshopError(unique_sorted(lost))


def _failing_lost(result: RenderResult) -> bool:
    """Whether `result`'s lost words fail the render now (else they are kept for later)."""
    if not result.lost:
        return False
    kept = _LOST_WORDS.get()
    if kept is None:
        return True
    kept.extend(result.lost)
    return False


def _failure(job: RenderJob, failed: TaskFailed) -> Exception:
    """The error to raise for a job that could not be rendered."""
    if failed.reason == "timeout":
        message = f"render timed out after {failed.detail} s in {job.source}"
    elif failed.reason == "died":
        message = (f"the render process died ({failed.detail or 'killed'}) while "
                   f"rendering {job.source}")
    elif failed.detail.startswith("nesting too deep"):
        message = f"nesting too deep in {job.source} (simplify the HTML structure)"
    elif failed.detail.startswith("ran out of memory"):
        message = f"ran out of memory rendering {job.source}"
    else:
        return RuntimeError(f"rendering {job.source} failed: {failed.detail}")
    return PrintshopError(Problem(job.source, message))


class _Empty:
    """A queue with nothing (more) to render."""

    def _pop(self):
        return None

    def _peek(self):
        return None


_EMPTY = _Empty()


class _Stamped:
    """The jobs (maybe made lazily, when taken) with the renderer's build epoch set; with a
    chunk cache, a job rendered before is handed out as its stored result (`Cached`), and
    the keys of the others are kept (`keys`) to store their results."""

    def __init__(self, jobs, epoch: int, cache=None):
        self.jobs, self.epoch, self.cache = jobs, epoch, cache
        self.keys: dict[int, str] = {}

    def __len__(self):
        return len(self.jobs)

    def __getitem__(self, index):
        job = self.jobs[index]
        job.epoch = self.epoch
        if self.cache is not None:
            from printshop.render.chunks import job_key

            key = job_key(job)
            found = self.cache.get(key)
            if found is not None:
                return Cached(found)
            self.keys[index] = key
        return job
