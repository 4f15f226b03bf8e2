"""How long work shows its progress: plain lines (placeholder, replaced in §7)."""

from __future__ import annotations

import contextlib

import click


@contextlib.contextmanager
def progress_reporter(quiet: bool = False):
    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"printshop: {message}", err=True)

    yield progress
