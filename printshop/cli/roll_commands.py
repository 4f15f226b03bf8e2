"""`printshop roll`: hirelings (cards or JSON) and characters (sheets or JSON) rolled from
the project's tables."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from printshop.cli.options import (
    PAPERS,
    Choice,
    card_print_options,
    debug_option,
    project_folder,
    serial_option,
    source_option,
)
from printshop.cli.problems import check_system_libraries, echo_warnings, handle_errors
from printshop.errors import PrintshopError


@click.group(epilog="""\b
Examples (in a game with character classes and hirelings, such as rules-src/):
  printshop roll characters --count 12 --seed con-2026   # 12 sheets and a cover
  printshop roll hirelings --count 9 --seed inn          # 9 hireling cards
""")
def roll():
    """Roll random things (characters, hirelings) from the project's tables."""


@roll.command("hirelings", epilog="""\b
Examples (in a game with a hireling deck, such as HAMMERCRAWL!'s rules-src/):
  printshop roll hirelings --count 9 --seed inn   # build/hirelings-inn.pdf
  printshop roll hirelings --seed inn --tier 2 --count 3   # three Tier 2 experts
  printshop roll hirelings --seed inn --tier 2 --first 3 --count 1   # the card SEED inn T2 #3
  printshop roll hirelings --seed inn --format json --out -   # JSON on standard output
  printshop roll hirelings --seed inn --count 2 --format png --bleed   # 300 dpi PNGs
""")
@click.option("--count", "-n", type=click.IntRange(1, 10_000), default=9, show_default=True,
              help="How many hirelings.")
@click.option("--seed", default=None, metavar="SEED",
              help="Same seed, same hirelings (default: a fresh seed, printed).")
@click.option("--first", type=click.IntRange(1, None), default=1, show_default=True,
              help="Number of the first hireling: --first 3 --count 1 reprints the card "
                   "SEED S #3 (with --tier 2: SEED S T2 #3) alone.")
@click.option("--tier", type=int, default=None,
              help="Only this tier (default: tiers drawn by their chance of finding).")
@click.option("--format", "output_format", type=Choice(["pdf", "json", "png"]),
              default="pdf", show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="PATH",
              help="File (pdf, json; - is standard output for json) or folder (png). "
                   "Default: build/hirelings-SEED.pdf, .json or build/hirelings-SEED/.")
@click.option("--deck", default="hirelings", show_default=True,
              help="The hireling deck file (decks/DECK.yaml): look, size and settings.")
@click.option("--paper", type=Choice(PAPERS), default=None,
              help="Paper (default: the manifest's).")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@serial_option
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@source_option
@functools.partial(card_print_options, with_format=False)
@debug_option
@handle_errors
def hirelings(count, first, seed, tier, output_format, out, deck, paper, strict, jobs, quiet,
              source, debug, card_options):
    """Roll hireling cards: name, profession, tier, cost, expertise, Hit Dice, quirk."""
    import re

    from printshop.dice import new_pack_seed
    from printshop.products.cards.hirelings import hirelings_json, roll_hireling_pack

    seed = seed if seed is not None else new_pack_seed()
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", seed):
        raise PrintshopError.at("--seed", f"'{seed}': use up to 40 letters, digits, '.', '_' "
                                "and '-' (it is printed on every card and names the file)")

    located = project_folder(source, quiet)
    if output_format == "json" and out is not None and str(out) == "-":
        from printshop.project import Project
        from printshop.roll.hirelings import hireling_tables, roll_hirelings
        from printshop.source.decks import load_deck

        project = Project.load(located.source)
        loaded = load_deck(project, deck, where=("--deck", None))
        if loaded.spec.hirelings is None:
            raise PrintshopError.at("--deck", f"deck '{deck}' is not a hireling deck")
        tables = hireling_tables(project.tables, loaded.spec.hirelings, loaded.path)
        if tier is not None and tier not in tables.tier_numbers:
            raise PrintshopError.at("--tier", f"no tier {tier} (tiers: "
                                    f"{', '.join(map(str, tables.tier_numbers))})")
        click.echo(hirelings_json(roll_hirelings(tables, seed, count, tier, first)), nl=False)
        return
    from printshop.cli.progress import progress_reporter

    check_system_libraries(quiet)
    with progress_reporter(quiet) as progress:
        written, rolled, warnings = roll_hireling_pack(
            located.source, seed, count, tier, output_format, out, paper,
            card_options, deck_id=deck, jobs=jobs, progress=progress, strict=strict,
            first=first, out_dir=located.home / "build")
    echo_warnings(warnings)
    if not quiet:
        where = written[0].parent if output_format == "png" else written[0]
        click.echo(f"wrote {where} ({len(rolled)} hireling{'s' if len(rolled) != 1 else ''}, "
                   f"seed {seed})")


