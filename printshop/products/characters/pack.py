"""`printshop roll characters`: a pregen pack outside a manifest build.

It reuses the `pregens` product (the same sheets, chunked render and JSON) with options from
the command line, and a build context and renderer set up the way `builder.py` does.
Everything is made in memory; the caller writes the one file (atomically) only at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from printshop.errors import PrintshopError, Problem
from printshop.products import BuildContext
from printshop.project import Project

CLI_FLAGS = {"count": "--count", "first": "--first", "seed": "--seed", "classes": "--class",
             "class_table": "--class-table", "paper": "--paper", "backs": "--backs",
             "recipe": "--recipe", "reroll_while": "--reroll-while",
             "cover": "--no-cover", "seats": "--seats", "characters_per_seat": "--per-seat"}


@dataclass
class RolledPack:
    data: bytes
    seed: str
    count: int
    default_name: str
    pages: int = 0
    warnings: list[Problem] = field(default_factory=list)


def pack_options(count: int, seed: str | None, classes: str | None, class_table: str | None,
                 paper: str | None, backs: bool, fmt: str, **extra):
    """The command line's options as a validated `pregens` product entry."""
    from printshop.dice import new_pack_seed
    from printshop.products.characters.pregens import PregensOptions

    if count < 1:
        raise PrintshopError(Problem("--count", f"must be at least 1 (got {count})"))
    names = [n.strip() for n in (classes or "").split(",") if n.strip()]
    if classes is not None and not names:
        raise PrintshopError(Problem("--class", "give at least one class name"))
    raw = {"kind": "pregens", "seed": seed if seed is not None else new_pack_seed(),
           "count": count, "classes": names, "class_table": class_table, "backs": backs,
           "formats": [fmt], **extra}
    if paper:
        raw["paper"] = paper
    try:
        return PregensOptions.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False):
            option = str(error["loc"][0]) if error["loc"] else "option"
            message = error["msg"]
            if option == "seed" and error["type"] == "string_pattern_mismatch":
                message = ("use up to 32 letters, digits and . _ : + - (starting with a "
                           "letter or digit)")
            problems.append(Problem(CLI_FLAGS.get(option, f"--{option}"), message))
        raise PrintshopError(problems) from None


def roll_characters_to_bytes(source: Path, count: int, seed: str | None, classes: str | None,
                             class_table: str | None = None, paper: str | None = None,
                             backs: bool = False, fmt: str = "pdf", large_ok: bool = False,
                             jobs: int | None = None, progress=None,
                             uncompressed: bool = False, first: int = 1,
                             cover: bool = True, seats: int | None = None,
                             per_seat: int | None = None, renderer=None,
                             **extra) -> RolledPack:
    """`first`: the number of the first character (a kit's sheet #14 alone: first=14,
    count=1); `cover`: false for the sheets alone; `seats` and `per_seat`: each sheet
    marked with its table and seat as a kit of those numbers marks it. `renderer`: a warm
    one to use (serve's form), else one is started. `extra`: more `pregens` options
    (recipe, reroll_while; sheets_per_chunk for benchmarks)."""
    if first != 1:
        if first < 1:
            raise PrintshopError(Problem("--first", f"must be at least 1 (got {first})"))
        extra["first"] = first
    if (seats is None) != (per_seat is None):
        given, missing = ("--seats", "--per-seat") if per_seat is None else \
            ("--per-seat", "--seats")
        raise PrintshopError(Problem(given, f"needs {missing} too (a kit's seats a table "
                                     "and characters a seat)"))
    if seats is not None:
        extra.update(seats=seats, characters_per_seat=per_seat)
    if not cover:
        extra["cover"] = False
    from printshop.products.characters.pregens import Pregens
    from printshop.render.renderer import Renderer, lost_words_fail_after

    options = pack_options(count, seed, classes, class_table, paper, backs, fmt, **extra)
    name = f"{options.recipe or 'characters'}-{options.seed.replace(':', '-')}"
    if options.first != 1:
        name += f"-{options.first}" + (f"-{options.first + options.count - 1}"
                                        if options.count > 1 else "")
    name += f".{fmt}"
    import contextlib

    own = renderer is None
    if not own:
        renderer.new_build()
    with Renderer(processes=jobs) if own else contextlib.nullcontext(renderer) as renderer:
        if fmt == "pdf" and own:
            # workers first: they start while the tables load and the characters are
            # rolled, and do not carry a copy of either
            renderer.start()
        project = Project.load(source)
        product = Pregens(project, "characters", options, cli_flags=CLI_FLAGS,
                          large_ok=large_ok)
        ctx = BuildContext(project=project, progress=progress, uncompressed=uncompressed,
                           renderer=renderer)
        from printshop.products import markup

        with markup.collecting(ctx.warn, project.manifest_path or project.root):
            product.check(ctx)
            if fmt == "json":
                data = product.json(ctx).encode("utf-8")
            elif fmt == "html":
                data = product.html(ctx).encode("utf-8")
            else:
                with lost_words_fail_after():
                    data = product.pdf(ctx)
    return RolledPack(data=data, seed=options.seed, count=options.count, default_name=name,
                      pages=getattr(product, "pages", 0), warnings=ctx.warnings)
