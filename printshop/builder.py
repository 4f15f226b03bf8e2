"""`printshop build` and `printshop check`: products of a project, checked then rendered."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from printshop import deps
from printshop.cache import (
    CACHE_DIR,
    BuildCache,
    Freshness,
    product_key,
)
from printshop.commands import PRINTS_COMMANDS, source_flag
from printshop.errors import PrintshopError, Problem, Problems
from printshop.output import BuildOutput
from printshop.product_threads import build_all, check_product, entry_place
from printshop.source.yamlfile import load_yaml

if TYPE_CHECKING:
    from printshop.project import Project

MANIFEST_NAME = "printshop.yaml"


@dataclass
class BuildReport:
    written: list[Path] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    products: list = field(default_factory=list)    # the Products built
    seconds: float = 0.0
    up_to_date: list[str] = field(default_factory=list)  # names skipped: nothing changed
    built: list[str] = field(default_factory=list)       # names built
    unchanged: list[Path] = field(default_factory=list)  # built, same bytes: not rewritten
    chunks_reused: int = 0      # render jobs (card sheets, book parts) taken from the cache
    chunks_rendered: int = 0    # render jobs rendered


def check_project(source: Path, names: list[str] | None = None,
                  paper: str | None = None, profile: str | None = None) -> BuildReport:
    """Everything `build` validates, without rendering anything."""
    from printshop.products import BuildContext, load_products
    from printshop.project import Project

    started = time.monotonic()
    project = Project.load(source, keep_going=True)
    products = load_products(project, names, profile=profile)
    ctx = BuildContext(project=project, paper=paper)
    _check_all(products, ctx)
    return BuildReport(warnings=ctx.warnings, products=[p for p in products
                                                         if not p.provisional],
                       seconds=time.monotonic() - started)


def _check_all(products: list, ctx) -> None:
    """Every product checked, whatever the others found; every problem of the project
    (its manifest, tables, products, chapters, templates …) raised together, with the
    warnings found on the way."""
    problems = Problems()
    from printshop.products import markup

    for product in products:
        try:
            with markup.collecting(ctx.warn, entry_place(product)):
                check_product(product, ctx)
        except PrintshopError as exc:
            problems.extend(exc)
            ctx.warnings.extend(w for w in exc.warnings if w not in ctx.warnings)
    problems.items.extend(ctx.project.problems.items)
    if problems and ctx.strict and ctx.warnings:   # --strict: the warnings are errors too
        problems.items.extend(_strict_error(ctx.warnings).problems)
        problems.raise_if_any()
    problems.raise_if_any(ctx.warnings)


def build_project(source: Path, out: Path, names: list[str] | None = None,
                  paper: str | None = None, strict: bool = False, jobs: int | None = None,
                  progress=None, uncompressed: bool = False, timeout: float | None = None,
                  context_options: dict | None = None, force: bool = False,
                  renderer=None, overrides: dict | None = None,
                  before_render=None, profile: str | None = None) -> BuildReport:
    """Build the products (all, or `names`) that are not up to date in the cache.

    `force` builds them all anyway. `renderer` is a warm Renderer to reuse (`serve`).
    `overrides` changes manifest entries for this build: {product: {option: value}}.
    `before_render` is called once, only if some product is to be built.
    """
    started = time.monotonic()
    context_options = context_options or {}
    key_options = {"paper": paper, "uncompressed": uncompressed, "profile": profile,
                   **{k: v for k, v in context_options.items() if v}}
    plan = _plan(Path(source), Path(out), names, key_options, force, overrides or {},
                 profile)
    report = BuildReport(up_to_date=[f.name for f in plan.fresh])
    for fresh in plan.fresh:
        for warning in plan.cache.stored_warnings(fresh.entry):
            if warning not in report.warnings:
                report.warnings.append(warning)
    if plan.stale and before_render is not None:
        before_render()
    if plan.stale and progress:
        for item in plan.stale:
            progress(f"{item.name}: building ({item.reason})")
    if plan.stale:
        _build_stale(plan, report, strict=strict, jobs=jobs, progress=progress,
                     uncompressed=uncompressed, timeout=timeout, paper=paper,
                     context_options=context_options, renderer=renderer, profile=profile,
                     force=force)
    elif strict and report.warnings:
        raise _strict_error(report.warnings)
    plan.cache.save()  # the stat cache and parsed manifest: only after a build that worked
    report.seconds = time.monotonic() - started
    return report


@dataclass
class _Plan:
    cache: BuildCache
    project: Project | None   # the loaded Project when planning needed it
    manifest_path: Path | None
    entries: dict            # name → manifest entry (with overrides)
    keys: dict[str, tuple[str, str]]   # name → (cache slot, cache key)
    fresh: list              # [Freshness] up to date
    stale: list              # [Freshness] to build


def _plan(source: Path, out: Path, names, key_options: dict, force: bool,
          overrides: dict, profile: str | None = None) -> _Plan:
    """Which products are up to date, found without loading the project when a manifest
    exists (no WeasyPrint, Jinja or Markdown on this path)."""
    project = None
    manifest_path: Path | None = source / MANIFEST_NAME
    cache = BuildCache(out, source)
    raw = _raw_manifest(source / MANIFEST_NAME, cache)
    if raw is None or any(n not in raw["products"] for n in names or []):
        from printshop.products import load_products
        from printshop.project import Project

        # a foreign manuscript, or names to complain about
        project = Project.load(source, keep_going=True)
        products = load_products(project, names, profile=profile)  # unknown names, bad entries
        if project.problems:
            from printshop.products import BuildContext

            _check_all(products, BuildContext(project=project, paper=None))
        raw = {"products": dict(project.manifest.products),
               "settings": project.manifest.model_dump(exclude={"products"})}
        manifest_path = project.manifest_path
    cache.manifest_entries = raw["products"]
    entries, keys, fresh, stale = {}, {}, [], []
    for name in names or list(raw["products"]):
        entry = raw["products"][name]
        slot = name
        if name in overrides and isinstance(entry, dict):
            entry = {**entry, **overrides[name]}
            slot = f"{name}@{product_key(name, overrides[name], {}, {})[:10]}"  # own entry
        entries[name] = entry
        options = key_options
        if isinstance(entry, dict) and entry.get("kind") in PRINTS_COMMANDS:
            # the commands it prints name the project folder as seen from here (--source)
            options = {**key_options, "source_flag": source_flag(source)}
        keys[name] = (slot, product_key(name, entry, raw["settings"], options))
        state = cache.check(*keys[name]) if not force else None
        if state is not None and state.fresh:
            state.name = name
            fresh.append(state)
        else:
            stale.append(Freshness(name, False, state.reason if state else "--force"))
    return _Plan(cache, project, manifest_path, entries, keys, fresh, stale)


def _raw_manifest(path: Path, cache: BuildCache) -> dict | None:
    """The manifest as written (every scalar a string), or None to take the slow path.
    Kept in the cache by content hash: parsing it is most of a no-op build's time."""
    import json

    if not path.is_file():
        return None
    digest = cache.digest(path)
    kept = cache.out / CACHE_DIR / "manifest.json"
    try:
        stored = json.loads(kept.read_text(encoding="utf-8"))
        if stored.get("sha256") == digest:
            return stored["manifest"]
    except (OSError, ValueError, AttributeError, KeyError):
        pass
    with deps.paused():
        doc = load_yaml(path, keep_going=True)
    data = doc.data
    if doc.problems or not isinstance(data, dict) or not isinstance(
            data.get("products"), dict):
        return None
    raw = {"products": data["products"],
           "settings": {k: v for k, v in data.items() if k != "products"}}
    cache.keep(kept, json.dumps({"sha256": digest, "manifest": raw}).encode("utf-8"))
    return raw


