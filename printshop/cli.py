"""The command line: printshop build | check | roll."""

from __future__ import annotations

import functools
import os
import sys
import traceback
from pathlib import Path

import click

from printshop import __version__
from printshop.errors import PrintshopError, unique_sorted

# The same as printshop.project.PAPERS (a test says so); not imported from there, because
# that loads the Markdown and YAML readers, and a build with nothing to do must start fast.
PAPERS = ("letter", "a4", "a5", "a3", "digest")

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1


def default_source() -> Path:
    return Path("rules-src") if Path("rules-src").is_dir() else Path(".")


def _echo_problems(problems, prefix: str = "") -> None:
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
            _echo_problems(problems)
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


def source_option(function):
    return click.option("--source", "source", type=click.Path(path_type=Path),
                        default=None, metavar="DIR",
                        help="Project folder (default: ./rules-src if it exists, else .): "
                             "the one with printshop.yaml, or a folder that keeps it in "
                             "rules-src/. A folder of Markdown files with no manifest builds "
                             "as a book.")(
        function)


def debug_option(function):
    return click.option("--debug", is_flag=True, help="Show Python tracebacks.")(function)


def card_print_options(function, with_format: bool = True):
    """--layout, --flip, --card-size, --guides, --format, --bleed for card products, passed
    on as one `card_options` dict (only the options given)."""
    options = [
        click.option("--layout", type=click.Choice(["home", "foldover", "printshop"]),
                     default=None, help="Cards: home (duplex sheets, the default), foldover "
                     "(fold each sheet in half) or printshop (one card a page, 3 mm bleed)."),
        click.option("--flip", type=click.Choice(["long", "short"]), default=None,
                     help="Cards, home layout: how your duplex printer turns the sheet "
                     "(default long)."),
        click.option("--card-size", "card_size", metavar="SIZE", default=None,
                     help="Cards: poker, bridge, tarot, mini, a8, a7 or a size from the "
                     "project's card-sizes.yaml (default: each deck's)."),
        click.option("--guides", is_flag=True, default=False,
                     help="Cards: draw the trim (magenta), bleed (blue) and safe-zone (green) "
                     "lines."),
    ]
    if with_format:
        options.append(click.option(
            "--format", "card_formats", type=click.Choice(["pdf", "png"]), multiple=True,
            help="Cards: pdf and/or png (one 300 dpi image per card face, in a folder named "
                 "after the product). Repeatable."))
    options.append(click.option(
        "--bleed/--no-bleed", "png_bleed", default=None,
        help="Cards, PNG: include the 3 mm bleed (default: cut to the card)."))

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        given = {"layout": kwargs.pop("layout"), "flip": kwargs.pop("flip"),
                 "size": kwargs.pop("card_size"), "guides": kwargs.pop("guides") or None,
                 "formats": list(kwargs.pop("card_formats", ())) or None,
                 "png_bleed": kwargs.pop("png_bleed")}
        kwargs["card_options"] = {k: v for k, v in given.items() if v is not None}
        return function(*args, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def _print_version(ctx) -> None:
    """What a bug report needs: printshop's, WeasyPrint's and the system libraries' versions."""
    from importlib.metadata import PackageNotFoundError, version

    from printshop import system_check

    try:
        weasyprint = version("weasyprint")
    except PackageNotFoundError:
        weasyprint = "not installed"
    found = system_check.versions()
    subsetter = ("HarfBuzz" if system_check.SUBSETTER.label not in
                 system_check.missing_libraries() else "fontTools (libharfbuzz-subset missing)")
    click.echo(f"printshop {__version__}\nWeasyPrint {weasyprint}\n"
               f"Pango {found.get('Pango', 'not found')}\n"
               f"HarfBuzz {found.get('HarfBuzz', 'not found')} (font subsetter: {subsetter})")
    ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog="""\b
Examples:
  printshop new my-game                   start a new game project in ./my-game
  printshop build                         build every product into build/
  printshop build players-guide --paper a4
  printshop check                         validate the source without rendering
  printshop serve                         live preview at http://127.0.0.1:8000/
  printshop build --source ~/my-novel --out /tmp/novel   a folder of Markdown as a book
""")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _param, value: _print_version(ctx) if value else None,
              help="Show the versions of printshop, WeasyPrint, Pango and HarfBuzz, and exit.")
def cli():
    """printshop: a game's rules source (Markdown + YAML) into print-ready PDFs and HTML."""


