"""HTML → PDF with WeasyPrint, with warnings kept and attributed: what a render worker does
(render/renderer.py hands the jobs to the workers).

Each worker keeps one FontConfiguration per font policy and the parsed stylesheets for the
whole build
(parsing CSS and loading fonts is a large share of a small document's render time).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from printshop import deps
from printshop.errors import Problem, display_path
from printshop.render.extension import JobExtension, JobRun
from printshop.render.job_warnings import as_problem, capture, summarise_notdef
from printshop.render.weasy.speedups import layout_only

if TYPE_CHECKING:
    from printshop.render.fonts import FontPolicy

E = TypeVar("E", bound=JobExtension)


@dataclass(frozen=True)
class Stylesheet:
    """A CSS file of the project (reported by its path) or a small generated rule set."""

    path: str | None = None
    text: str | None = None
    label: str = "generated CSS"
    base_url: str | None = None   # for url() in `text` (default: the job's base URL)


@dataclass
class RenderJob:
    """What every product renders: the core of a job. What a product family asks for
    besides (a book's part, a layered sheet, card faces, checks of the pages) is in its
    `extensions` (render/extension.py), run by the worker in the order listed."""

    html: str
    stylesheets: tuple[Stylesheet, ...]
    roots: tuple[str, ...]
    base_url: str
    source: str  # what to blame in messages: the template or product
    uncompressed: bool = False
    layout_only: bool = False  # lay out, make no PDF (pdf is b"")
    cmyk_icc: str | None = None  # CMYK print profile: raster images converted with this ICC
    epoch: int = 0  # set by the Renderer: a worker's caches last one build (see Renderer)
    fonts: FontPolicy | None = None   # None: the bundled fonts only
    extensions: tuple[JobExtension, ...] = ()

    def get(self, kind: type[E]) -> E | None:
        """The job's extension of that class, or None."""
        return next((e for e in self.extensions if isinstance(e, kind)), None)

    def extended(self, *extensions: JobExtension) -> RenderJob:
        """A copy with `extensions` added, each replacing one of its class (in its place)."""
        kinds = {type(e): e for e in extensions}
        kept = tuple(kinds.pop(type(e), e) for e in self.extensions)
        return replace(self, extensions=kept + tuple(kinds.values()))

    def without(self, *kinds: type[JobExtension]) -> RenderJob:
        return replace(self, extensions=tuple(e for e in self.extensions
                                              if not isinstance(e, kinds)))

    @property
    def first_page(self) -> int:
        """The number printed on the job's first page: pages in messages count from it."""
        return next((e.first_page for e in self.extensions if e.first_page != 1), 1)

    @property
    def worker(self) -> int:
        """The pid of the worker that should take the job (0: any): render/pool/pool.py."""
        return next((e.worker for e in self.extensions if e.worker), 0)


@dataclass
class RenderResult:
    pdf: bytes
    pages: int
    warnings: list[Problem] = field(default_factory=list)
    refused: list[Problem] = field(default_factory=list)
    read: dict = field(default_factory=dict)  # file → sha256 the render read (printshop.deps)
    fonts: list[str] = field(default_factory=list)  # families of the fonts in the PDF
    # words of the document missing from its pages or printed more often (errors: the
    # build fails with them; render/weasy/words.py)
    lost: list[Problem] = field(default_factory=list)
    # with a book part's strings: False when they could not be carried into the layout
    # (the patch `carried-strings` skipped): the book is then laid out whole
    # (products/book/parts.py)
    strings_carried: bool = True
    # the worker's CPU seconds for the job (0: not rendered here): how long a later job of
    # the same part is likely to take, to hand the longest out first; never in the output
    seconds: float = 0.0
    # extension name → what it found (`Extension.found_in(result)` reads it typed)
    found: dict[str, Any] = field(default_factory=dict)


_process_state: dict = {}


def _forget_process_state() -> None:
    """A forked worker starts with nothing of its parent's: a font configuration shared by
    two processes shares its folder of @font-face files, and one worker rewriting a file
    the other has mapped kills that one (SIGBUS); the parsed stylesheets belong to it."""
    _process_state.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_process_state)
# and an exiting process drops its fonts while Pango is still whole: the fork hook keeps
# this module's state alive into the interpreter's last collection, where freeing a font
# map crashed (a segfault after the output was written)
atexit.register(_forget_process_state)


class _ImageCache(dict):
    """WeasyPrint's image cache (keyed by URL): a hit is a read the build depends on."""

    def __contains__(self, key):
        hit = dict.__contains__(self, key)
        if hit and isinstance(key, str) and key.startswith("file:"):
            from urllib.parse import unquote, urlsplit

            deps.record_file(unquote(urlsplit(key).path))
        return hit


