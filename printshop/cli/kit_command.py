"""`printshop kit`: a convention kit from the command line, for organisers who never open
YAML."""

from __future__ import annotations

from pathlib import Path

import click

from printshop.cli.options import Choice, debug_option, project_folder, source_option
from printshop.cli.problems import check_system_libraries, echo_warnings, handle_errors

# the same bounds as a manifest's convention entry (a test says so)
MAX_TABLES, MAX_SEATS, MAX_PER_SEAT = 500, 12, 10


@click.command("kit", epilog="""\b
Examples (in a game with character classes, such as HAMMERCRAWL!'s rules-src/):
  printshop kit --tables 2 --seats 4 --per-seat 2 --seed con-2026
  printshop kit --tables 6 --seats 5 --per-seat 3 --seed con-2026 --paper a4
  printshop kit --tables 1 --seats 3 --per-seat 1 --class fighter,thief --seed demo
  printshop kit --tables 2 --seats 2 --seed con-2026 --include event-deck --out con-kit

\b
Each table's envelope is OUT/kit-SEED/table-NN.pdf (a cover, each seat's sheets, a
player reference per seat, the includes); OUT/kit-SEED.pdf is the whole kit and
OUT/kit-SEED/kit.json says which sheet is where. OUT/kit-SEED/manifest-entry.yaml is the
manifest entry the kit was built from: paste it into printshop.yaml to keep the kit.
""")
@click.option("--tables", type=click.IntRange(1, MAX_TABLES), required=True,
              help="How many tables (one envelope each).")
@click.option("--seats", type=click.IntRange(1, MAX_SEATS), default=6, show_default=True,
              help="Players at each table.")
@click.option("--per-seat", type=click.IntRange(1, MAX_PER_SEAT), default=3,
              show_default=True, help="Characters for each player (spares for the dead).")
@click.option("--seed", default=None, metavar="SEED",
              help="Same seed, same characters (default: a new one, printed). Character n "
                   "of a seed is the same in a kit of any size.")
@click.option("--paper", type=Choice(["letter", "a4"]), default=None,
              help="Paper (default: the manifest's).")
@click.option("--class", "classes", default=None, metavar="LIST",
              help="Only these classes, comma-separated (ids or words of them).")
@click.option("--recipe", default=None, metavar="NAME",
              help="How the characters are made: recipes/NAME.yaml (default: characters, or "
                   "the game's only recipe).")
@click.option("--class-table", default=None, metavar="NAME",
              help="Which of the recipe's class tables (HAMMERCRAWL!: guide, the rules' class "
                   "roll, or flat: every class equally likely).")
@click.option("--reroll-while", "reroll_while", multiple=True, metavar="EXPR",
              help="Roll a character again while this holds, e.g. \"luck == 0\" (may be "
                   "given more than once).")
@click.option("--include", default=None, metavar="LIST",
              help="Products of the manifest or layouts in sheets/ to put in every envelope "
                   "once, comma-separated (e.g. event-deck).")
@click.option("--reference", default=None, metavar="NAME",
              help="The sheet each seat gets (default: player-reference when the game has "
                   "one; none for no sheet).")
@click.option("--no-backs", is_flag=True,
              help="No tombstone on the back of each sheet (print single-sided).")
@click.option("--title", default="Convention Kit", show_default=True,
              help="The kit's title, on each table's cover.")
@click.option("--name", default=None, metavar="NAME",
              help="The kit's file name (default: kit-SEED).")
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Output folder (default: the project's build/).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@source_option
@debug_option
@handle_errors
def kit(tables, seats, per_seat, seed, paper, recipe, classes, class_table, reroll_while,
        include, reference, no_backs, title, name, out, strict, jobs, quiet, source, debug):
    """Build a convention kit: one envelope (PDF) per table with each seat's random
    characters, without editing printshop.yaml."""
    from printshop.cli.progress import progress_reporter
    from printshop.products.characters.kit import (
        KitRequest,
        build_kit,
        envelope_lines,
        prepare_kit,
        split_list,
        write_kit,
    )
    from printshop.project import Project
    from printshop.render.renderer import Renderer

    located = project_folder(source, quiet)
    out = out if out is not None else located.home / "build"
    request = KitRequest(tables=tables, seats=seats, per_seat=per_seat, seed=seed,
                         paper=paper, classes=split_list(classes), class_table=class_table,
                         recipe=recipe, reroll_while=list(reroll_while),
                         include=split_list(include), reference=reference,
                         backs=not no_backs, title=title, name=name)
    project = Project.load(located.source)
    with progress_reporter(quiet) as progress:
        product, ctx = prepare_kit(project, request, progress=progress, strict=strict)
        check_system_libraries(quiet)
        with Renderer(processes=jobs) as renderer:
            built = build_kit(product, ctx, renderer)
        write_kit(built, out, progress)
    echo_warnings(built.warnings)
    if not quiet:
        if seed is None:
            click.echo(f"printshop: seed {built.seed} (give --seed {built.seed} to build the "
                       "same kit again)", err=True)
        for line in envelope_lines(built, out):
            click.echo(line)
