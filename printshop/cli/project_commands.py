"""The commands that work on a project: build, bundle, serve, check and new."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from printshop.cli.options import (
    PAPERS,
    Choice,
    card_print_options,
    complete_products,
    debug_option,
    project_folder,
    serial_option,
    source_option,
)
from printshop.cli.problems import (
    EXIT_BAD_INPUT,
    check_system_libraries,
    echo_warnings,
    handle_errors,
    stderr_colour,
)


@click.command(epilog="""\b
Examples (in a project made by `printshop new`; explanations after #):
  printshop build                      # every product of printshop.yaml into build/
  printshop build rules --paper a5     # one product, on A5
  printshop build --strict             # fail on any warning (as CI should)
  printshop build omen-deck --layout foldover --paper a4   # for a one-sided printer
  printshop build rules --profile dtrpg-book --out print   # PDF/X-1a, CMYK, bleed
  printshop build omen-deck --profile dtc-cards --out print   # a card a page, bleed
  printshop build rules --profile dtrpg-book --cover --out print   # and its cover wrap
  printshop build rules --paper a4 --layout booklet   # an A5 booklet on A4 sheets
  printshop build reference --layout pocketmod   # up to 8 pages on one sheet, a zine

\b
A folder of Markdown chapters from elsewhere, as a book (a Jekyll, Hugo or MkDocs site,
an mdBook, an Obsidian vault: read in the order its SUMMARY.md or mkdocs.yml nav gives):
  printshop build --source ~/my-novel --out ~/my-novel-book
""")
@click.argument("products", nargs=-1, shell_complete=complete_products)
@source_option
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Output folder (default: the project's build/, or DIR/build with --source "
                   "DIR). Any other place must be named here.")
@click.option("--paper", type=Choice(PAPERS), default=None,
              help="Paper for every product (default: each product's, else the manifest's). "
                   "Character and reference sheets are laid out for letter and a4: on "
                   "another paper they keep their own, with a warning.")
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
@serial_option
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
    from printshop.cli.progress import progress_reporter

    check_patch_switches()
    located = project_folder(source, quiet)
    if out is None:  # never write outside the project unless the user says where
        out = located.home / "build"
    with progress_reporter(quiet) as progress:   # a bar on a terminal, else lines
        report = build_project(located.source, out, list(products) or None,
                               paper=paper, strict=strict, jobs=jobs, progress=progress,
                               uncompressed=uncompressed, timeout=timeout, force=force,
                               context_options={"card_options": card_options,
                                                "layout": page_layout, "cover": cover,
                                                "spine_width": spine_width},
                               profile=profile,
                               # only when something is rendered: a no-op build stays fast
                               before_render=lambda: check_system_libraries(quiet))
    echo_warnings(report.warnings)
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
Examples (in a project made by `printshop new`; explanations after #):
  printshop serve                  # build, then open http://127.0.0.1:8000/
  printshop serve rules            # only the book: save a chapter, see the page
  printshop serve --port 8080      # another port
  printshop serve --host 0.0.0.0   # a registration desk: other machines may look

\b
A saved chapter shows in the PDF view alone first, a few seconds after the save, with
the page numbers, running heads and references it has in the book, under a banner:
  Chapter 1 only ("Playing the Game", pages 3-4): the whole book is rendering...
then the whole book replaces it. Try it: run `printshop serve rules`, open
http://127.0.0.1:8000/preview/rules#rules.pdf, then in another terminal:
  echo "A new closing line." >> guide/01-playing.md
Warnings show as a badge; http://127.0.0.1:8000/make rolls a pack or builds a kit.
Only requests addressed to this server are answered (its Host), never another site's.
""")
@click.argument("products", nargs=-1, shell_complete=complete_products)
@source_option
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Output folder (default: the project's build/, or DIR/build with --source "
                   "DIR).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can connect unless you change it. "
                   "Requests are answered only when addressed to this address (or "
                   "localhost), and never for another web site's page.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@serial_option
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
    located = project_folder(source)
    if out is None:
        out = located.home / "build"

    def log(message: str) -> None:
        click.echo(message, err=True)

    run(located.source, out, list(products) or None, host, port, jobs, log,
        stderr_colour())


@click.command(epilog="""\b
Examples (in a project made by `printshop new`; explanations after #):
  printshop check                  # every product: every problem at once, nothing rendered
  printshop check --strict         # warnings count as problems (exit status 2)
  printshop check rules reference  # only these products
  printshop check rules --profile dtrpg-book   # what print-on-demand could not print
""")
@click.argument("products", nargs=-1, shell_complete=complete_products)
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

    report = check_project(project_folder(source).source, list(products) or None,
                           profile=profile)
    echo_warnings(report.warnings)
    if strict and report.warnings:
        click.echo(f"printshop: {len(report.warnings)} warning(s) and --strict", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"printshop: OK: {len(report.products)} product"
               f"{'s' if len(report.products) != 1 else ''} checked in {report.seconds:.2f} s"
               f"{f', {len(report.warnings)} warning(s)' if report.warnings else ''}")


@click.command("new", epilog="""\b
Examples (explanations after #):
  printshop new my-game            # a project in ./my-game, titled "My Game"
  printshop new tunnel-rats --title "Tunnel Rats!"
  printshop new .                  # here, in an empty folder
then, in the project's folder:
  printshop build                  # the book, the deck and the reference sheet
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
Examples (in a project made by `printshop new`; explanations after #):
  printshop bundle                 # build/my-game-print-and-play/ and its .zip
  printshop bundle --paper a4      # the same on A4: A5 booklets, A4 card sheets
  printshop bundle --out print-and-play   # into another folder
""")
@source_option
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Output folder (default: the project's build/, or DIR/build with --source "
                   "DIR).")
@click.option("--paper", type=Choice(("letter", "a4")), default=None,
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
    from printshop.cli.progress import progress_reporter

    located = project_folder(source, quiet)
    if out is None:
        out = located.home / "build"
    with progress_reporter(quiet) as progress:
        report = make_bundle(located.source, out, paper=paper, strict=strict,
                             jobs=jobs, progress=progress,
                             before_render=lambda: check_system_libraries(quiet))
    echo_warnings(report.warnings)
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
