"""How far long work has got: the products count what they do (sheets rendered, parts laid
out, envelopes joined, files written) with a `Counter`, and whoever listens shows it.

`progress` is the callable a build is given (BuildContext.progress): it takes a line of
text. One that also has a `count(task, done, total, unit, seconds)` method (the command line on a
terminal: a bar with a count and an estimate, cli/progress.py) is told every step; any
other gets a plain line now and then (quiet for quick work, then one every few seconds
and one at the end, each with the time so far and an estimate).
"""

from __future__ import annotations

import threading
import time

QUIET_FOR_S = 2.0     # work done quicker than this says nothing in plain lines
EVERY_S = 5.0         # then a line every this many seconds


class Counter:
    def __init__(self, progress, task: str, total: int, unit: str,
                 quiet_for: float = QUIET_FOR_S, every: float = EVERY_S):
        self.progress, self.task, self.total, self.unit = progress, task, total, unit
        self.quiet_for, self.every = quiet_for, every
        self.started = self.said = time.monotonic()
        self.done = 0
        self.unit_scale = 1   # counted in bytes, said in MB: 1_000_000
        self.shown = False    # a live bar: shown once the work has taken `quiet_for`
        self.lock = threading.Lock()

    def _live(self) -> bool:
        return self.progress is not None and callable(getattr(self.progress, "count", None))

    def update(self, done: int | None = None, step: int = 1) -> None:
        """`done` so far (or `step` more)."""
        with self.lock:
            self.done = done if done is not None else self.done + step
            done, now = self.done, time.monotonic()
            if self.progress is None or self.total <= 0:
                return
            finished = done >= self.total
            if self._live():
                if not self.shown and now - self.started < self.quiet_for:
                    return   # quick work: no bar at all
                self.shown = True
                scale = self.unit_scale
                self.progress.count(self.task, -(-done // scale), -(-self.total // scale),
                                    self.unit, now - self.started)
                return
            if now - self.started < self.quiet_for or not (
                    finished or now - self.said >= self.every):
                return
            self.said = now
        self.progress(self.line(done, now))

    def line(self, done: int, now: float) -> str:
        spent = now - self.started
        scale = self.unit_scale
        text = (f"{self.task}: {-(-done // scale)}/{-(-self.total // scale)} {self.unit} "
                f"({spent:.0f} s")
        if 0 < done < self.total:
            text += f", about {spent * (self.total - done) / done:.0f} s to go"
        return text + ")"
