"""What serve's form page makes (serve/forms.py): a pack of characters or a convention kit,
on the service's warm workers, written into the output folder and nowhere else."""

from __future__ import annotations

from pathlib import Path


def inside(out: Path, name: str) -> Path:
    """Where a made file goes: inside the output folder, never elsewhere."""
    target = (out / name).resolve()
    if out.resolve() not in target.parents:
        raise RuntimeError(f"refusing to write {name} outside {out}")
    return target


def pack(source: Path, out: Path, renderer, request: dict, log) -> tuple[list[str], list[str]]:
    """(files made, what to say about them)."""
    from printshop.output import check_output_name, write_atomic
    from printshop.products.characters.pack import roll_characters_to_bytes

    result = roll_characters_to_bytes(source, renderer=renderer, progress=log, **request)
    name = check_output_name(result.default_name)
    write_atomic(inside(out, name), result.data)
    return [name], [f"{result.count} characters, seed {result.seed}, {result.pages} pages: "
                    f"{name}"]


def kit(source: Path, out: Path, renderer, request, log) -> tuple[list[str], list[str]]:
    from printshop.products.characters.kit import (build_kit, envelope_lines, prepare_kit,
                                                   write_kit)
    from printshop.project import Project

    project = Project.load(source)
    product, ctx = prepare_kit(project, request, progress=log)
    renderer.new_build()
    built = build_kit(product, ctx, renderer)
    for name in built.files:
        inside(out, name)
    write_kit(built, out)
    files = [f"{built.name}.pdf"] + [e["file"] for e in built.kit["envelopes"]]
    files += [f"{built.name}/kit.json", f"{built.name}/manifest-entry.yaml"]
    return files, [line.replace(f"{out}/", "") for line in envelope_lines(built, out)]
