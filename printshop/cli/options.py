"""Options more than one command takes: the project folder, --debug, the card print
options, the papers."""

from __future__ import annotations

import functools
from pathlib import Path

import click

# The same as printshop.project.PAPERS (a test says so); not imported from there, because
# that loads the Markdown and YAML readers, and a build with nothing to do must start fast.
PAPERS = ("letter", "a4", "a5", "a3", "digest")


def default_source() -> Path:
    return Path("rules-src") if Path("rules-src").is_dir() else Path(".")


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


CARD_LAYOUTS = ("home", "foldover", "printshop")
PAGE_LAYOUTS = ("booklet", "pocketmod")   # products/layouts.py


def card_print_options(function, with_format: bool = True, page_layouts: bool = False):
    """--layout, --flip, --card-size, --guides, --format, --bleed for card products, passed
    on as one `card_options` dict (only the options given). With `page_layouts`, --layout
    also takes booklet and pocketmod, passed on as `page_layout` (None otherwise)."""
    layout_help = ("Cards: home (duplex sheets, the default), foldover (fold each sheet in "
                   "half) or printshop (one card a page, 3 mm bleed).")
    if page_layouts:
        layout_help += (" Books, manuscripts and reference sheets: booklet (pages in "
                        "saddle-stitch order, two a side of the paper, for folding and "
                        "stapling: NAME-booklet.pdf) or pocketmod (up to 8 pages on one "
                        "sheet, cut once and folded: NAME-pocketmod.pdf).")
    options = [
        click.option("--layout", type=click.Choice(CARD_LAYOUTS + (PAGE_LAYOUTS if
                                                                   page_layouts else ())),
                     default=None, help=layout_help),
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
        layout = kwargs.pop("layout")
        if page_layouts:
            kwargs["page_layout"] = layout if layout in PAGE_LAYOUTS else None
            layout = None if layout in PAGE_LAYOUTS else layout
        given = {"layout": layout, "flip": kwargs.pop("flip"),
                 "size": kwargs.pop("card_size"), "guides": kwargs.pop("guides") or None,
                 "formats": list(kwargs.pop("card_formats", ())) or None,
                 "png_bleed": kwargs.pop("png_bleed")}
        kwargs["card_options"] = {k: v for k, v in given.items() if v is not None}
        return function(*args, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper
