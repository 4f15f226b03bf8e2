"""A project: the rules-source folder, its manifest, tables and templates.

`printshop.yaml` in the folder declares the book's metadata and the products. A folder with
only Markdown files (a "foreign manuscript") is a project too: one book of all its chapters.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from printshop.deps import (
    RecordingTables,
    paused,
    record_file,
    record_listing,
    record_missing,
)
from printshop.errors import PrintshopError, Problems
from printshop.resources import DATA_DIR
from printshop.resources import TEMPLATES_DIR as BUILTIN_TEMPLATES
from printshop.source.classes import ClassesFile, load_classes
from printshop.source.markdown import readable_name, slugify
from printshop.source.schema import Strict, validate, validate_folding_case
from printshop.source.tables import Table, load_table, load_tables
from printshop.source.yamlfile import load_yaml

MANIFEST_NAME = "printshop.yaml"
RULES_FOLDER = "rules-src"  # a project folder may keep its rules (and manifest) in here
PAPERS = ("letter", "a4", "a5", "a3", "digest")
IGNORED_DIRS = {"build", "node_modules", "templates", ".git", ".venv", "__pycache__"}


class Manifest(Strict):
    """`printshop.yaml`. A manuscript folder's may hold only title, author, paper, fonts:
    without `products` the folder's Markdown is one book."""

    title: str | None = None      # the game's title (a project with products needs one)
    subtitle: str | None = None   # under the title on the book's title page
    author: str | None = None     # on the title page and in the PDFs' metadata
    credits: str | None = None    # a line on the title page's back (the colophon)
    # the language of the text (en, de, pt-BR …): hyphenation, quotes, the PDFs' language
    language: str = Field(default="en", pattern=r"^[a-z]{2,3}(-[A-Za-z]{2,4})?$")
    # every product's paper unless it names its own (--paper overrides both)
    paper: Literal["letter", "a4", "a5", "a3", "digest"] = "letter"
    raw_html: bool = False  # older spelling of `html: trusted`
    # raw HTML in chapters: printed as text, cleaned by an allow-list, or passed through
    html: Literal["escaped", "sanitized", "trusted"] | None = None
    # font files inside the project, tried in this order for characters the bundled fonts lack
    fonts: list[str] = []
    # may fonts installed on this machine fill in? (default: yes for a manuscript, no for a
    # game project, whose books must print the same everywhere)
    system_fonts: bool | None = None
    # a chapter opens on the next page, or on the next right-hand page (a blank before it)
    chapter_start: Literal["page", "recto"] = "page"
    products: dict[str, dict[str, Any]] = {}   # product name → its entry (kind and options)


