"""A convention kit from the command line (`printshop kit`) or serve's form, without editing
the game's manifest: the options make a `convention` manifest entry, which is built as the
manifest's own would be (products/characters/convention.py) and written next to the kit
(`NAME/manifest-entry.yaml`), so that it can be kept in printshop.yaml and built again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from printshop.errors import PrintshopError, Problem, Problems

# option of the entry → the command line's flag (problems name what the organiser typed)
KIT_FLAGS = {"tables": "--tables", "seats": "--seats", "characters_per_seat": "--per-seat",
             "seed": "--seed", "paper": "--paper", "classes": "--class",
             "class_table": "--class-table", "include": "--include", "recipe": "--recipe",
             "reroll_while": "--reroll-while",
             "player_reference": "--reference", "title": "--title", "backs": "--no-backs",
             "count": "--tables"}
DEFAULT_REFERENCE = "player-reference"
ENTRY_FILE = "manifest-entry.yaml"


@dataclass
class KitRequest:
    """What an organiser asks for. `reference`: a layout or product one of per seat;
    None: the game's player-reference sheet if it has one; "none": no reference."""

    tables: int
    seats: int = 6
    per_seat: int = 3
    seed: str | None = None
    paper: str | None = None
    classes: list[str] = field(default_factory=list)
    class_table: str | None = None        # a name of the recipe's class tables
    recipe: str | None = None             # recipes/RECIPE.yaml (default: the game's)
    reroll_while: list[str] = field(default_factory=list)
    include: list[str] = field(default_factory=list)
    reference: str | None = None
    backs: bool = True
    title: str = "Convention Kit"
    name: str | None = None


@dataclass
class BuiltKit:
    name: str
    seed: str
    entry: dict
    files: dict[str, bytes]      # output name → bytes (not yet written)
    kit: dict                    # kit.json: the envelopes
    warnings: list[Problem]


def split_list(text: str | None) -> list[str]:
    """`fighter, thief` → ["fighter", "thief"]."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def kit_entry(project, request: KitRequest) -> tuple[str, dict]:
    """(product name, the manifest entry) for `request`, checked: a mistake names its
    command-line flag."""
    from printshop.dice import new_pack_seed
    from printshop.output import check_output_name
    from printshop.products.characters.convention import ConventionOptions
    from printshop.products.characters.includes import include_kind
    from printshop.source.choices import did_you_mean
    from printshop.source.schema import validate_folding_case

    problems = Problems()
    seed = request.seed or new_pack_seed()
    name = request.name or "kit-" + re.sub(r"[^A-Za-z0-9._-]", "-", seed)
    try:
        check_output_name(name, "--name")
    except PrintshopError as exc:
        problems.extend(exc)
    if request.reference is None:
        reference = DEFAULT_REFERENCE if include_kind(project, DEFAULT_REFERENCE) else None
    else:
        reference = None if request.reference.lower() == "none" else request.reference
    entry = {"kind": "convention", "seed": seed, "tables": request.tables,
             "seats": request.seats, "characters_per_seat": request.per_seat}
    if request.paper:
        entry["paper"] = request.paper
    if request.classes:
        entry["classes"] = list(request.classes)
    if request.recipe:
        entry["recipe"] = request.recipe
    if request.class_table:
        entry["class_table"] = request.class_table
    if request.reroll_while:
        entry["reroll_while"] = list(request.reroll_while)
    entry["player_reference"] = reference
    if request.include:
        entry["include"] = list(request.include)
    if not request.backs:
        entry["backs"] = False
    if request.title != "Convention Kit":
        entry["title"] = request.title
    known = sorted(set(project.manifest.products) | {
        p.stem for p in (project.root / "sheets").glob("*.yaml")})
    for flag, names in (("--reference", [reference] if reference else []),
                        ("--include", request.include)):
        for wanted in names:
            if include_kind(project, wanted) is None:
                problems.add(flag, f"'{wanted}' is neither a product of the manifest nor a "
                             f"layout in sheets/{did_you_mean(wanted, known)}")
    try:
        validate_folding_case(ConventionOptions, entry)
    except Exception as exc:   # pydantic's ValidationError: name the flag
        for error in getattr(exc, "errors", lambda: [])():
            option = str(error["loc"][0]) if error["loc"] else "tables"
            problems.add(KIT_FLAGS.get(option, f"--{option}"), error["msg"])
    problems.raise_if_any()
    return name, entry


def entry_yaml(name: str, entry: dict) -> str:
    """The entry as printshop.yaml writes it, with a comment on keeping it."""
    lines = [f"# The manifest entry `printshop kit` built {name} from. To keep this kit with "
             "the game,",
             "# paste it under `products:` in printshop.yaml: `printshop build "
             f"{name}` then makes",
             "# the same envelopes again, character for character.",
             f"{name}:"]
    for key, value in entry.items():
        lines.append(f"  {key}: {_yaml_value(value)}")
    return "\n".join(lines) + "\n"


def _yaml_value(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    text = str(value)
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]*", text) and text.lower() not in (
            "null", "true", "false", "yes", "no", "on", "off", "none"):
        return text
    return json.dumps(text, ensure_ascii=False)


def prepare_kit(project, request: KitRequest, progress=None, strict: bool = False,
                uncompressed: bool = False):
    """The kit's product and build context, every input checked (nothing rendered yet)."""
    from printshop.products import BuildContext
    from printshop.products.characters.convention import Convention, ConventionOptions

    name, entry = kit_entry(project, request)
    options = ConventionOptions.model_validate(entry)
    product = Convention(project, name, options)
    product.cli_flags = KIT_FLAGS
    product.pregens.cli_flags = KIT_FLAGS
    product.entry = entry
    ctx = BuildContext(project=project, strict=strict, progress=progress,
                       uncompressed=uncompressed)
    product.check(ctx)
    return product, ctx


