"""`printshop build` and `printshop check`: products of a project, checked then rendered."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from printshop.errors import PrintshopError, Problem, Problems
from printshop.output import BuildOutput
from printshop.products import BuildContext, Product, load_products
from printshop.project import Project


@dataclass
class BuildReport:
    written: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    products: list[Product] = field(default_factory=list)
    seconds: float = 0.0


def check_project(source: Path, names: list[str] | None = None,
                  paper: str | None = None, profile: str | None = None) -> BuildReport:
    """Everything `build` validates, without rendering anything."""
    started = time.monotonic()
    project = Project.load(source)
    products = load_products(project, names, profile=profile)
    ctx = BuildContext(project=project, paper=paper)
    _check_all(products, ctx)
    return BuildReport(warnings=ctx.warnings, products=products,
                       seconds=time.monotonic() - started)


def _check_all(products: list[Product], ctx: BuildContext) -> None:
    problems = Problems()
    for product in products:
        try:
            product.check(ctx)
        except PrintshopError as exc:
            problems.extend(exc)
    problems.raise_if_any()


def build_project(source: Path, out: Path, names: list[str] | None = None,
                  paper: str | None = None, strict: bool = False, jobs: int | None = None,
                  progress=None, uncompressed: bool = False, timeout: float | None = None,
                  context_options: dict | None = None,
                  profile: str | None = None) -> BuildReport:
    from printshop.render.pdf import Renderer

    started = time.monotonic()
    project = Project.load(source)
    products = load_products(project, names, profile=profile)
    ctx = BuildContext(project=project, paper=paper, strict=strict, uncompressed=uncompressed,
                       progress=progress, **(context_options or {}))
    renderer_args = {"processes": jobs}
    if timeout is not None:
        renderer_args["timeout"] = timeout
    with Renderer(**renderer_args) as renderer:
        # the workers start (and import WeasyPrint) while the products are checked
        renderer.start()
        _check_all(products, ctx)
        output = BuildOutput(out)
        ctx.renderer = renderer
        for product in products:
            product.build(ctx, output)
    if strict and ctx.warnings:
        raise PrintshopError([Problem(w.path, f"{w.message} (--strict: warnings are errors)",
                                      w.line, w.column) for w in ctx.warnings])
    written = output.commit()
    return BuildReport(written=written, warnings=ctx.warnings, products=products,
                       seconds=time.monotonic() - started)
