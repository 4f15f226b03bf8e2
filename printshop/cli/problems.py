"""How the command line reports: each problem once as `file:line:col: error|warning:
message` (printshop.diagnostics: an error's source line under it, colour on a terminal),
errors and warnings together, sorted; then exit 2 (bad input) or 1 (a bug: one line, the
traceback only with --debug), never a traceback for bad input; and the system libraries
checked before anything renders."""

from __future__ import annotations

import functools
import os
import sys
import traceback

import click

from printshop import diagnostics
from printshop.errors import PrintshopError, unique_sorted

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1


def stderr_colour() -> bool:
    return diagnostics.use_colour(sys.stderr)


def echo_problems(errors=(), warnings=()) -> None:
    """Errors and warnings on standard error, each once, sorted, in the one format."""
    colour = stderr_colour()
    for text in diagnostics.render_all(errors, warnings, colour):
        click.echo(text, err=True, color=colour)


def echo_warnings(warnings) -> None:
    echo_problems((), warnings)


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
            warnings = [w for w in unique_sorted(exc.warnings) if w not in set(problems)]
            echo_problems(problems, warnings)
            click.echo(f"printshop: {diagnostics.summary(len(problems), len(warnings))}; "
                       "nothing was written", err=True)
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
