"""How the command line reports: each problem once as `file:line: message`, then exit 2
(bad input) or 1 (a bug: one line, the traceback only with --debug), never a traceback
for bad input; and the system libraries checked before anything renders."""

from __future__ import annotations

import functools
import os
import sys
import traceback

import click

from printshop.errors import PrintshopError, unique_sorted

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1


def echo_problems(problems, prefix: str = "") -> None:
    for problem in unique_sorted(problems):
        click.echo(f"{prefix}{problem}" if not prefix else _with_prefix(problem, prefix),
                   err=True)


def _with_prefix(problem, prefix: str) -> str:
    text = str(problem)
    where, sep, message = text.partition(": ")
    return f"{where}: {prefix}{message}" if sep else f"{prefix}{text}"


def check_system_libraries(quiet: bool = False) -> None:
    """Before rendering: stop at once, naming the packages, if WeasyPrint cannot load its
    libraries. Without HarfBuzz's subsetter the build goes on (fontTools subsets the fonts,
    with the same bytes every run); say so once, not once per font and document."""
    from printshop import system_check

    missing = system_check.missing_libraries()
    if [label for label in missing if label != system_check.SUBSETTER.label]:
        click.echo(system_check.install_message(missing, "then run printshop again"), err=True)
        sys.exit(EXIT_INTERNAL)
    if missing and not quiet:
        click.echo("printshop: note: the HarfBuzz font subsetter (libharfbuzz-subset) is not "
                   "installed, so fontTools subsets the fonts: slower, same bytes. "
                   "`python -m printshop.system_check` says what to install.", err=True)


def handle_errors(function):
    """Bad input: the problems, exit 2. A bug: one line (a traceback with --debug), exit 1."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        debug = kwargs.get("debug") or os.environ.get("PRINTSHOP_DEBUG")
        try:
            return function(*args, **kwargs)
        except PrintshopError as exc:
            problems = unique_sorted(exc.problems)
            echo_problems(problems)
            count = len(problems)
            click.echo(f"printshop: {count} problem{'s' if count != 1 else ''}; nothing was "
                       "written", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            click.echo("printshop: interrupted; nothing was written", err=True)
            sys.exit(130)
        except click.exceptions.Exit:
            raise
        except click.ClickException:
            raise
        except Exception as exc:
            if debug:
                traceback.print_exc()
            click.echo(f"printshop: internal error: {exc.__class__.__name__}: {exc}", err=True)
            if not debug:
                click.echo("printshop: run again with --debug for the details", err=True)
            sys.exit(EXIT_INTERNAL)

    return wrapper