@cli.command(epilog="""\b
Examples:
  printshop build                           every product of rules-src/printshop.yaml
  printshop build players-guide --paper a5  one product, on A5
  printshop build --strict                  fail on any warning (CI does this)
  printshop build --source manuscript/ --out out/   a folder of Markdown chapters as a book
  printshop build event-deck --layout foldover --paper a4   a card deck for a simplex printer
  printshop build players-guide --profile dtrpg-book   PDF/X-1a, CMYK, bleed: DriveThruRPG
  printshop build event-deck --profile dtc-cards        one card a page for DriveThruCards
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
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@click.option("--timeout", type=click.FloatRange(1, 86400), default=None, metavar="SECONDS",
              help="Stop a render that takes longer than this (default 600; "
                   "PRINTSHOP_RENDER_TIMEOUT).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@click.option("--force", is_flag=True,
              help="Build even the products that are up to date (ignore the build cache).")
@click.option("--uncompressed", is_flag=True, hidden=True)
@card_print_options
@debug_option
@handle_errors
def build(products, source, out, paper, strict, profile, jobs, timeout, quiet, force,
          uncompressed, debug, card_options):
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

    if out is None:  # never write outside the project unless the user says where
        out = Path(source) / "build" if source is not None else Path("build")
    report = build_project(source or default_source(), out, list(products) or None,
                           paper=paper, strict=strict, jobs=jobs, progress=progress,
                           uncompressed=uncompressed, timeout=timeout, force=force,
                           context_options={"card_options": card_options},
                           profile=profile,
                           # only when something is rendered: a no-op build stays fast
                           before_render=lambda: check_system_libraries(quiet))
    _echo_problems(report.warnings, prefix="warning: ")
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


@cli.command(epilog="""\b
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


@cli.command(epilog="""\b
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
    _echo_problems(report.warnings, prefix="warning: ")
    if strict and report.warnings:
        click.echo(f"printshop: {len(report.warnings)} warning(s) and --strict", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"printshop: OK: {len(report.products)} product"
               f"{'s' if len(report.products) != 1 else ''} checked in {report.seconds:.2f} s"
               f"{f', {len(report.warnings)} warning(s)' if report.warnings else ''}")


@cli.command("new", epilog="""\b
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


@cli.command(epilog="""\b
Examples:
  printshop preflight build/players-guide.pdf --profile dtrpg-book
  printshop preflight build/event-deck.pdf --profile dtc-cards --card-size poker
  printshop preflight build/players-guide.pdf --profile dtrpg-book --json
""")
@click.argument("pdf", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--profile", "profile_name", default="home", show_default=True,
              metavar="NAME", help="Print profile to check against (print-profiles.yaml).")
@click.option("--card-size", "card_size", default=None, metavar="SIZE",
              help="Cards: the trim is this card size (default: not checked for cards).")
@click.option("--json", "as_json", is_flag=True, help="Findings as JSON on standard output.")
@source_option
@debug_option
@handle_errors
def preflight(pdf, profile_name, card_size, as_json, source, debug):
    """Check PDF against a print profile: page boxes and bleed, page count, PDF/X keys and
    output intent, colour spaces used, total ink, fonts, image resolution, transparency,
    links and bookmarks, file size.

    One line per finding (`p12: E-RGB: DeviceRGB fill colour in text`); exit status 1
    when any finding is an error (E-…), 0 when there are only warnings (W-…) or none.
    """
    from printshop.preflight import preflight as run, report_json, report_text, papers_mm
    from printshop.profiles import get_profile

    from printshop.project import rules_folder

    # the project's print profiles, card sizes and ICC files: its folder as `build` reads
    # it (one with printshop.yaml, a folder keeping it in rules-src/, or a manuscript)
    root = rules_folder(source or default_source())
    root = root if root.is_dir() else None
    profile = get_profile(profile_name, root)
    if not pdf.is_file():
        raise PrintshopError.at(pdf, "file not found")
    trim = None
    if card_size:
        from printshop.cards.sizes import card_size as find_size, load_card_sizes

        size = find_size(card_size, load_card_sizes(root), "--card-size")
        trim = (size.width, size.height)
    elif profile.trim:
        trim = papers_mm()[profile.trim]
    icc = profile.icc_path(root)
    findings = run(pdf.read_bytes(), profile, trim, icc.read_bytes() if icc else None)
    if as_json:
        click.echo(report_json(findings, str(pdf), profile.name), nl=False)
    else:
        click.echo(report_text(findings, str(pdf), profile.name))
    sys.exit(1 if any(f.error for f in findings) else 0)


@cli.group(epilog="""\b
Examples:
  printshop roll --help
""")
def roll():
    """Roll random things (characters, hirelings) from the project's tables."""


@roll.command("hirelings", epilog="""\b
Examples:
  printshop roll hirelings --count 9 --seed inn                 9 hirelings, build/hirelings-inn.pdf
  printshop roll hirelings --seed inn --tier 2 --count 3        three Tier 2 experts
  printshop roll hirelings --seed inn --format json --out -     as JSON on standard output
  printshop roll hirelings --seed inn --format png --bleed      300 dpi PNGs for a virtual tabletop
""")
@click.option("--count", "-n", type=click.IntRange(1, 10_000), default=9, show_default=True,
              help="How many hirelings.")
@click.option("--seed", default=None, metavar="SEED",
              help="Same seed, same hirelings (default: a fresh seed, printed).")
@click.option("--tier", type=int, default=None,
              help="Only this tier (default: tiers drawn by their chance of finding).")
@click.option("--format", "output_format", type=click.Choice(["pdf", "json", "png"]),
              default="pdf", show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="PATH",
              help="File (pdf, json; - is standard output for json) or folder (png). "
                   "Default: build/hirelings-SEED.pdf, .json or build/hirelings-SEED/.")
@click.option("--deck", default="hirelings", show_default=True,
              help="The hireling deck file (decks/DECK.yaml): look, size and settings.")
@click.option("--paper", type=click.Choice(PAPERS), default=None,
              help="Paper (default: the manifest's).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@source_option
@functools.partial(card_print_options, with_format=False)
@debug_option
@handle_errors
def hirelings(count, seed, tier, output_format, out, deck, paper, strict, jobs, quiet, source,
              debug, card_options):
    """Roll hireling cards: name, profession, tier, cost, expertise, Hit Dice, quirk."""
    import re

    from printshop.dice import new_pack_seed
    from printshop.products.hireling_cards import hirelings_json, roll_hireling_pack

    seed = seed if seed is not None else new_pack_seed()
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", seed):
        raise PrintshopError.at("--seed", f"'{seed}': use up to 40 letters, digits, '.', '_' "
                                "and '-' (it is printed on every card and names the file)")

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"printshop: {message}", err=True)

    if output_format == "json" and out is not None and str(out) == "-":
        from printshop.project import Project
        from printshop.roll.hirelings import hireling_tables, roll_hirelings
        from printshop.source.decks import load_deck

        project = Project.load(source or default_source())
        loaded = load_deck(project, deck, where=("--deck", None))
        if loaded.spec.hirelings is None:
            raise PrintshopError.at("--deck", f"deck '{deck}' is not a hireling deck")
        tables = hireling_tables(project.tables, loaded.spec.hirelings, loaded.path)
        if tier is not None and tier not in tables.tier_numbers:
            raise PrintshopError.at("--tier", f"no tier {tier} (tiers: "
                                    f"{', '.join(map(str, tables.tier_numbers))})")
        click.echo(hirelings_json(roll_hirelings(tables, seed, count, tier)), nl=False)
        return
    check_system_libraries(quiet)
    written, rolled, warnings = roll_hireling_pack(
        source or default_source(), seed, count, tier, output_format, out, paper,
        card_options, deck_id=deck, jobs=jobs, progress=progress, strict=strict)
    _echo_problems(warnings, prefix="warning: ")
    if not quiet:
        where = written[0].parent if output_format == "png" else written[0]
        click.echo(f"wrote {where} ({len(rolled)} hireling{'s' if len(rolled) != 1 else ''}, "
                   f"seed {seed})")


@roll.command("characters", epilog="""\b
Examples:
  printshop roll characters --count 50 --seed con-2025          50 sheets and a cover
  printshop roll characters --count 12 --seed con-2025 --class fighter,thief --backs
  printshop roll characters --count 8 --class-table flat --paper a4
  printshop roll characters --count 3 --seed con-2025 --format json --out -
  printshop roll characters --seed con-2026 --backs --first 14 --count 1   sheet #14 again
""")
@click.option("--count", "-n", type=int, default=1, show_default=True,
              help="How many characters (more than 10,000 needs --yes).")
@click.option("--first", type=int, default=1, show_default=True,
              help="Number of the first character: --first 14 --count 1 reprints the sheet "
                   "SEED #14 alone.")
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
def roll_characters(count, first, seed, classes, class_table, paper, backs, fmt, out, yes,
                    jobs, quiet, source, debug):
    """Roll characters by the Player's Guide and print them: a cover with an index, then one
    sheet per character (or JSON for virtual tabletops).

    Bad input (a count below 1, an unknown class, a broken table) prints what is wrong and
    writes nothing.
    """
    from printshop.products.character_pack import roll_characters_to_bytes

    def progress(message: str) -> None:
        if not quiet:
            click.echo(f"printshop: {message}", err=True)

    if out is not None and str(out) == "-":
        out = None
        to_stdout = True
    else:
        to_stdout = False
    if fmt != "json":
        check_system_libraries(quiet)
    result = roll_characters_to_bytes(
        source or default_source(), count=count, seed=seed, classes=classes,
        class_table=class_table, paper=paper, backs=backs, fmt=fmt, large_ok=yes, jobs=jobs,
        progress=progress, first=first)
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
