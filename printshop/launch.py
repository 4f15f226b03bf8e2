"""The `printshop` command's entry point: a command that renders starts its first render
worker before anything else is imported (render/pool/early.py), then the command line runs."""


def main() -> None:
    import sys

    from printshop.render.pool import early

    try:
        if early.renders(sys.argv[1:]):
            early.start(_preload)
        from printshop.cli import main as cli_main
    except KeyboardInterrupt:   # Ctrl-C before the command line could say it
        sys.stderr.write("printshop: interrupted; nothing was written\n")
        sys.exit(130)
    try:
        cli_main()
    except SystemExit as done:
        leave(done.code)
    leave(0)


def leave(code) -> None:
    """End the process as `sys.exit(code)` would, without tearing the interpreter down:
    threads joined, exit handlers run (temporary folders, logging) and the output flushed
    as at a normal exit, but no module emptied and no object freed one by one, which took
    50 ms at the end of every command (a build of the Event Deck is 1.4 s)."""
    import atexit
    import os
    import sys
    import threading

    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    if code is None:
        code = 0
    elif not isinstance(code, int):     # (a message, as sys.exit prints it)
        sys.stderr.write(f"{code}\n")
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe (`| head`): nothing more to say
            pass
    os._exit(code)


def _preload() -> None:
    """A render worker's preload (render/job.py), imported in the worker: this process has
    not loaded printshop's render modules yet, and need not wait for them."""
    from printshop.render.job import preload

    preload()