class Project:
    def __init__(self, root: Path, manifest: Manifest, manifest_path: Path | None,
                 problems: Problems | None = None):
        self.root = root
        self.manifest = manifest
        self.manifest_path = manifest_path
        self.manuscript = False  # Markdown from elsewhere: no products, tables or classes
        # keep going (build, check): problems found while loading, reported with the rest
        self.keep_going = problems is not None
        self.problems = problems if problems is not None else Problems()

    @classmethod
    def load(cls, source: Path, keep_going: bool = False) -> "Project":
        """The project in `source`. With `keep_going` (build, check) a mistake in the
        manifest that leaves the rest readable is kept in `project.problems` instead of
        raised (the bad key left out), and so are the tables' and classes' problems when
        they are loaded: the caller reports every problem of the run together."""
        source = Path(source)
        if not source.exists():
            raise PrintshopError.at(source, "project folder not found")
        if not source.is_dir():
            raise PrintshopError.at(source, "is not a folder (give the project folder)")
        root = rules_folder(source.resolve())
        manifest_path = root / MANIFEST_NAME
        problems = Problems()
        if manifest_path.is_file():
            doc = load_yaml(manifest_path, keep_going=True)
            if keep_going:
                manifest = validate_leniently(doc, Manifest, problems)
                if manifest is None:
                    problems.raise_if_any()
            else:
                manifest = validate(doc, Manifest)
            project = cls(root, manifest, manifest_path, problems if keep_going else None)
            project._check_product_names(doc)
            project._check_fonts(doc)
            if manifest.products or (isinstance(doc.data, dict) and doc.data.get("products")):
                if not manifest.title:
                    project.problems.add(manifest_path, "title: a project with products "
                                         "needs a title", 1)
                if not keep_going:
                    project.problems.raise_if_any()
                return project
            project.manuscript = True  # a manuscript's short manifest: title, author, fonts
            manifest.products.update(cls._book_product(root))
            return project
        if not any(_markdown_files(root)):
            import shlex

            from printshop.errors import display_path

            raise PrintshopError.at(root, f"no {MANIFEST_NAME} here or in a folder above, and "
                                    "no Markdown files: nothing to build (`printshop new "
                                    f"{shlex.quote(display_path(root))}` starts a game "
                                    "project here)")
        project = cls(root, Manifest(products=cls._book_product(root)), None,
                      problems if keep_going else None)
        project.manuscript = True
        return project

    @staticmethod
    def _book_product(root: Path) -> dict:
        name = slugify(root.name) if slugify(root.name) != "section" else "book"
        return {name: {"kind": "guide", "chapters": "."}}

    def _check_fonts(self, doc) -> None:
        from printshop.safepath import UnsafePath, resolve_inside

        problems = Problems()
        for n, name in enumerate(self.manifest.fonts):
            line = doc.pos(("fonts", n)).line
            try:
                path = resolve_inside(name, [self.root], base=self.root)
            except UnsafePath as exc:
                problems.add(self.manifest_path, f"fonts: '{name}' {exc}", line)
                continue
            if path.suffix.lower() not in (".ttf", ".otf", ".ttc"):
                problems.add(self.manifest_path, f"fonts: '{name}' is not a font file "
                             "(.ttf, .otf or .ttc)", line)
        self._report(problems)

    def _report(self, problems: Problems) -> None:
        """Raise, or with keep_going keep them for the end of the run."""
        if self.keep_going:
            self.problems.items.extend(problems.items)
        else:
            problems.raise_if_any()

    def _check_product_names(self, doc) -> None:
        from printshop.output import check_output_name

        problems = Problems()
        for name in self.manifest.products:
            try:
                check_output_name(name, "product name")
            except PrintshopError as exc:
                pos = doc.pos(("products", name), key=True)
                problems.add(self.manifest_path, exc.problems[0].message, pos.line, pos.column)
        self._report(problems)

    # --- where things are -------------------------------------------------------------------
    @property
    def is_foreign(self) -> bool:
        """A manuscript (no manifest, or one without products): one book of its Markdown."""
        return self.manuscript

    @property
    def title(self) -> str:
        return self.manifest.title or readable_name(self.root.name) or "Book"

    @property
    def html_mode(self) -> str:
        if self.manifest.html:
            return self.manifest.html
        return "trusted" if self.manifest.raw_html else "sanitized"

    @property
    def system_fonts(self) -> bool:
        if self.manifest.system_fonts is not None:
            return self.manifest.system_fonts
        return self.is_foreign

    @property
    def font_files(self) -> list[Path]:
        return [(self.root / name).resolve() for name in self.manifest.fonts]

    @property
    def template_dirs(self) -> list[Path]:
        # The project's own folder even before it exists: the build cache records that a
        # built-in template was used because no project template shadowed it.
        return [self.root / "templates", BUILTIN_TEMPLATES]

    @property
    def read_roots(self) -> list[Path]:
        """Everything a render may read: the project and printshop's own templates."""
        return [self.root, BUILTIN_TEMPLATES.resolve()]

    def markdown_files(self, folder: str) -> list[Path]:
        base = (self.root / folder).resolve()
        if not base.is_dir() or not (base == self.root or self.root in base.parents):
            raise PrintshopError.at(self.manifest_path or self.root,
                                    f"chapters folder '{folder}' not found in the project")
        record_listing(base, ".md", recursive=True)  # a chapter added or removed
        return sorted(_markdown_files(base), key=lambda p: p.relative_to(base).as_posix())

    # --- data --------------------------------------------------------------------------------
    @cached_property
    def tables(self) -> dict[str, Table]:
        # Loaded (and checked) all at once; each product depends only on those it looks at.
        # Keeping going, a table with problems is left out and looking it up stops the
        # product that does without a second problem (its own are reported).
        problems = Problems() if self.keep_going else None
        with paused():
            tables = load_tables(self.root / "tables", root=self.root, keep=problems)
        broken = set()
        if problems:
            self.problems.items.extend(problems.items)
            broken = {Path(p.path).stem for p in problems.items} - set(tables)
        return RecordingTables(tables, self.root / "tables", broken)

    # The project object is shared by the products a build makes at once, and what it loads
    # once is kept: each product that asks records the file again (the first to ask would
    # otherwise be the only one whose cache entry names it, whichever thread came first).
    @property
    def classes(self) -> ClassesFile | None:
        path = self.root / "tables" / "classes.yaml"
        if hasattr(self, "_classes") and path.is_file():
            record_file(path)
        elif hasattr(self, "_classes"):
            record_missing(path)
        else:
            try:
                self._classes: Any = load_classes(path) if path.is_file() else None
            except PrintshopError as exc:
                if not self.keep_going:
                    raise
                self.problems.extend(exc)
                self._classes = _BROKEN
        if self._classes is _BROKEN:
            raise PrintshopError([])   # reported already
        return self._classes

    @property
    def papers(self) -> dict[str, dict]:
        record_file(DATA_DIR / "papers.yaml")    # (kept for the project: see `classes`)
        return self._papers

    @cached_property
    def _papers(self) -> dict[str, dict]:
        table = load_table(DATA_DIR / "papers.yaml")
        return {row["id"]: dict(row.values) for row in table.rows}

    def paper_size_mm(self, paper: str) -> tuple[float, float]:
        size = self.papers[paper]
        return size["width"], size["height"]

    def input_files(self) -> list[Path]:
        """Every source file of the project, for the colophon and the build manifest."""
        files = []
        for path in sorted(self.root.rglob("*")):
            relative = path.relative_to(self.root)
            if path.is_file() and not any(part.startswith(".") or part in {"build"}
                                          for part in relative.parts):
                files.append(path)
        return files


