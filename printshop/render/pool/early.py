"""The first render worker, started as printshop starts, before its own modules load.

A build's workers used to start once the command line and the products' modules were
imported (0.2 s), and the first then spent 0.3 s importing WeasyPrint before it forked the
others: the parent, ready to hand out its first job, waited for them (a third of the Event
Deck's 2 s). Started first thing (`printshop.launch`), that import overlaps the parent's.
It is the same first worker every pool starts (render/pool/launch.py `Launch`), started
before there is a pool: it waits, WeasyPrint loaded, until the build's pool adopts it
(`adopt`) and tells it how many of the siblings prepared for it to fork. A command that
renders nothing never adopts it; it ends with the parent, like every worker.
"""

from __future__ import annotations

import os

RENDERING_COMMANDS = ("build", "bundle", "kit", "roll", "serve")

SERIAL = "PRINTSHOP_SERIAL"

_early = None   # the early worker's Launch, until a pool adopts it


def serial() -> bool:
    """PRINTSHOP_SERIAL=1 (or `--serial`, which sets it): every render runs in the calling
    process, one after another (render/pool/pool.py), for a debugger or a profiler."""
    return os.environ.get(SERIAL, "") not in ("", "0")


def renders(argv: list[str]) -> bool:
    """Whether this command line will render in worker processes (and not just print its
    help, nor render in this process: --serial)."""
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    return (command in RENDERING_COMMANDS and not {"-h", "--help", "--serial"} & set(argv)
            and not serial())


def start(preload, count: int | None = None) -> None:
    """Start the first worker, with pipes for `count` workers in all (one a core); it runs
    `preload` (a module's function: printshop.launch gives the renderer's)."""
    global _early
    import multiprocessing

    if _early is not None or "fork" not in multiprocessing.get_all_start_methods():
        return
    from printshop.render.pool.launch import Launch

    _early = Launch(multiprocessing.get_context("fork"), max(1, count or os.cpu_count() or 1),
                    preload, name="printshop-render-0")


def adopt(count: int, job: tuple) -> list:
    """The early worker and up to `count - 1` siblings as a pool's workers, running `job`
    (function, memory_mb, warm_up), or [] if there is none (or it died)."""
    global _early
    if _early is None:
        return []
    launch, _early = _early, None
    return launch.adopt(count, job)
