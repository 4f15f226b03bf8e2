"""The command line: printshop build | check | kit | new | preflight | roll | serve.

The group and --version are here; each command is in the module named for what it does
(project_commands, preflight_command, roll_commands), and the options and error reporting
they share are in options and problems.
"""

from __future__ import annotations

import click

from printshop import __version__
from printshop.cli.kit_command import kit
from printshop.cli.preflight_command import preflight
from printshop.cli.project_commands import build, bundle, check, new, serve
from printshop.cli.roll_commands import roll


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
    if weasyprint != "not installed" and not system_check.missing_libraries():
        _print_patches()
    ctx.exit()


def _print_patches() -> None:
    """printshop's changes to WeasyPrint (render/weasy/registry.py): which are active, which
    were skipped or switched off, and why."""
    from printshop.render.weasy import registry

    statuses = registry.report()
    _, unknown = registry.switched_off()
    active = sum(s.state == "active" for s in statuses)
    click.echo(f"WeasyPrint patches: {active} of {len(statuses)} active "
               f"(switch off with {registry.ENV}=off or a comma list of names)")
    for status in statuses:
        why = f": {status.reason}" if status.reason else ""
        click.echo(f"  {status.name:<22} {status.kind:<5} {status.state}{why}")
    for name in unknown:
        click.echo(f"  {name}: not a patch ({registry.ENV})")


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             epilog="""\b
Examples (in a project made by `printshop new`; explanations after #):
  printshop build                  # every product into build/
  printshop build rules --paper a4   # one product, on A4
  printshop check                  # every problem, without rendering anything
  printshop serve                  # live preview at http://127.0.0.1:8000/

\b
Start a project, or print a folder of Markdown from elsewhere:
  printshop new my-game            # a small game that builds as it is, in ./my-game
  printshop build --source ~/my-novel --out ~/my-novel-book   # any Markdown, as a book

\b
The project is found from any folder inside it (printshop.yaml, here or above).
Completion of commands and product names: see docs/command-line.md (bash, zsh, fish).
""")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _param, value: _print_version(ctx) if value else None,
              help="Show the versions of printshop, WeasyPrint, Pango and HarfBuzz, and exit.")
def cli():
    """printshop: a game's rules source (Markdown + YAML) into print-ready PDFs and HTML."""


cli.add_command(build)
cli.add_command(serve)
cli.add_command(check)
cli.add_command(new)
cli.add_command(bundle)
cli.add_command(kit)
cli.add_command(preflight)
cli.add_command(roll)


def main():
    cli(prog_name="printshop")