def build_kit(product, ctx, renderer) -> BuiltKit:
    """The kit's files in memory (nothing written): the envelopes, the whole kit,
    kit.json and the manifest entry."""
    from printshop.output import BuildOutput

    ctx.renderer = renderer
    output = BuildOutput(Path("."))
    product.build(ctx, output)
    if ctx.strict and ctx.warnings:
        raise PrintshopError([Problem(w.path, f"{w.message} (--strict: warnings are errors)",
                                      w.line, w.column) for w in ctx.warnings])
    name, entry = product.name, product.entry
    output.add_tree(name, {ENTRY_FILE: entry_yaml(name, entry).encode("utf-8")})
    kit = json.loads(output.files[f"{name}/kit.json"])
    return BuiltKit(name, entry["seed"], entry, dict(output.files), kit, ctx.warnings)


def write_kit(built: BuiltKit, out: Path, progress=None) -> list[Path]:
    """All the kit's files at once (each to a temporary name, then renamed)."""
    from printshop.output import BuildOutput

    output = BuildOutput(out)
    output.files = dict(built.files)
    output.commit(progress)
    return [Path(out) / name for name in built.files]


def envelope_lines(built: BuiltKit, out: Path) -> list[str]:
    """Where each envelope went, as the organiser reads it."""
    lines = []
    for envelope in built.kit["envelopes"]:
        characters = [c["index"] for seat in envelope["seats"] for c in seat["characters"]]
        seats = len(envelope["seats"])
        which = (f"#{min(characters)}–#{max(characters)}" if len(characters) > 1
                 else f"#{characters[0]}")
        lines.append(f"table {envelope['table']}: {Path(out) / envelope['file']} "
                     f"({seats} seat{'s' if seats != 1 else ''}, character"
                     f"{'s' if len(characters) != 1 else ''} {which}, "
                     f"{envelope['pages']} pages)")
    lines.append(f"whole kit: {Path(out) / (built.name + '.pdf')}")
    lines.append(f"which sheet is where: {Path(out) / built.name / 'kit.json'}")
    lines.append(f"manifest entry: {Path(out) / built.name / ENTRY_FILE} (to keep the kit: "
                 f"paste it into printshop.yaml, then printshop build {built.name})")
    return lines
