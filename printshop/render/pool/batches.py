"""What a worker pool (pool.py) hands out: each caller's batch of tasks, with its queue, its
rank (an idle batch waits for the others) and its results for the caller's own thread; and
`map`'s queue, the payloads in order, each held for the worker that keeps what it needs."""

from __future__ import annotations

import contextvars
import threading
from typing import Any

# A batch started with this set to an `Idle` is handed out only when no other batch has a
# task to give (Renderer.also: the book's blank sheet, rendered while a worker would wait)
idle_batch: contextvars.ContextVar["Idle | None"] = contextvars.ContextVar(
    "idle_batch", default=None)


class Idle:
    """A batch's low priority, which its caller lifts (`hurry`) once it waits for the
    results: from then on its tasks go before every other batch's (it is a small one)."""

    def __init__(self):
        self.rank = 2        # 0: hurried, 1: a batch like the others, 2: idle

    def hurry(self) -> None:
        self.rank = 0


class Batch:
    """One caller's tasks: a queue (`take()` → (index, payload) or None, `prepare()` makes
    the next ahead) and its `on_done(index, result)`, which may add to the queue. The queue
    is only touched, and on_done only run, under the batch's lock, in the caller's context
    (payloads made lazily record what they read for the caller's product, whichever thread
    makes them)."""

    def __init__(self, queue, on_done):
        self.queue, self.on_done = queue, on_done
        self.lock = threading.RLock()
        self.context = contextvars.copy_context()
        self.running = 0
        self.finished: list[tuple[int, Any]] = []   # results waiting for on_done
        self.dry = False     # the queue had nothing at the last take (on_done may add)
        self.error: BaseException | None = None
        self.priority = idle_batch.get()    # an Idle, or None: a batch like the others

    @property
    def rank(self) -> int:
        return 1 if self.priority is None else self.priority.rank

    @property
    def over(self) -> bool:
        return self.error is not None or (self.dry and not self.running and not self.finished)

    def take(self, worker: int = 0, live: frozenset = frozenset()):
        """The next (index, payload) for the worker with pid `worker`; None if there is
        none. A queue with `for_worker` may hold a task back for another live worker (one
        that keeps what the task needs): then None, and the batch is not dry."""
        with self.lock:   # dry only as of the last take: on_done (same lock) may add
            if getattr(self.queue, "for_worker", False):
                item = self.context.run(self.queue.take, worker, live)
                if item is NOT_YOURS:
                    return None
            else:
                item = self.context.run(self.queue.take)
            self.dry = item is None
        return item

    def prepare(self) -> None:
        with self.lock:
            self.context.run(self.queue.prepare)

    def handle(self) -> None:
        """Its finished results to its on_done: in its caller's thread."""
        with self.lock:
            while self.finished:
                index, value = self.finished.pop(0)
                self.on_done(index, value)
            self.dry = False    # on_done may have added to the queue


NOT_YOURS = object()   # a queue's answer: tasks are left, each for another live worker
STEAL_FROM = 3         # held tasks left for busy workers from which an idle one takes the last


class InOrder:
    """`map`'s queue: the payloads in order, each made when taken (a lazy sequence's item)
    or just before, while the workers are busy, so a worker does not wait for its next.
    A payload with a `worker` (a pid: the worker that keeps what it needs, see
    render/weasy/resume.py) goes to that worker while it lives; the others take the next one
    that is not held for another, or, where all that are left are held and there are
    `STEAL_FROM` of them or more, the last."""

    for_worker = True

    def __init__(self, payloads):
        self.payloads = payloads
        self.next = 0
        self.made: dict[int, Any] = {}
        self.held: list[int] = []      # skipped for other workers, in order

    def take(self, worker: int = 0, live: frozenset = frozenset()):
        for position, index in enumerate(self.held):
            if self._wanted_by(index, worker, live):
                del self.held[position]
                return index, self._payload(index)
        while self.next < len(self.payloads):
            index = self.next
            self.next += 1
            if self._wanted_by(index, worker, live):
                return index, self._payload(index)
            self.held.append(index)
        if len(self.held) >= STEAL_FROM:
            # every task left waits for workers that keep what it needs, with this many
            # to go: the last (the shortest, where tasks come longest first) is done here,
            # afresh (a book part laid out again: the same pages as finished from the kept
            # layout, render/weasy/resume.py), rather than this worker idling while the
            # other works through them (the guide's finishing: one core idle for 1.1 s,
            # the first pass having left most parts with the other)
            index = self.held.pop()
            return index, self._payload(index)
        return NOT_YOURS if self.held else None

    def _payload(self, index: int):
        return self.made.pop(index) if index in self.made else self.payloads[index]

    def _wanted_by(self, index: int, worker: int, live: frozenset) -> bool:
        if index not in self.made:
            self.made[index] = self.payloads[index]
        wanted = getattr(self.made[index], "worker", 0)
        return not wanted or wanted == worker or wanted not in live

    def prepare(self) -> None:
        if self.next < len(self.payloads) and self.next not in self.made:
            self.made[self.next] = self.payloads[self.next]
