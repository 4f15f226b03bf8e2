"""`printshop preflight`: a PDF checked against a print profile."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from printshop.cli.options import debug_option, locate_project, source_option
from printshop.cli.problems import handle_errors
from printshop.errors import PrintshopError


@click.command(epilog="""\b
Examples (in a project made by `printshop new`; explanations after #):
  printshop build rules omen-deck   # a PDF for home printing, first
  printshop preflight build/rules.pdf   # checked against the home profile
  printshop build rules --profile dtrpg-book --out print   # then for DriveThruRPG
  printshop preflight print/rules.pdf --profile dtrpg-book
  printshop preflight print/rules.pdf --profile dtrpg-book --json   # for scripts
  printshop build rules --profile dtrpg-book --cover --out print   # and its cover wrap
  printshop preflight print/rules-cover.pdf --profile dtrpg-book --interior print/rules.pdf
""")
@click.argument("pdf", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--profile", "profile_name", default="home", show_default=True,
              metavar="NAME", help="Print profile to check against (print-profiles.yaml).")
@click.option("--card-size", "card_size", default=None, metavar="SIZE",
              help="Cards: the trim is this card size (default: not checked for cards).")
@click.option("--interior", type=click.Path(path_type=Path, dir_okay=False), default=None,
              metavar="PDF", help="PDF is a cover wrap: check it against this interior (its "
              "size for the interior's page count and the profile's cover paper, one page, "
              "no spine text on a spine too thin for it) as well as bleed, colour and ink.")
@click.option("--cover-paper", "cover_paper", default=None, metavar="NAME",
              help="With --interior: the profile's cover paper (default: the profile's).")
@click.option("--spine-width", "spine_width", default=None, metavar="LENGTH",
              help="With --interior: the spine's width from the vendor's cover template "
              "(e.g. 0.352in), instead of the profile's formula.")
@click.option("--json", "as_json", is_flag=True, help="Findings as JSON on standard output.")
@source_option
@debug_option
@handle_errors
def preflight(pdf, profile_name, card_size, interior, cover_paper, spine_width, as_json,
              source, debug):
    """Check PDF against a print profile: page boxes and bleed, page count, PDF/X keys and
    output intent, colour spaces used, total ink, fonts, image resolution, transparency,
    links and bookmarks, file size.

    One line per finding (`p12: E-RGB: DeviceRGB fill colour in text`); exit status 1
    when any finding is an error (E-…), 0 when there are only warnings (W-…) or none.
    """
    from printshop.preflight import papers_mm, report_json, report_text
    from printshop.preflight import preflight as run
    from printshop.profiles import get_profile
    from printshop.project import rules_folder

    # the project's print profiles, card sizes and ICC files: its folder as `build` reads
    # it (one with printshop.yaml, a folder keeping it in rules-src/, or a manuscript)
    try:
        root = rules_folder(locate_project(source).source)
    except PrintshopError:   # no project here: printshop's own profiles
        root = Path(".")
    root = root if root.is_dir() else None
    profile = get_profile(profile_name, root)
    if not pdf.is_file():
        raise PrintshopError.at(pdf, "file not found")
    trim = None
    if card_size:
        from printshop.source.card_sizes import card_size as find_size
        from printshop.source.card_sizes import load_card_sizes

        size = find_size(card_size, load_card_sizes(root), "--card-size")
        trim = (size.width, size.height)
    elif profile.trim:
        trim = papers_mm()[profile.trim]
    icc = profile.icc_path(root)
    if interior is not None:
        from printshop.preflight.cover import preflight_cover
        from printshop.profiles import length_mm

        if not interior.is_file():
            raise PrintshopError.at(interior, "file not found")
        try:
            spine = length_mm(spine_width) if spine_width else None
        except ValueError as exc:
            raise PrintshopError.at("--spine-width", str(exc)) from None
        findings = preflight_cover(pdf.read_bytes(), profile, interior.read_bytes(),
                                   icc.read_bytes() if icc else None, cover_paper, spine)
    else:
        findings = run(pdf.read_bytes(), profile, trim, icc.read_bytes() if icc else None)
    if as_json:
        click.echo(report_json(findings, str(pdf), profile.name), nl=False)
    else:
        click.echo(report_text(findings, str(pdf), profile.name))
    sys.exit(1 if any(f.error for f in findings) else 0)
