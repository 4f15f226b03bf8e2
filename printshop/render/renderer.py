"""The renderer: render jobs handed to worker processes (render/pool.py), each run by
`pdf.render_job`; results taken from the build's chunk cache where it has them, a small job
carried along with the next batch (`also`), every failure turned into a PrintshopError."""

from __future__ import annotations

import threading

from printshop import deps
from printshop.errors import PrintshopError, Problem
from printshop.render.pdf import (Cached, RenderJob, RenderResult, _unique, render_job,
                                  warm_up)
from printshop.render.pool import DEFAULT_TIMEOUT, TaskFailed, WorkerPool


class Renderer:
    """Renders jobs on worker processes; turns every failure into a PrintshopError."""

    def __init__(self, processes: int | None = None, timeout: float = DEFAULT_TIMEOUT):
        self.pool = WorkerPool(render_job, processes=processes, timeout=timeout,
                               warm_up=warm_up)
        self.epoch = 1
        self.cache = None   # a printshop.render.chunks.ChunkCache, set per build
        # `serve` renders a chapter preview on one thread while another composes HTML
        # editions: the pool takes one caller at a time
        self._lock = threading.RLock()
        self._riders: list[RenderJob] = []        # to render with the next batch (`also`)
        self._rode: dict[str, RenderResult] = {}  # their results, by job key

    def also(self, job: RenderJob) -> None:
        """Render `job` at the end of the next batch of jobs (when a worker is free) and keep
        its result for the `render` that asks for it: a small job a product needs after a
        long batch (the blank sheet after the book's parts) then costs no time of its own."""
        with self._lock:
            self._riders.append(job)

    def new_build(self) -> None:
        """A renderer kept warm across builds (`serve`): workers keep their fonts but drop
        the stylesheets and images they parsed, which may have been edited since."""
        self.epoch += 1
        self._riders, self._rode = [], {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.pool.close()

    def start(self) -> None:
        """Start the workers now rather than at the first render: before loading big inputs,
        so the workers do not inherit a copy of them, and so their start-up overlaps it.
        Workers already running are kept (`serve` calls this to keep its pool warm)."""
        with self._lock:
            self.pool.start()

    def release(self) -> None:
        """Stop the workers now, giving their memory back (before a big merge, say); the
        next render starts fresh ones."""
        self.pool.close()

    def render(self, jobs: list[RenderJob], on_done=None) -> list[RenderResult]:
        with self._lock:
            if not isinstance(jobs, (list, tuple)):
                return self._cached_render(jobs, on_done)
            return self._render_once_each(list(jobs), on_done)

    def _render_once_each(self, jobs, on_done) -> list[RenderResult]:
        """Identical jobs in a list rendered once: a deck's backs are the same page on
        every full sheet (five of the Event Deck's six)."""
        from printshop.render.chunks import job_key

        keys = [job_key(job) for job in jobs]
        first: dict[str, int] = {}
        for index, key in enumerate(keys):
            first.setdefault(key, index)
        unique = sorted(first.values())
        report = on_done and (lambda n, result: on_done(unique[n], result))
        distinct = [jobs[i] for i in unique]
        if self._riders or self._rode:
            rendered = self._render_with_riders(distinct, report)
        else:
            rendered = self._cached_render(distinct, report)
        by_key = {keys[i]: result for i, result in zip(unique, rendered)}
        results = [by_key[key] for key in keys]
        again = [i for i in range(len(jobs)) if first[keys[i]] != i]
        if again and self.cache is not None:
            self.cache.reused += len(again)
        if on_done is not None:
            for index in again:
                on_done(index, results[index])
        return results

    def _render_with_riders(self, jobs, on_done) -> list[RenderResult]:
        from printshop.render.chunks import job_key

        keys = [job_key(job) for job in jobs]
        results = [self._rode.pop(key, None) for key in keys]
        for index, result in enumerate(results):
            if result is not None:
                deps.merge(result.read)
                if on_done is not None:
                    on_done(index, result)
        todo = [i for i, result in enumerate(results) if result is None]
        if not todo:
            return results
        riders = [(job_key(job), job) for job in self._riders]
        riders = [(key, job) for key, job in riders if key not in keys]
        self._riders = []
        rendered = self._cached_render(
            [jobs[i] for i in todo] + [job for _, job in riders],
            on_done and (lambda n, result: on_done(todo[n], result) if n < len(todo)
                         else None))
        for index, result in zip(todo, rendered):
            results[index] = result
        for (key, _), result in zip(riders, rendered[len(todo):]):
            self._rode[key] = result
        return results

    def _cached_render(self, jobs, on_done=None) -> list[RenderResult]:
        cache = self.cache
        if cache is None:
            return self._render(jobs, on_done)
        from printshop.render.chunks import job_key

        if not isinstance(jobs, (list, tuple)):
            # made lazily (a pack's chunks): each job is looked up when a worker takes it,
            # and a cached one goes through the worker as its stored result
            stamped = _Stamped(jobs, self.epoch, cache)
            results = self._render(jobs, on_done, stamped=stamped)
            for index, result in enumerate(results):
                if index in stamped.keys:
                    cache.put(stamped.keys[index], result)
            cache.reused += len(results) - len(stamped.keys)
            cache.rendered += len(stamped.keys)
            return results
        # a list: the jobs rendered before (same content, same files read) are taken from
        # the cache here, and no worker starts if all of them were
        keys = [job_key(job) for job in jobs]
        results: list = [cache.get(key) for key in keys]
        misses = [i for i, result in enumerate(results) if result is None]
        for index, result in enumerate(results):
            if result is not None and on_done is not None:
                on_done(index, result)
        rendered = self._render([jobs[i] for i in misses], on_done and (
            lambda n, result: on_done(misses[n], result))) if misses else []
        for index, result in zip(misses, rendered):
            cache.put(keys[index], result)
            results[index] = result
        cache.reused += len(jobs) - len(misses)
        cache.rendered += len(misses)
        for index in set(range(len(jobs))) - set(misses):
            deps.merge(results[index].read)   # what the cached render read, for the build cache
        return results

    def _render(self, jobs, on_done=None, stamped=None) -> list[RenderResult]:
        try:
            results = self.pool.map(stamped or _Stamped(jobs, self.epoch), on_done=on_done)
        except TaskFailed as failed:
            job = jobs[failed.index]
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
                raise RuntimeError(f"rendering {job.source} failed: {failed.detail}") from None
            raise PrintshopError(Problem(job.source, message)) from None
        for result in results:
            deps.merge(result.read)
        refused = [p for r in results for p in r.refused]
        if refused:
            raise PrintshopError(_unique(refused))
        return results


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