@roll.command("characters", epilog="""\b
Examples (in a game with character classes, such as HAMMERCRAWL!'s rules-src/):
  printshop roll characters --count 12 --seed con-2025   # 12 sheets and a cover
  printshop roll characters --count 6 --seed con-2025 --class fighter,thief --backs
  printshop roll characters --count 4 --class-table flat --paper a4
  printshop roll characters --count 3 --seed con-2025 --format json --out -
  printshop roll characters --count 6 --seed dd --reroll-while "max(values(mods)) <= 0"   # none hopeless
  printshop roll characters --seed con-2025 --paper letter --no-cover --first 14 --count 1
  printshop roll characters --seed con-2026 --backs --seats 4 --per-seat 2 --no-cover --first 14 --count 1   # a kit's #14
For the games of printshop's repository (in a game with a recipe of its own, from the repository):
  printshop roll characters --source games/dice-and-danger --count 50 --seed S --format json --out -
  printshop roll characters --source games/red-hack --recipe retainers --count 9 --seed inn

\b
A pack's cover and a kit's envelope print the exact command that reprints one of their
sheets.
""")  # noqa: E501 (example command lines are copied whole)
@click.option("--count", "-n", type=int, default=1, show_default=True,
              help="How many characters (more than 10,000 needs --yes).")
@click.option("--first", type=int, default=1, show_default=True,
              help="Number of the first character: --first 14 --count 1 reprints the sheet "
                   "SEED #14 alone.")
@click.option("--seed", default=None,
              help="Pack seed; the same seed rolls the same characters (default: a new one, "
                   "printed). Character n of a seed is the same in a pack of any size.")
@click.option("--recipe", default=None, metavar="NAME",
              help="How the characters are made: the project's recipes/NAME.yaml "
                   "(docs/recipes.md). Default: characters, or the project's only recipe.")
@click.option("--class", "classes", default=None, metavar="LIST",
              help="Only these classes, comma-separated: ids or words of them (fighter, "
                   "thief, dwarf, human, magic-user, …).")
@click.option("--class-table", default=None, metavar="NAME",
              help="Which of the recipe's class tables to roll on (HAMMERCRAWL!: guide, the "
                   "Player's Guide's 3d6 roll, or flat: every class equally likely). "
                   "Default: the recipe's first.")
@click.option("--reroll-while", "reroll_while", multiple=True, metavar="EXPR",
              help="Roll a character again while this holds, e.g. \"max(values(mods)) <= 0\" "
                   "(a recipe expression over its values; may be given more than once).")
@click.option("--paper", type=Choice(["letter", "a4"]), default=None,
              help="Paper (default: the manifest's).")
@click.option("--backs", is_flag=True,
              help="Add a tombstone back to every sheet (print double-sided, long edge).")
@click.option("--no-cover", "no_cover", is_flag=True,
              help="Only the sheets (and their backs): no cover and index. For reprinting "
                   "a lost sheet.")
@click.option("--seats", type=click.IntRange(1, 12), default=None, metavar="N",
              help="With --per-seat: mark each sheet with its table and seat (Table 2 · "
                   "Seat 3) as a convention kit of N seats a table does.")
@click.option("--per-seat", "per_seat", type=click.IntRange(1, 10), default=None,
              metavar="N", help="With --seats: the kit's characters a seat.")
@click.option("--format", "fmt", type=Choice(["pdf", "html", "json"]), default="pdf",
              show_default=True)
@click.option("--out", type=click.Path(path_type=Path), default=None, metavar="PATH",
              help="Output file, or - for standard output (default: "
                   "build/characters-SEED.FORMAT).")
@click.option("--yes", is_flag=True, help="Confirm a pack of more than 10,000 characters.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Render processes (default: one per core).")
@serial_option
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@source_option
@debug_option
@handle_errors
def roll_characters(count, first, seed, recipe, classes, class_table, reroll_while, paper,
                    backs, no_cover, seats, per_seat, fmt, out, yes, jobs, quiet, source,
                    debug):
    """Roll characters by the game's recipe (recipes/characters.yaml) and print them: a cover
    with an index, then one sheet per character (or JSON for virtual tabletops).

    Bad input (a count below 1, an unknown class, a broken table) prints what is wrong and
    writes nothing.
    """
    from printshop.cli.progress import progress_reporter
    from printshop.products.characters.pack import roll_characters_to_bytes

    if out is not None and str(out) == "-":
        out = None
        to_stdout = True
    else:
        to_stdout = False
    if fmt != "json":
        check_system_libraries(quiet)
    located = project_folder(source, quiet)
    with progress_reporter(quiet) as progress:
        result = roll_characters_to_bytes(
            located.source, count=count, seed=seed, classes=classes,
            class_table=class_table, paper=paper, backs=backs, fmt=fmt, large_ok=yes,
            jobs=jobs, progress=progress, first=first, recipe=recipe,
            reroll_while=list(reroll_while), cover=not no_cover, seats=seats,
            per_seat=per_seat)
    echo_warnings(result.warnings)
    if to_stdout:
        sys.stdout.buffer.write(result.data)
        sys.stdout.flush()
        return
    from printshop.output import write_atomic

    target = out or located.home / "build" / result.default_name
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, result.data)
    if not quiet:
        pages = f", {result.pages} pages" if result.pages else ""
        click.echo(f"wrote {target} ({result.count} character{'s' if result.count != 1 else ''}"
                   f", seed {result.seed}{pages})")
