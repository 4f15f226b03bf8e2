"""Products: what `printshop build` makes. One module per kind of product.

A product kind is a class with a declared options schema (validated against the manifest
entry, errors pointing at `printshop.yaml`), a `check` that validates its inputs without
rendering, and a `build` that adds files to the build output.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, ClassVar

from printshop import deps
from printshop.errors import PrintshopError, Problem, Problems

if TYPE_CHECKING:   # (a render worker imports this package for the job extensions its
    # product families register, products/*/job.py: nothing heavy at import)
    from printshop.output import BuildOutput
    from printshop.project import Project
    from printshop.render.renderer import Renderer
    from printshop.source.schema import Strict

# kind → module that defines it (imported only when used)
PRODUCT_MODULES = {
    "guide": "printshop.products.book.guide",
    "pregens": "printshop.products.characters.pregens",
    "reference": "printshop.products.sheets.reference",
    "cards": "printshop.products.cards.product",
    "blank-sheet": "printshop.products.characters.blank_sheet",
    "convention": "printshop.products.characters.convention",
    "cover": "printshop.products.book.cover",
}


@dataclass
class BuildContext:
    project: Project
    paper: str | None = None          # --paper overrides every product's paper
    strict: bool = False
    uncompressed: bool = False        # tests read PDFs as text
    # the builder sets it before any product builds (a check needs none)
    renderer: Renderer = None  # type: ignore[assignment]
    warnings: list[Problem] = field(default_factory=list)
    progress: Callable[[str], None] | None = None
    card_options: dict = field(default_factory=dict)  # --layout, --flip … for card products
    layout: str | None = None         # --layout booklet|pocketmod (products/layouts.py)
    cover: bool = False               # --cover: a book's cover wrap too (products/book/cover.py)
    spine_width: str | None = None    # --spine-width: the wrap's spine, from the vendor
    # renders one product reuses in another (products/characters/includes.py), made once
    # per build
    shared: deps.SharedRenders = field(default_factory=deps.SharedRenders)
    # scripts whose characters no font has, reported before rendering at the file and line
    # of the first (products/common.warn_missing_glyphs): the render's own summary of the
    # same empty boxes would say it a second time, less helpfully
    reported_scripts: set[str] = field(default_factory=set)

    def warn(self, problem: Problem) -> None:
        from printshop.render.job_warnings import empty_boxes_script

        if empty_boxes_script(problem.message) in self.reported_scripts:
            return
        if problem not in self.warnings:
            self.warnings.append(problem)


class Product:
    kind: ClassVar[str]
    Options: ClassVar[type[Strict]]

    def __init__(self, project: Project, name: str, options):
        self.project = project
        self.name = name
        self.options = options
        # what a build keeps for the next one in its build-cache entry (the book: where its
        # pages fell), and what the last good build kept, set by the builder: hints that
        # may make a build faster, never change what it makes
        self.cache_extra: dict = {}
        self.last_build: dict = {}
        # a stand-in for an entry with mistakes (load_products with keep_going): checked
        # for its other mistakes, never built
        self.provisional = False

    def check(self, ctx: BuildContext) -> None:
        """Validate everything this product needs, without rendering."""

    def includes(self) -> list[str]:
        """The other products of the manifest whose pages this one holds (a build makes
        them first)."""
        return []

    def build(self, ctx: BuildContext, output: BuildOutput) -> None:
        raise NotImplementedError

    def paper(self, ctx: BuildContext) -> str:
        profile = self.print_profile()
        return (ctx.paper or (profile.trim if profile else None)
                or getattr(self.options, "paper", None) or self.project.manifest.paper)

    # print profiles (printshop.profiles): kinds that honour them list the ones they take
    PROFILES: ClassVar[str] = "any"      # "any", or "home" for kinds that print only that
    profile_from_cli: bool = False

    def print_profile(self):
        """The product's print profile (printshop.profiles.PrintProfile), or None for a kind
        that has no `profile` option."""
        from printshop.profiles import get_profile

        name = getattr(self.options, "profile", None)
        if not hasattr(self.options, "profile"):
            return None
        return get_profile(name, self.project.root, where=self.profile_where())

    def profile_where(self) -> tuple[str, int | None]:
        from printshop.errors import display_path
        from printshop.source.yamlfile import load_yaml

        if self.profile_from_cli or self.project.manifest_path is None:
            return ("--profile", None)
        doc = load_yaml(self.project.manifest_path)
        return (display_path(self.project.manifest_path),
                doc.pos(("products", self.name, "profile")).line)


def product_class(kind: str) -> type[Product]:
    module = importlib.import_module(PRODUCT_MODULES[kind])
    return module.PRODUCT


def load_products(project: Project, names: list[str] | None = None,
                  profile: str | None = None,
                  overrides: dict | None = None) -> list[Product]:
    """The products of the manifest (all, or those named), options validated. `profile`
    (--profile) replaces each product's `profile` option, so it is part of the options
    (and of anything that hashes them). `overrides` replaces entries ({name: entry};
    `serve` builds the HTML edition first so).

    A project loaded with `keep_going` keeps its products' problems in `project.problems`
    and returns, besides the good products, a stand-in for each entry whose mistakes leave
    something to check (`provisional`: a misspelt kind read as the kind it resembles, a
    wrong option left out), so that one run reports the entry's other mistakes too. A
    provisional product is checked, never built."""
    from printshop.source.choices import close_match, fold_case
    from printshop.source.schema import validate
    from printshop.source.yamlfile import load_yaml

    problems = Problems()
    declared = project.manifest.products
    for name in names or []:
        if name not in declared:
            known = ", ".join(declared) or "none"
            problems.add(project.manifest_path or project.root,
                         f"no product '{name}' in the manifest{_did_you_mean(name, declared)} "
                         f"(products: {known})")
    if not project.keep_going:
        problems.raise_if_any()
    doc = load_yaml(project.manifest_path) if project.manifest_path else None
    products = []
    for name, raw in declared.items():
        if names and name not in names:
            continue
        if overrides and name in overrides:
            raw = overrides[name]
        else:  # a kit including this product depends on its entry (printshop.deps)
            deps.record_entry(name, raw)
        provisional = False
        kind = raw.get("kind") if isinstance(raw, dict) else None
        if isinstance(kind, str) and fold_case(kind, PRODUCT_MODULES) in PRODUCT_MODULES:
            kind = fold_case(kind, PRODUCT_MODULES)
            raw = {**raw, "kind": kind}
        elif isinstance(raw, dict):
            where = doc.pos(("products", name, "kind")) if doc else None
            guess = close_match(kind, PRODUCT_MODULES) if isinstance(kind, str) else None
            hint = (f" (did you mean '{guess}'?)" if guess else
                    f" (kinds: {', '.join(sorted(PRODUCT_MODULES))})")
            problems.add(project.manifest_path or project.root,
                         f"products.{name}.kind: '{kind}' is not a product kind{hint}"
                         if kind is not None else f"products.{name}.kind: missing (the "
                         f"product's kind: {', '.join(sorted(PRODUCT_MODULES))})",
                         where.line if where else None, where.column if where else None)
            if guess is None or not project.keep_going:
                continue
            kind, raw, provisional = guess, {**raw, "kind": guess}, True
        else:
            where = doc.pos(("products", name)) if doc else None
            problems.add(project.manifest_path or project.root,
                         f"products.{name}: expected a mapping (kind: …, and the kind's "
                         "options)", where.line if where else None)
            continue
        cls = product_class(kind)
        before = len(problems.items)
        try:
            if doc is not None and project.keep_going:
                from printshop.project import validate_leniently

                options = validate_leniently(doc, cls.Options, problems, data=raw,
                                             loc=("products", name))
                if options is None:
                    continue
                provisional = provisional or len(problems.items) > before
            elif doc is not None:
                options = validate(doc, cls.Options, data=raw, loc=("products", name))
            else:
                options = cls.Options.model_validate(raw)
        except PrintshopError as exc:
            problems.extend(exc)
            continue
        if profile is not None and "profile" in cls.Options.model_fields:
            options = options.model_copy(update={"profile": profile})
        elif profile is not None:
            from printshop.profiles import get_profile

            try:
                if get_profile(profile, project.root).for_press:
                    problems.add("--profile", f"products.{name}: a {kind} product prints for "
                                 f"home printers only (print profile 'home'), not "
                                 f"'{profile}'")
                    continue
            except PrintshopError as exc:
                problems.extend(exc)
                continue
        product = cls(project, name, options)
        product.profile_from_cli = profile is not None
        product.provisional = provisional
        try:
            chosen = product.print_profile()
            if chosen is not None and product.PROFILES == "home" and chosen.for_press:
                path, line = product.profile_where()
                problems.add(path, f"products.{name}: a {kind} product prints for home "
                             f"printers only (print profile 'home'), not '{chosen.name}'",
                             line)
                continue
        except PrintshopError as exc:
            problems.extend(exc)
            continue
        products.append(product)
    if project.keep_going:
        project.problems.items.extend(problems.items)
        return products
    problems.raise_if_any()
    return products


def _did_you_mean(name: str, known) -> str:
    from printshop.source.choices import close_match

    guess = close_match(name, known)
    return f" (did you mean '{guess}'?)" if guess else ""
