"""A render job's extensions: what a product family adds to the core job, and does in the
worker with it.

The core `RenderJob` (render/job.py) is what every product renders: HTML, stylesheets, the
folders it may read, its base URL and a few flags. Anything else a job asks for belongs to
an extension: a frozen dataclass of its own fields, subclassing `JobExtension` (which
registers it by `name`), carried in `RenderJob.extensions`. A worker runs each extension's
hooks in the order the job lists them:

    around_layout ─► lay_out ─► after_layout ─► (words check, PDF written) ─► after_pdf

* `around_layout(run)`: a context the layout runs in (the book's carried running heads);
* `lay_out(run)`: a Document laid out another way (stamps instead of the HTML; a kept
  layout finished), or None; the first extension that answers lays the job out;
* `after_layout(run, document)`: read the laid-out pages; what it finds goes in
  `run.found[self.name]`, which comes back as `RenderResult.found[name]`;
* `after_pdf(run, pdf)`: the PDF made something else (faces placed on sheets, layers
  drawn over pages).

An extension's fields are part of the chunk cache's key (`key`; fields that say where or
how a job runs, never what comes out, stay out of it) and what it found is stored with the
cached result (`found_as_json`, `found_from_json`). `found_in(result)` reads it back typed.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, ClassVar

_REGISTERED: dict[str, type[JobExtension]] = {}


class JobExtension:
    """Subclass as a frozen dataclass with a class attribute `name` (unique)."""

    name: ClassVar[str] = ""
    # where the core asks: the number printed on the job's first page (messages count its
    # pages from it), and the worker that should take the job (a pid; 0: any)
    first_page: int = 1
    worker: int = 0

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("name"):
            raise TypeError(f"{cls.__name__}: a job extension needs a name")
        known = _REGISTERED.get(cls.name)
        if known is not None and (known.__module__, known.__qualname__) != \
                (cls.__module__, cls.__qualname__):
            raise TypeError(f"job extension name {cls.name!r} taken by {known.__qualname__}")
        _REGISTERED[cls.name] = cls

    # --- the chunk cache ---------------------------------------------------------------
    def key(self) -> Any:
        """What of this extension decides the job's output, JSON-able (objects are hashed
        by their `str`): every field, unless a subclass leaves some out."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    @classmethod
    def found_as_json(cls, found: Any) -> Any:
        """What `after_layout`/`after_pdf` found, for the chunk cache (JSON)."""
        return found

    @classmethod
    def found_from_json(cls, data: Any) -> Any:
        """`found_as_json`'s data back (raising ValueError, KeyError or TypeError if it is
        not well formed: the cache then misses)."""
        return data

    @classmethod
    def nothing_found(cls) -> Any:
        """What `found_in` gives for a result without this extension's findings."""
        return None

    @classmethod
    def found_in(cls, result) -> Any:
        found = result.found.get(cls.name)
        return cls.nothing_found() if found is None else found

    # --- the worker's hooks ------------------------------------------------------------
    def around_layout(self, run: JobRun):
        return contextlib.nullcontext()

    def lay_out(self, run: JobRun):
        return None

    def after_layout(self, run: JobRun, document) -> None:
        pass

    def after_pdf(self, run: JobRun, pdf: bytes) -> bytes:
        return pdf


def registered(name: str) -> type[JobExtension] | None:
    """The extension class of that name, if its module is imported (a job carrying it was
    made or unpickled in this process)."""
    return _REGISTERED.get(name)


class JobRun:
    """What a worker has in hand while it renders one job: given to its extensions' hooks
    (render/job.py makes it)."""

    def __init__(self, job, state: dict, font_config, layout, stylesheet):
        self.job = job
        self.state = state              # what the worker keeps from job to job
        self.font_config = font_config  # the job's FontConfiguration
        self._layout = layout
        self._stylesheet = stylesheet
        self.found: dict[str, Any] = {}   # extension name → what it found
        self.kept: dict[str, Any] = {}    # extension name → what it keeps between its hooks
        self.refused: list = []           # Problems that fail the render
        self.warnings: list = []          # Problems the render warns of
        self.pages: int | None = None     # the product's page count (None: the document's)
        # the words check runs on the pages (render/weasy/words.py): an extension that
        # finds its product will fit or report the pages again turns it off
        self.check_words = not job.layout_only
        # False when a book part's running heads could not be carried in (the patch
        # `carried-strings` skipped): the book is laid out whole instead
        self.strings_carried = True

    def layout(self, html: str, extra=()):
        """A Document of `html` laid out with the job's stylesheets and `extra` (parsed
        CSS, after them), its fetcher, fonts and image cache."""
        return self._layout(html, extra)

    def stylesheet(self, sheet):
        """`sheet` (a render.job.Stylesheet) parsed, once a worker and build; its warnings
        and refusals go into the job's."""
        css, warnings, refused = self._stylesheet(sheet)
        self.warnings += warnings
        self.refused += refused
        return css