def _build_stale(plan: _Plan, report: BuildReport, *, strict, jobs, progress, uncompressed,
                 timeout, paper, context_options, renderer, profile=None,
                 force=False) -> None:
    own_renderer = renderer is None
    if own_renderer:
        from printshop.render.renderer import Renderer

        renderer_args = {"processes": jobs}
        if timeout is not None:
            renderer_args["timeout"] = timeout
        renderer = Renderer(**renderer_args)
        # the workers start (and import WeasyPrint) while the products are loaded and
        # checked: first, so the parent's imports and loading run on the other core
        renderer.start()
        # and the joining of the PDFs is imported while the parent waits for the first jobs
        from printshop.render.background import import_while_waiting

        import_while_waiting(renderer.pool, ("pikepdf",))
    else:
        renderer.new_build()
    try:
        from printshop.products import BuildContext, load_products
        from printshop.project import Project
        from printshop.render.chunks import ChunkCache

        names = [item.name for item in plan.stale]
        project = plan.project or Project.load(plan.cache.root, keep_going=True)
        products = load_products(project, names, profile=profile, overrides={
            n: plan.entries[n] for n in names})
        if project.problems:   # nothing is built: every product checked, all reported
            _check_all(products, BuildContext(project=project, paper=paper, strict=strict,
                                              **context_options))
    except BaseException:
        if own_renderer:
            renderer.pool.close()
        raise
    ctx = BuildContext(project=project, paper=paper, strict=strict, uncompressed=uncompressed,
                       progress=progress, **context_options)
    ignore = (project.manifest_path,) if project.manifest_path else ()
    recorders = {p.name: deps.Recorder(ignore=ignore) for p in products}
    warnings: dict[str, list[Problem]] = {p.name: [] for p in products}
    output = BuildOutput(plan.cache.out)
    # chunks (card sheets, the book's parts) rendered before are reused; --force renders all
    chunks = ChunkCache(plan.cache.out / CACHE_DIR / "chunks", plan.cache.digest,
                        reuse=not force)
    renderer.cache = chunks
    try:
        ctx.renderer = renderer
        outputs = build_all(products, ctx, output, recorders, warnings, plan.cache.out)
    except PrintshopError as exc:
        if strict and exc.warnings:   # reported with the errors, as the errors they are
            raise PrintshopError(exc.problems + _strict_error(exc.warnings).problems) \
                from None
        raise
    finally:
        renderer.cache = None
        report.chunks_reused, report.chunks_rendered = chunks.reused, chunks.rendered
        if own_renderer:
            renderer.pool.close()
    for product in products:
        for warning in warnings[product.name]:
            if warning not in report.warnings:
                report.warnings.append(warning)
    if strict and report.warnings:
        raise _strict_error(report.warnings)
    report.written = output.commit(progress)
    report.unchanged = output.unchanged
    chunks.commit()
    chunks.prune()
    for product in products:  # only now: an entry never claims files that are not there
        plan.cache.store(*plan.keys[product.name], recorders[product.name],
                         outputs[product.name], warnings[product.name],
                         product.cache_extra)
    report.products = products
    report.built = names


def _strict_error(warnings) -> PrintshopError:
    return PrintshopError([Problem(w.path, f"{w.message} (--strict: warnings are errors)",
                                   w.line, w.column) for w in warnings])