_BROKEN = object()


def validate_leniently(doc, model, problems: Problems, data: Any = None, loc: tuple = ()):
    """`validate`, its problems added to `problems`; on failure the model again without
    the keys that were wrong (their defaults instead), so the checks after it can run.
    None when even that fails (a required key missing)."""
    try:
        return validate(doc, model, data=data, loc=loc)
    except PrintshopError as exc:
        problems.extend(exc)
    data = doc.data if data is None and not loc else data
    if not isinstance(data, dict):
        return None
    wrong = _wrong_keys(model, data)
    trimmed = {k: v for k, v in data.items() if k not in wrong}
    try:
        return validate_folding_case(model, trimmed)
    except Exception:   # noqa: BLE001 - a required key is wrong: no stand-in
        return None


def _wrong_keys(model, data: dict) -> set[str]:
    """The top-level keys of `data` that `model` refuses."""
    from pydantic import ValidationError

    try:
        validate_folding_case(model, data)
    except ValidationError as exc:
        return {error["loc"][0] for error in exc.errors() if error["loc"]
                and isinstance(error["loc"][0], str) and error["loc"][0] in data}
    return set()


def rules_folder(folder: Path) -> Path:
    """The folder to read: `folder` itself, or its `rules-src/` when `folder` is a project
    folder that keeps its rules there (as printshop's own repository does) and has no
    manifest of its own. Its README and docs are then not read as chapters."""
    nested = folder / RULES_FOLDER
    if not (folder / MANIFEST_NAME).is_file() and nested.is_dir():
        return nested
    return folder


def _markdown_files(base: Path):
    for path in base.rglob("*.md"):
        relative = path.relative_to(base)
        if any(part.startswith(".") or part in IGNORED_DIRS for part in relative.parts[:-1]):
            continue
        if path.is_file():
            yield path
