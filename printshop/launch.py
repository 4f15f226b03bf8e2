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
    cli_main()


def _preload() -> None:
    """A render worker's preload (render/job.py), imported in the worker: this process has
    not loaded printshop's render modules yet, and need not wait for them."""
    from printshop.render.job import preload

    preload()