def _stylesheets(job: RenderJob):
    """Parse (once per process and build) the job's stylesheets; warnings tagged with each
    file; the files the parse read (fonts, imports), replayed for every job that uses it.
    Each sheet is parsed once too: the book's parts each add a rule of their own (their
    first page's number) to the same sheets, 20 ms of parsing a part otherwise."""
    _forget_fonts_whose_files_are_gone()
    _font_config(job)  # the fonts (and speed-ups) load before any stylesheet
    if _process_state.get("epoch") != job.epoch:
        # A new build in a long-lived worker (`printshop serve`): the files may have been
        # edited since, and these caches are keyed by path.
        _process_state["epoch"] = job.epoch
        resume = sys.modules.get("printshop.render.weasy.resume")
        if resume is not None:     # an earlier build's book layouts, never finished
            resume.forget()
        _process_state["css"] = {}
        _process_state["sheets"] = {}
        _process_state["images"] = {}
    key = (job.stylesheets, job.roots, job.fonts)
    cached = _process_state.setdefault("css", {}).get(key)
    if cached is None:
        parsed, warnings, refused, files = [], [], [], {}
        for sheet in job.stylesheets:
            css, sheet_warnings, sheet_refused, read = _stylesheet(job, sheet)
            parsed.append(css)
            warnings += sheet_warnings
            refused += sheet_refused
            files.update(read)
        cached = (parsed, warnings, refused, files)
        _process_state["css"][key] = cached
    deps.merge(cached[3])
    return cached[:3]


def _forget_fonts_whose_files_are_gone() -> None:
    """A font configuration whose folder of @font-face files was removed under it (a
    temporary folder cleaned while `serve` ran for days) would fail every job after: it is
    made again, with the stylesheets that added fonts to it, as in a new worker."""
    from printshop.render.weasy.font_folder import folder_gone

    for config in _process_state.get("fonts", {}).values():
        if folder_gone(config):
            _forget_process_state()
            return


def _stylesheet(job: RenderJob, sheet: Stylesheet):
    """One sheet parsed once per process and build: (CSS, warnings, refused, files read)."""
    from weasyprint import CSS

    from printshop.render.fetcher import ProjectFetcher

    base_url = None if sheet.path else sheet.base_url or job.base_url
    key = (sheet, base_url, job.roots, job.fonts)
    if key in _process_state.setdefault("sheets", {}):
        return _process_state["sheets"][key]
    fetcher = ProjectFetcher([Path(r) for r in job.roots])
    origin = display_path(Path(sheet.path)) if sheet.path else sheet.label
    reads = deps.Recorder()
    handler, logger = capture()
    try:
        with deps.recording(reads):
            if sheet.path:
                deps.record_file(sheet.path)
            css = CSS(filename=sheet.path, string=sheet.text if not sheet.path else None,
                      base_url=base_url, url_fetcher=fetcher, font_config=_font_config(job))
    finally:
        logger.removeHandler(handler)
    refused = [Problem(origin, f"refused to load {url}: {why}") for url, why in fetcher.refused]
    failed = [m for m in handler.messages if m.startswith("Failed to load")]
    warnings = [as_problem(origin, m) for m in handler.messages if m not in failed] + \
        ([Problem(origin, m) for m in failed] if not fetcher.refused else [])
    _process_state["sheets"][key] = (css, warnings, refused, reads.files)
    return _process_state["sheets"][key]


def preload() -> None:
    """In the first worker, before it forks the others (render/pool/pool.py): WeasyPrint's
    modules, most of a worker's start, imported once for all of them. The fonts are each
    worker's own (`warm_up`)."""
    from printshop.render.weasy import library

    library.preload()     # WeasyPrint imported and patched (render/weasy/registry.py)

    # what the first job would import (~0.03 s): the fetcher (and the email parser it
    # reads data: URLs with), the fit check
    import email.policy  # noqa: F401

    import printshop.render.fetcher  # noqa: F401
    import printshop.render.weasy.fit  # noqa: F401

    # English hyphenation patterns (pyphen keeps them per process): the templates'
    # language, hyphenated in every product's first job otherwise; from a cache of the
    # parsed patterns when there is one (render/weasy/hyphenation.py)
    from printshop.render.weasy import hyphenation

    hyphenation.load("en")


def warm_up() -> None:
    """In a new worker: import WeasyPrint and load the fonts before the first job comes
    (about half a second), while the parent loads and checks the project. A few words are
    laid out and written too: what a first layout makes once (Pango's font map and
    shaping caches, cffi's C types, the hyphenation dictionary) made here cost the first
    job of each worker 0.25 s more than the next one. Nothing of it is kept but caches."""
    from weasyprint import HTML

    fonts = _font_config(None)
    HTML(string=_WARM_UP_HTML).render(font_config=fonts).write_pdf()


_WARM_UP_HTML = ('<html lang="en"><p style="hyphens: auto; width: 4em; text-align: justify">'
                 'Adventurers <b>hyphenate</b> <i>everything</i> 123</p></html>')


def _fonts():
    """The bundled fonts' configuration (what every product but a manuscript's book uses)."""
    return _font_config(None)


