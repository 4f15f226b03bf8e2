"""Progress on the command line: on a terminal, a bar for what is being counted (click's
progress bar: a count and an estimate) under the lines said so far; plain lines when the
output is not a terminal (a log, CI); nothing with -q."""

from __future__ import annotations

import contextlib
import sys
import threading
import time

import click


class PlainProgress:
    """Lines only: printshop.progress.Counter says how far now and then."""

    def __init__(self, stream=None):
        self.stream = stream

    def __call__(self, message: str) -> None:
        click.echo(f"printshop: {message}", file=self.stream or sys.stderr)


class TerminalProgress(PlainProgress):
    """Lines, and under them one bar: the count most recently moved on (two products
    building at once take turns). A finished count leaves one line saying how long it
    took."""

    def __init__(self, stream):
        self.stream = stream
        self.bars: dict = {}     # task → click's ProgressBar (its count, eta, line)
        self.shown: str | None = None
        self.lock = threading.Lock()

    def __call__(self, message: str) -> None:
        with self.lock:
            self._clear()
            click.echo(f"printshop: {message}", file=self.stream)
            self._draw()

    def count(self, task: str, done: int, total: int, unit: str, seconds: float) -> None:
        """`done` of `total` `unit` of `task`, `seconds` after it started."""
        with self.lock:
            bar = self.bars.get(task)
            if bar is None:
                bar = click.progressbar(length=max(total, 1), label=f"printshop: {task} {unit}",
                                        show_pos=True, show_eta=True, width=24,
                                        file=self.stream)
                bar.start = bar.last_eta = time.time() - seconds   # the estimate: all of it
                self.bars[task] = bar
            if done > bar.pos:
                bar.make_step(min(done, bar.length or total) - bar.pos)
            self.shown = task
            if done >= total:
                self._clear()
                click.echo(f"printshop: {task}: {done}/{total} {unit} in {seconds:.1f} s",
                           file=self.stream)
                del self.bars[task]
                self.shown = next(iter(self.bars), None)
            self._draw()

    def _clear(self) -> None:
        if self.shown is not None:
            self.stream.write("\r\x1b[K")

    def _draw(self) -> None:
        bar = self.bars.get(self.shown) if self.shown else None
        if bar is not None:
            self.stream.write(f"\r{bar.format_progress_line()}\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        with self.lock:
            self._clear()
            self.bars.clear()
            self.shown = None
            self.stream.flush()


@contextlib.contextmanager
def progress_reporter(quiet: bool = False, stream=None):
    """The `progress` a command gives its build: None with -q."""
    if quiet:
        yield None
        return
    stream = stream or sys.stderr
    live = TerminalProgress(stream) if _interactive(stream) else PlainProgress(stream)
    try:
        yield live
    finally:
        if isinstance(live, TerminalProgress):
            live.close()


def _interactive(stream) -> bool:
    from printshop.diagnostics import interactive

    return interactive(stream)
