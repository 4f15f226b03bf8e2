"""Products that put other products' pages inside their own: a convention kit's envelopes
(the player reference, an Event Deck, hirelings) and the guide's blank character sheet.

An include is the name of another product of the manifest (every PDF it makes, in order) or
of a sheet layout in `sheets/` (that sheet alone, as the reference product prints it). Each
is rendered once per build and paper (`BuildContext.shared`) however many envelopes hold it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from printshop.output import BuildOutput
from printshop.products import BuildContext, load_products


@dataclass(frozen=True)
class Included:
    name: str
    title: str
    pdfs: tuple[bytes, ...]     # one per file the product makes
    pages: int


def include_kind(project, name: str) -> str | None:
    """"product", "sheet" or None (no such thing to include)."""
    if name in project.manifest.products:
        return "product"
    if (project.root / "sheets" / f"{name}.yaml").is_file():
        return "sheet"
    return None


def included_product(project, name: str):
    """The manifest's product `name`, or the reference product printing sheet `name`."""
    if include_kind(project, name) == "product":
        return load_products(project, [name])[0]
    from printshop.products.sheets.reference import Reference, ReferenceOptions

    return Reference(project, name, ReferenceOptions(kind="reference", files={name: [name]}))


def render_include(ctx: BuildContext, name: str, paper: str) -> Included:
    """Every page of include `name` on `paper`, rendered the first time it is asked for."""
    return ctx.shared.make(("include", name, paper), lambda: _render(ctx, name, paper))


def _render(ctx: BuildContext, name: str, paper: str) -> Included:
    import io

    import pikepdf

    product = included_product(ctx.project, name)
    scratch = BuildOutput(Path("."))    # never committed: only its files are read
    product.build(dataclasses.replace(ctx, paper=paper), scratch)
    pdfs = tuple(data for file_name, data in scratch.files.items()
                 if file_name.endswith(".pdf"))
    pages = 0
    for pdf in pdfs:
        with pikepdf.open(io.BytesIO(pdf)) as document:
            pages += len(document.pages)
    title = name
    if include_kind(ctx.project, name) == "sheet":
        sheets = getattr(product, "_sheets", None) or product.load_sheets()
        title = sheets[name].layout.title
    else:
        title = getattr(product.options, "title", None) or name.replace("-", " ").title()
    return Included(name=name, title=title, pdfs=pdfs, pages=pages)
