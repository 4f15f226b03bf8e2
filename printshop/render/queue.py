"""A queue of render jobs that grows while it renders (`Renderer.run`).

A product whose next jobs depend on what the last ones found (card text that overflows is
tried again smaller) adds them as results come in, so the workers never wait for a whole
batch: a card's fit is tried while the other sheets still render. Urgent jobs (those that
unblock others) are taken first, then the rest in the order added. A job may be given as a
function that makes it, called when a worker is about to take it (or just before, while
the workers are busy): composing the next job overlaps rendering the last.

Identical jobs are rendered once (a deck's backs are the same page on every full sheet),
and with the build's chunk cache attached a job rendered before is not rendered at all.
Results come back in the order they finish: whatever a product builds from them must not
depend on that order (keep results by tag, and sort).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

from printshop import deps


class RenderQueue:
    def __init__(self):
        self._jobs: list[Any] = []          # index → job, or a function making it
        self._tags: list[Any] = []          # index → the caller's tag
        self._counted: list[bool] = []      # index → a chunk: counted
        self._urgent: deque[int] = deque()
        self._normal: deque[int] = deque()

    def add(self, job, tag, urgent: bool = False, chunk: bool = True) -> None:
        """`job`: a RenderJob or a function returning one; `tag` comes back with its
        result; `urgent` jobs go before all others not yet taken. A job that is not a
        `chunk` of the product (a probe, whose result only guides the next jobs) is not
        counted in the chunks a build reports; it is kept in the chunk cache like the others
        (a kit holding an Event Deck fits its cards from the deck's probes)."""
        self._jobs.append(job)
        self._tags.append(tag)
        self._counted.append(chunk)
        (self._urgent if urgent else self._normal).append(len(self._jobs) - 1)

    def __len__(self) -> int:
        return len(self._urgent) + len(self._normal)

    def _pop(self) -> int | None:
        if self._urgent:
            return self._urgent.popleft()
        if self._normal:
            return self._normal.popleft()
        return None

    def _peek(self) -> int | None:
        if self._urgent:
            return self._urgent[0]
        return self._normal[0] if self._normal else None

    def _made(self, index: int):
        job = self._jobs[index]
        if callable(job):
            job = self._jobs[index] = job()
        return job


class _PoolFeed:
    """What WorkerPool.run takes from: the queue's jobs, each made, stamped with the build's
    epoch, and looked up by content (rendered already in this run, or in the chunk cache)
    before it goes to a worker; `finished` fans a result out to every tag that asked for
    it."""

    results_first = True   # a result may add urgent jobs: the pool hands it over first

    def __init__(self, queue: RenderQueue, epoch: int, cache, on_done: Callable):
        # (the renderer swaps in an empty queue when a job was refused: nothing more)
        self.queue: Any = queue
        self.epoch, self.cache, self.on_done = epoch, cache, on_done
        self.sent: dict[int, str] = {}               # task → job key
        self.jobs: dict[int, Any] = {}               # task → job (for error messages)
        self.chunks: dict[int, bool] = {}            # task → counted
        self.waiting: dict[str, list[Any]] = {}      # key in flight → tags
        self.done: dict[str, Any] = {}               # key → result
        self.rendered = self.reused = 0

    def take(self):
        from printshop.render.chunks import job_key

        queue = self.queue
        while (index := queue._pop()) is not None:
            job = queue._made(index)
            job.epoch = self.epoch
            tag, counted = queue._tags[index], queue._counted[index]
            key = job_key(job)
            if key in self.done:
                self.reused += counted
                self.on_done(tag, self.done[key])
                continue
            if key in self.waiting:
                self.reused += counted
                self.waiting[key].append(tag)
                continue
            cached = self.cache.get(key) if self.cache is not None else None
            if cached is not None:
                self.reused += counted
                deps.merge(cached.read)   # what the cached render read, for the build cache
                self.done[key] = cached
                self.on_done(tag, cached)
                continue
            self.waiting[key] = [tag]
            self.sent[index], self.jobs[index], self.chunks[index] = key, job, counted
            self.rendered += counted
            return index, job
        return None

    def prepare(self) -> None:
        index = self.queue._peek()
        if index is not None:
            self.queue._made(index)

    def finished(self, index: int, result) -> None:
        key = self.sent.pop(index)
        del self.jobs[index]
        self.chunks.pop(index)
        if self.cache is not None:
            self.cache.put(key, result)
        self.done[key] = result
        for tag in self.waiting.pop(key):
            self.on_done(tag, result)