def _font_config(job: RenderJob | None):
    """One FontConfiguration per font policy and process: fontconfig reads its file when
    the configuration is made, so each policy gets its own file and its own object."""
    from printshop.render.weasy.library import import_weasyprint

    import_weasyprint()
    from weasyprint.text.fonts import FontConfiguration

    from printshop.render.fonts import BUNDLED_ONLY, isolate_fontconfig
    from printshop.render.weasy import font_folder, registry

    policy = (job.fonts if job is not None else None) or BUNDLED_ONLY
    configs = _process_state.setdefault("fonts", {})
    if policy not in configs:
        registry.apply_all()      # once a process: every patch of WeasyPrint
        isolate_fontconfig(policy)
        configs[policy] = FontConfiguration()
        font_folder.remove_at_exit(configs[policy])
    return configs[policy]


def render_job(job: RenderJob) -> RenderResult:
    """Runs in a worker process; what it read comes back in `RenderResult.read`."""
    if isinstance(job, Cached):
        return job.result
    reads = deps.Recorder()
    started = time.process_time()
    with deps.recording(reads):
        result = _render_job(job)
    result.read = reads.files
    result.seconds = time.process_time() - started
    _account("job", started)
    return result


# `make bench` (bench/kit.py) measures what the words check costs: with this variable set
# to a file, each worker appends the CPU seconds of each job and of its words check
_TIMES = os.environ.get("PRINTSHOP_WORDS_CHECK_TIMES")


def _account(what: str, started: float) -> None:
    if _TIMES:
        with open(_TIMES, "a", encoding="utf-8") as times:
            times.write(f"{what} {time.process_time() - started:.6f}\n")


def _render_job(job: RenderJob) -> RenderResult:
    """The job laid out and written, its extensions' hooks run around that (in the order
    the job lists them: render/extension.py)."""
    _font_config(job)    # the first: it imports and patches WeasyPrint (render/weasy/)
    from weasyprint import HTML

    from printshop.render.fetcher import ProjectFetcher
    from printshop.render.weasy.subsetting import is_fallback_warning

    css, css_warnings, css_refused = _stylesheets(job)
    fetcher = ProjectFetcher([Path(r) for r in job.roots], cmyk_icc=job.cmyk_icc)
    handler, logger = capture()

    # WeasyPrint keys its image cache by URL alone: one cache per colour mode, so a job for
    # a CMYK press never draws an image another job of the build loaded unconverted
    images = _process_state.setdefault("images", {}).setdefault(job.cmyk_icc, _ImageCache())

    def layout(html: str, extra=()):
        with layout_only() if job.layout_only else contextlib.nullcontext():
            return HTML(string=html, base_url=job.base_url, url_fetcher=fetcher).render(
                stylesheets=list(css) + list(extra), font_config=_font_config(job),
                cache=images)

    def stylesheet(sheet: Stylesheet):
        parsed, warnings, refused, read = _stylesheet(job, sheet)
        deps.merge(read)
        return parsed, warnings, refused

    run = JobRun(job, _process_state, _font_config(job), layout, stylesheet)
    try:
        with contextlib.ExitStack() as around:
            for extension in job.extensions:
                around.enter_context(extension.around_layout(run))
            document = next((d for e in job.extensions if (d := e.lay_out(run)) is not None),
                            None)
            if document is None:
                document = layout(job.html)
        for extension in job.extensions:
            extension.after_layout(run, document)
        lost = _lost_words(job, document) if run.check_words else []
        pdf = b"" if job.layout_only else document.write_pdf(uncompressed_pdf=job.uncompressed)
        fonts = sorted({font.family for font in document.fonts.values()})
        run.pages = len(document.pages)
        # the laid-out pages go before the PDF is worked on: a big pack's peak memory is a
        # worker holding both
        del document
        for extension in job.extensions:
            pdf = extension.after_pdf(run, pdf)
    finally:
        logger.removeHandler(handler)
    refused = [Problem(job.source, f"refused to load {url}: {why}") for url, why in
               fetcher.refused] + run.refused
    messages, notdef = summarise_notdef(job.source, handler.messages)
    warnings = [Problem(job.source, m) for m in messages
                if not (m.startswith("Failed to load") and fetcher.refused)
                and not is_fallback_warning(m)] + notdef  # the CLI says it once per run
    return RenderResult(pdf=pdf, pages=run.pages,
                        warnings=css_warnings + run.warnings + warnings,
                        refused=css_refused + refused, fonts=fonts, lost=lost,
                        found=run.found, strings_carried=run.strings_carried)


def _lost_words(job: RenderJob, document) -> list[Problem]:
    """The words of the job's document missing from its pages, or printed more often, as
    errors at their source (a chapter's Markdown line, or the job's source)."""
    from urllib.parse import unquote, urlsplit

    from printshop.render.weasy.words import find_lost

    started = time.process_time()
    root = Path(unquote(urlsplit(job.base_url).path)) \
        if job.base_url and job.base_url.startswith("file:") else None
    problems = []
    found = find_lost(document)
    _account("words", started)
    for lost in found:
        path = job.source
        if lost.source:
            path = str(root / lost.source) if root is not None and \
                not Path(lost.source).is_absolute() else lost.source
        problems.append(Problem(display_path(path), lost.describe(job.first_page - 1),
                                lost.line if lost.source else None))
    return problems


@dataclass
class Cached:
    """A job's result from the chunk cache, passed through a worker as it is."""

    result: RenderResult
