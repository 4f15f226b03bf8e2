"""The command line: printshop build | check | roll."""

from __future__ import annotations

import functools
import os
import sys
import traceback
from pathlib import Path

import click

from printshop import __version__
from printshop.errors import PrintshopError
from printshop.project import PAPERS

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1


def default_source() -> Path:
    return Path("rules-src") if Path("rules-src").is_dir() else Path(".")


def _echo_problems(problems, prefix: str = "") -> None:
    for problem in problems:
        click.echo(f"{prefix}{problem}" if not prefix else _with_prefix(problem, prefix),
                   err=True)


def _with_prefix(problem, prefix: str) -> str:
    text = str(problem)
    where, sep, message = text.partition(": ")
    return f"{where}: {prefix}{message}" if sep else f"{prefix}{text}"


def handle_errors(function):
    """Bad input: the problems, exit 2. A bug: one line (a traceback with --debug), exit 1."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        debug = kwargs.get("debug") or os.environ.get("PRINTSHOP_DEBUG")
        try:
            return function(*args, **kwargs)
        except PrintshopError as exc:
            _echo_problems(exc.problems)
            count = len(exc.problems)
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


def source_option(function):
    return click.option("--source", "source", type=click.Path(path_type=Path),
                        default=None, metavar="DIR",
                        help="Project folder (default: ./rules-src if it exists, else .). "
                             "A folder of Markdown files with no manifest builds as a book.")(
        function)


def debug_option(function):
    return click.option("--debug", is_flag=True, help="Show Python tracebacks.")(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog="""\b
Examples:
  printshop build                         build every product into build/
  printshop build players-guide --paper a4
  printshop check                         validate the source without rendering
  printshop build --source ~/my-novel --out /tmp/novel   a folder of Markdown as a book
""")
@click.version_option(__version__, prog_name="printshop")
def cli():
    """printshop: a game's rules source (Markdown + YAML) into print-ready PDFs and HTML."""


@cli.command(epilog="""\b
Examples:
  printshop build                           every product of rules-src/printshop.yaml
  printshop build players-guide --paper a5  one product, on A5
  printshop build --strict                  fail on any warning (CI does this)
  printshop build --source manuscript/ --out out/   a folder of Markdown chapters as a book
""")
@click.argument("products", nargs=-1)
@source_option
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"), metavar="DIR",
              show_default=True, help="Output folder.")
@click.option("--paper", type=click.Choice(PAPERS), default=None,
              help="Paper for every product (default: each product's, else the manifest's).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@click.option("--uncompressed", is_flag=True, hidden=True)
@debug_option
@handle_errors
def build(products, source, out, paper, strict, jobs, quiet, uncompressed, debug):
    """Build PRODUCTS (default: all in the manifest) into the output folder.

    Every input is checked first; if anything is wrong nothing is written and the previous
    outputs stay as they were.
    """
    from printshop.builder import build_project

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"printshop: {message}", err=True)

    report = build_project(source or default_source(), out, list(products) or None,
                           paper=paper, strict=strict, jobs=jobs, progress=progress,
                           uncompressed=uncompressed)
    _echo_problems(report.warnings, prefix="warning: ")
    if not quiet:
        for path in report.written:
            click.echo(f"wrote {path}")
        click.echo(f"printshop: built {len(report.products)} product"
                   f"{'s' if len(report.products) != 1 else ''} in {report.seconds:.1f} s",
                   err=True)


@cli.command(epilog="""\b
Examples:
  printshop check
  printshop check --source rules-src --strict
""")
@click.argument("products", nargs=-1)
@source_option
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@debug_option
@handle_errors
def check(products, source, strict, debug):
    """Validate the source (YAML, tables, Markdown, templates) without rendering."""
    from printshop.builder import check_project

    report = check_project(source or default_source(), list(products) or None)
    _echo_problems(report.warnings, prefix="warning: ")
    if strict and report.warnings:
        click.echo(f"printshop: {len(report.warnings)} warning(s) and --strict", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"printshop: OK: {len(report.products)} product"
               f"{'s' if len(report.products) != 1 else ''} checked in {report.seconds:.2f} s"
               f"{f', {len(report.warnings)} warning(s)' if report.warnings else ''}")


@cli.group(epilog="""\b
Examples:
  printshop roll --help
""")
def roll():
    """Roll random things (characters, hirelings) from the project's tables."""


@roll.command("characters", epilog="""\b
Examples:
  printshop roll characters --count 50 --seed con-2025          50 sheets and a cover
  printshop roll characters --count 12 --seed con-2025 --class fighter,thief --backs
  printshop roll characters --count 8 --class-table flat --paper a4
  printshop roll characters --count 3 --seed con-2025 --format json --out -
""")
@click.option("--count", "-n", type=int, default=1, show_default=True,
              help="How many characters (more than 10,000 needs --yes).")
@click.option("--seed", default=None,
              help="Pack seed; the same seed rolls the same characters (default: a new one, "
                   "printed). Character n of a seed is the same in a pack of any size.")
@click.option("--class", "classes", default=None, metavar="LIST",
              help="Only these classes, comma-separated: ids or words of them (fighter, "
                   "thief, dwarf, human, magic-user, …).")
@click.option("--class-table", type=click.Choice(["guide", "flat"]), default="guide",
              show_default=True,
              help="guide: the Player's Guide's 3d6 roll; flat: every class equally likely.")
@click.option("--paper", type=click.Choice(["letter", "a4"]), default=None,
              help="Paper (default: the manifest's).")
@click.option("--backs", is_flag=True,
              help="Add a tombstone back to every sheet (print double-sided, long edge).")
@click.option("--format", "fmt", type=click.Choice(["pdf", "html", "json"]), default="pdf",
              show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="PATH",
              help="Output file, or - for standard output (default: "
                   "build/characters-SEED.FORMAT).")
@click.option("--yes", is_flag=True, help="Confirm a pack of more than 10,000 characters.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@source_option
@debug_option
@handle_errors
def roll_characters(count, seed, classes, class_table, paper, backs, fmt, out, yes, jobs,
                    quiet, source, debug):
    """Roll characters by the Player's Guide and print them: a cover with an index, then one
    sheet per character (or JSON for virtual tabletops).

    Bad input (a count below 1, an unknown class, a broken table) prints what is wrong and
    writes nothing.
    """
    from printshop.roll.pack import roll_characters_to_bytes

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"printshop: {message}", err=True)

    if out is not None and str(out) == "-":
        out = None
        to_stdout = True
    else:
        to_stdout = False
    result = roll_characters_to_bytes(
        source or default_source(), count=count, seed=seed, classes=classes,
        class_table=class_table, paper=paper, backs=backs, fmt=fmt, large_ok=yes, jobs=jobs,
        progress=progress)
    _echo_problems(result.warnings, prefix="warning: ")
    if to_stdout:
        sys.stdout.buffer.write(result.data)
        sys.stdout.flush()
        return
    from printshop.output import write_atomic

    target = out or Path("build") / result.default_name
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, result.data)
    if not quiet:
        pages = f", {result.pages} pages" if result.pages else ""
        click.echo(f"wrote {target} ({result.count} character{'s' if result.count != 1 else ''}"
                   f", seed {result.seed}{pages})")


def main():
    cli(prog_name="printshop")


if __name__ == "__main__":
    main()
