"""Options more than one command takes: the project folder, --debug, the card print
options, the papers."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import click

# The same as printshop.project.PAPERS (a test says so); not imported from there, because
# that loads the Markdown and YAML readers, and a build with nothing to do must start fast.
PAPERS = ("letter", "a4", "a5", "a3", "digest")


class Choice(click.Choice):
    """A closed set on the command line: any case (`--paper A4`), and a "did you mean"
    for a value that is not in it."""

    def __init__(self, choices, case_sensitive: bool = False):
        super().__init__(choices, case_sensitive=case_sensitive)

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            from printshop.source.choices import close_match

            guess = close_match(str(value), [str(c) for c in self.choices])
            hint = f": did you mean '{guess}'?" if guess else ""
            self.fail(f"'{value}' is not one of {', '.join(map(str, self.choices))}{hint}",
                      param, ctx)


MANIFEST = "printshop.yaml"
RULES = "rules-src"


@dataclass
class Located:
    """Where a command works: `source` (the folder with printshop.yaml, or a manuscript's
    folder) and `home`, the folder whose build/ is the default output."""

    source: Path
    home: Path
    note: str | None = None     # said when the manifest is not in the current folder


def locate_project(source: Path | None, cwd: Path | None = None) -> Located:
    """The project a command works on. --source is taken as it is. Otherwise printshop
    looks in the current folder and then upward (as git, cargo and typst do) for
    printshop.yaml, or a folder keeping it in rules-src/. With none above, the current
    folder is a manuscript if it holds Markdown (Project.load says so otherwise)."""
    if source is not None:
        return Located(Path(source), Path(source))
    cwd = Path(cwd or Path.cwd())
    here = cwd.resolve()
    for folder in (here, *here.parents):
        for project in (folder, folder / RULES):
            if (project / MANIFEST).is_file():
                if project in (here, here / RULES):   # the usual places: no need to say
                    return Located(_shown(project, here, cwd), _shown(folder, here, cwd))
                shown = _shown(project / MANIFEST, here, cwd)
                return Located(project, folder,
                               f"printshop: using {shown} (the project in {folder})")
    below = sorted({p.parent.parent if p.parent.name == RULES else p.parent
                    for pattern in (f"*/{MANIFEST}", f"*/{RULES}/{MANIFEST}")
                    for p in here.glob(pattern)})
    if below and not _has_markdown(here):
        from printshop.errors import PrintshopError

        names = ", ".join(f"{p.name}/" for p in below)
        first = below[0].name
        raise PrintshopError.at(".", f"no {MANIFEST} here or in any folder above; the "
                                f"project{'s' if len(below) > 1 else ''} in {names} "
                                f"{'have' if len(below) > 1 else 'has'} one: cd {first} "
                                f"(or --source {first})")
    return Located(Path("."), Path("."))


def _shown(path: Path, here: Path, cwd: Path) -> Path:
    """A path as short as it can be said: relative to the current folder."""
    try:
        relative = path.relative_to(here)
        return Path(".") / relative if str(relative) != "." else Path(".")
    except ValueError:
        import os

        return Path(os.path.relpath(path, here))


def _has_markdown(folder: Path) -> bool:
    return any(True for _ in folder.glob("*.md"))


def complete_products(ctx, param, incomplete: str):
    """Shell completion of PRODUCTS: the names in the manifest of --source, or of the
    project found from here (nothing when there is none)."""
    from click.shell_completion import CompletionItem

    try:
        located = locate_project(ctx.params.get("source"))
        manifest = located.source / MANIFEST
        if not manifest.is_file():
            manifest = located.source / RULES / MANIFEST
        from printshop.source.yamlfile import load_yaml

        products = load_yaml(manifest).data.get("products") or {}
    except Exception:   # noqa: BLE001 - completion never fails: it offers nothing
        return []
    given = set(ctx.params.get("products") or ())
    return [CompletionItem(name, help=str((entry or {}).get("kind", "")))
            for name, entry in products.items()
            if name.startswith(incomplete) and name not in given]


def default_source() -> Path:
    """The project folder of the current folder (see locate_project)."""
    return locate_project(None).source


def project_folder(source: Path | None, quiet: bool = False) -> Located:
    """locate_project, saying which printshop.yaml is used when it is not here."""
    located = locate_project(source)
    if located.note and not quiet:
        click.echo(located.note, err=True)
    return located


def source_option(function):
    # eager: read before PRODUCTS, so that completing a product name knows the project
    return click.option("--source", "source", type=click.Path(path_type=Path),
                        default=None, metavar="DIR", is_eager=True,
                        help="Project folder: the one with printshop.yaml, or a folder "
                             "that keeps it in rules-src/ (default: the first found here "
                             "or in a folder above). A folder of Markdown files with no "
                             "manifest builds as a book.")(
        function)


def serial_option(function):
    """--serial: render in this process (PRINTSHOP_SERIAL=1), for a debugger or a profiler."""
    def serial(_context, _parameter, value):
        if value:
            import os

            os.environ["PRINTSHOP_SERIAL"] = "1"   # read by the render pool (and by children)

    return click.option("--serial", is_flag=True, expose_value=False, callback=serial,
                        is_eager=True,
                        help="Render in this process, one job at a time, not in worker "
                             "processes: for pdb or a profiler (slower; same files; no "
                             "--timeout). Also PRINTSHOP_SERIAL=1.")(function)


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
        click.option("--layout", type=Choice(CARD_LAYOUTS + (PAGE_LAYOUTS if page_layouts
                                                             else ())),
                     default=None, help=layout_help),
        click.option("--flip", type=Choice(["long", "short"]), default=None,
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
            "--format", "card_formats", type=Choice(["pdf", "png"]), multiple=True,
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
