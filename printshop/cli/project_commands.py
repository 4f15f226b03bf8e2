"""The commands that work on a project: build, serve, check and new."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from printshop.cli.options import (PAPERS, card_print_options, debug_option, default_source,
                                   source_option)
from printshop.cli.problems import (EXIT_BAD_INPUT, check_system_libraries, echo_problems,
                                    handle_errors)


@click.command(epilog="""\b
Examples:
  printshop build                           every product of rules-src/printshop.yaml
  printshop build players-guide --paper a5  one product, on A5
  printshop build --strict                  fail on any warning (CI does this)
  printshop build --source manuscript/ --out out/   a folder of Markdown chapters as a book
  printshop build event-deck --layout foldover --paper a4   a card deck for a simplex printer
  printshop build players-guide --profile dtrpg-book   PDF/X-1a, CMYK, bleed: DriveThruRPG
  printshop build event-deck --profile dtc-cards        one card a page for DriveThruCards
  printshop build players-guide --profile dtrpg-book --cover   the interior and its cover wrap
  printshop build players-guide --paper a4 --layout booklet   an A5 booklet on A4 sheets
  printshop build quickstart --layout pocketmod        an 8-page zine on one sheet
""")
@click.argument("products", nargs=-1)
@source_option
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Output folder (default: ./build, or DIR/build with --source DIR). Any "
                   "other place must be named here.")
@click.option("--paper", type=click.Choice(PAPERS), default=None,
              help="Paper for every product (default: each product's, else the manifest's).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--profile", "profile", default=None, metavar="NAME",
              help="Print profile for every product: home (the default), screen, "
                   "dtrpg-book, lulu-book, dtc-cards, mpc-cards, tgc-cards or one of the "
                   "project's print-profiles.yaml. The file is checked by preflight.")
@click.option("--cover", is_flag=True,
              help="Books for a print-on-demand profile (dtrpg-book, lulu-book): also the "
                   "cover wrap, NAME-cover.pdf (back, spine and front with bleed, the spine "
                   "as wide as the vendor's formula gives for the interior's pages).")
@click.option("--spine-width", "spine_width", default=None, metavar="LENGTH",
              help="With --cover: the spine's width from the vendor's own cover template "
                   "(e.g. 0.352in or 8.94mm), instead of the formula.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@click.option("--timeout", type=click.FloatRange(1, 86400), default=None, metavar="SECONDS",
              help="Stop a render that takes longer than this (default 600; "
                   "PRINTSHOP_RENDER_TIMEOUT).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@click.option("--force", is_flag=True,
              help="Build even the products that are up to date (ignore the build cache; "
                   "a book still starts from where its pages fell last time, checked).")
@click.option("--uncompressed", is_flag=True, hidden=True)
@functools.partial(card_print_options, page_layouts=True)
@debug_option
@handle_errors
def build(products, source, out, paper, strict, profile, cover, spine_width, jobs, timeout,
          quiet, force, uncompressed, debug, card_options, page_layout):
    """Build PRODUCTS (default: all in the manifest) into the output folder.

    Every input is checked first; if anything is wrong nothing is written and the previous
    outputs stay as they were. A product whose inputs (every file it read, its settings,
    printshop and WeasyPrint) did not change since it was last built is up to date and is
    not built again; its files are left alone. The cache is OUT/.printshop-cache/ (safe to
    delete); --force ignores it.
    """
    from printshop.builder import build_project

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"printshop: {message}", err=True)

    check_patch_switches()
    if out is None:  # never write outside the project unless the user says where
        out = Path(source) / "build" if source is not None else Path("build")
    report = build_project(source or default_source(), out, list(products) or None,
                           paper=paper, strict=strict, jobs=jobs, progress=progress,
                           uncompressed=uncompressed, timeout=timeout, force=force,
                           context_options={"card_options": card_options,
                                            "layout": page_layout, "cover": cover,
                                            "spine_width": spine_width},
                           profile=profile,
                           # only when something is rendered: a no-op build stays fast
                           before_render=lambda: check_system_libraries(quiet))
    echo_problems(report.warnings, prefix="warning: ")
    if not quiet:
        for path in report.written:
            click.echo(f"wrote {path}")
        if report.unchanged:
            click.echo(f"printshop: {len(report.unchanged)} file"
                       f"{'s' if len(report.unchanged) != 1 else ''} rebuilt with the same "
                       "bytes, left as they were", err=True)
        if report.up_to_date:
            click.echo(f"printshop: up to date: {', '.join(report.up_to_date)}", err=True)
        built = len(report.built)
        click.echo(f"printshop: built {built} product{'s' if built != 1 else ''}"
                   f"{f', {len(report.up_to_date)} up to date' if report.up_to_date else ''}"
                   f" in {report.seconds:.1f} s", err=True)


@click.command(epilog="""\b
Examples:
  printshop serve                          build, then open http://127.0.0.1:8000/
  printshop serve players-guide            only the guide: save a chapter, see the page
  printshop serve --source ~/my-book       a folder of Markdown chapters as a book
  printshop serve --port 8080 --host 0.0.0.0   let other machines on the network look

\b
A saved chapter shows in the PDF view alone first, a few seconds after the save, with
the page numbers, running heads and references it has in the book, under a banner:
  Chapter 6 only ("Playing the Game", pages 21-30): the whole book is rendering...
then the whole book replaces it. Try it:
  printshop serve players-guide
  # open http://127.0.0.1:8000/preview/players-guide#players-guide.pdf
  echo "A new closing line." >> rules-src/guide/06-playing.md
""")
@click.argument("products", nargs=-1)
@source_option
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Output folder (default: ./build, or DIR/build with --source DIR).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can connect unless you change it.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@debug_option
@handle_errors
def serve(products, source, out, port, host, jobs, debug):
    """Build PRODUCTS (default: all), serve the output folder with live preview pages, and
    rebuild when a source file is saved.

    The index page lists the products; each has a preview page that shows its HTML edition
    or its PDF pages and updates in place, keeping your place, when a build changes it.
    Only what a change touched is rebuilt (the build cache); the HTML editions come first.
    A build that fails shows its problems over the last good pages, and in the terminal.
    """
    from printshop.serve import run

    check_system_libraries()
    if out is None:
        out = Path(source) / "build" if source is not None else Path("build")

    def log(message: str) -> None:
        click.echo(message, err=True)

    run(source or default_source(), out, list(products) or None, host, port, jobs, log)


@click.command(epilog="""\b
Examples:
  printshop check
  printshop check --source rules-src --strict
""")
@click.argument("products", nargs=-1)
@source_option
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--profile", default=None, metavar="NAME",
              help="Check the products for this print profile (colours the palette cannot "
                   "print in CMYK, kinds that print for home only).")
@debug_option
@handle_errors
def check(products, source, strict, profile, debug):
    """Validate the source (YAML, tables, Markdown, templates) without rendering."""
    from printshop.builder import check_project

    report = check_project(source or default_source(), list(products) or None,
                           profile=profile)
    echo_problems(report.warnings, prefix="warning: ")
    if strict and report.warnings:
        click.echo(f"printshop: {len(report.warnings)} warning(s) and --strict", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"printshop: OK: {len(report.products)} product"
               f"{'s' if len(report.products) != 1 else ''} checked in {report.seconds:.2f} s"
               f"{f', {len(report.warnings)} warning(s)' if report.warnings else ''}")


@click.command("new", epilog="""\b
Examples:
  printshop new my-game                     a project in ./my-game, titled "My Game"
  printshop new ~/games/tunnel-rats --title "Tunnel Rats!"
  cd my-game && printshop build             the book, the deck and the reference sheet
""")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--title", default=None, help="The game's title (default: from the folder's "
              "name).")
@debug_option
@handle_errors
def new(folder, title, debug):
    """Start a new game project in FOLDER (new or empty): a manifest, a chapter, tables, a
    deck, a reference sheet and a README saying what to edit. It builds as it is."""
    from printshop.scaffold import new_project

    files = new_project(folder, title)
    for relative in files:
        click.echo(f"wrote {Path(folder) / relative}")
    import shlex

    click.echo(f"printshop: new project in {folder}; next: cd {shlex.quote(str(folder))} && "
               "printshop build", err=True)


@click.command(epilog="""\b
Examples:
  printshop bundle                          build/hammercrawl-print-and-play/ and .zip
  printshop bundle --paper a4               the same on A4: A5 booklets, A4 card sheets
  printshop bundle --source ~/my-game --out /tmp/pnp
""")
@source_option
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Output folder (default: ./build, or DIR/build with --source DIR).")
@click.option("--paper", type=click.Choice(("letter", "a4")), default=None,
              help="The paper everything prints on (default: the manifest's).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@debug_option
@handle_errors
def bundle(source, out, paper, strict, jobs, quiet, debug):
    """Write the game's print-and-play files as a folder and a zip: every book as a folded
    booklet (or its own layout, such as a pocketmod zine), the card decks, the reference
    sheets and the blank character sheet, on one paper, and PRINTING.txt saying how to
    print each (paper, double- or one-sided and the edge to flip on, 100 %).

    The products build as `printshop build` builds them (books as booklets), into
    OUT/.print-and-play/ with its own build cache; OUT's own files are left alone. The zip
    is reproducible: fixed dates, entries in name order.
    """
    from printshop.bundle import make_bundle

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"printshop: {message}", err=True)

    if out is None:
        out = Path(source) / "build" if source is not None else Path("build")
    report = make_bundle(source or default_source(), out, paper=paper, strict=strict,
                         jobs=jobs, progress=progress,
                         before_render=lambda: check_system_libraries(quiet))
    echo_problems(report.warnings, prefix="warning: ")
    if not quiet:
        for entry in report.entries:
            click.echo(f"  {entry.file}: {entry.what}")
        click.echo(f"wrote {report.folder}/ ({len(report.entries) + 1} files)")
        click.echo(f"wrote {report.zip}")
        click.echo(f"printshop: bundle made in {report.seconds:.1f} s", err=True)


def check_patch_switches() -> None:
    """PRINTSHOP_WEASYPRINT_PATCHES names only patches that exist (a typo would otherwise
    leave on the patch meant to be off)."""
    import os

    from printshop.render.weasy.registry import ENV

    if not os.environ.get(ENV, "").strip():
        return
    from printshop.errors import PrintshopError, Problem
    from printshop.render.weasy import registry

    _, unknown = registry.switched_off()
    if unknown:
        import difflib

        known = registry.names()
        problems = []
        for name in unknown:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(Problem(ENV, f"{name!r} is not a WeasyPrint patch{hint}; "
                                         f"the patches: {', '.join(known)}, or 'off'"))
        raise PrintshopError(problems)
