"""HTML → PDF with WeasyPrint, in worker processes, with warnings kept and attributed.

Each worker keeps one FontConfiguration per font policy and the parsed stylesheets for the
whole build
(parsing CSS and loading fonts is a large share of a small document's render time).
"""

from __future__ import annotations

import atexit
import logging
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from printshop import deps
from printshop.errors import PrintshopError, Problem, display_path
from printshop.render.pool import DEFAULT_TIMEOUT, TaskFailed, WorkerPool


@dataclass(frozen=True)
class Stylesheet:
    """A CSS file of the project (reported by its path) or a small generated rule set."""

    path: str | None = None
    text: str | None = None
    label: str = "generated CSS"
    base_url: str | None = None   # for url() in `text` (default: the job's base URL)


@dataclass
class RenderJob:
    html: str
    stylesheets: tuple[Stylesheet, ...]
    roots: tuple[str, ...]
    base_url: str
    source: str  # what to blame in messages: the template or product
    uncompressed: bool = False
    fit_check: bool = False  # report boxes marked data-fit="NAME" whose content overflows
    anchors: bool = False    # return the page number of every id (RenderResult.anchors)
    layout_only: bool = False  # lay out, make no PDF (for page numbers: pdf is b"")
    cmyk_icc: str | None = None  # CMYK print profile: raster images converted with this ICC
    epoch: int = 0  # set by the Renderer: a worker's caches last one build (see Renderer)
    fonts: object = None     # printshop.render.fonts.FontPolicy; None: bundled fonts only
    page_check: bool = False  # report boxes reaching past their column or the page
    # layered sheets (printshop.render.layers): the geometry of every data-slot element
    # (RenderResult.slots); `stamps`, (Slot, HTML text) pairs: lay out these stamps, one a
    # page, instead of `html`; `overlay`: the forms and stamps to draw over each page
    slots: bool = False
    stamps: tuple = ()
    overlay: object = None
    # named strings (string-set) as the book's earlier parts left them: (name, value) pairs
    # used where the document has set none yet (printshop.render.strings)
    strings: tuple = ()


@dataclass
class RenderResult:
    pdf: bytes
    pages: int
    warnings: list[Problem] = field(default_factory=list)
    refused: list[Problem] = field(default_factory=list)
    overflows: list = field(default_factory=list)  # printshop.render.fit.Overflow
    anchors: dict[str, int] = field(default_factory=dict)  # id → page number (from 1)
    read: dict = field(default_factory=dict)  # file → sha256 the render read (printshop.deps)
    fonts: list[str] = field(default_factory=list)  # families of the fonts in the PDF
    outside: list = field(default_factory=list)  # printshop.render.fit.Outside (page_check)
    slots: list = field(default_factory=list)  # per page: {name: layers.Slot}
    # with `anchors`: name → [(page, last value set on it)] of every named string it sets
    strings: dict = field(default_factory=dict)


_LINE_COL_RE = re.compile(r" at (\d+):(\d+)")
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


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        try:
            self.messages.append(record.getMessage())
        except Exception:
            self.messages.append(str(record.msg))


def _capture():
    handler = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    return handler, logger


def _as_problem(origin: str, message: str) -> Problem:
    match = _LINE_COL_RE.search(message)
    if match:
        return Problem(origin, message.replace(match[0], ""), int(match[1]), int(match[2]))
    return Problem(origin, message)


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
    file; the files the parse read (fonts, imports), replayed for every job that uses it."""
    from printshop.render.fetcher import ProjectFetcher

    _font_config(job)  # the fonts (and speed-ups) load before any stylesheet
    if _process_state.get("epoch") != job.epoch:
        # A new build in a long-lived worker (`printshop serve`): the files may have been
        # edited since, and these caches are keyed by path.
        _process_state["epoch"] = job.epoch
        _process_state["css"] = {}
        _process_state["images"] = {}
    key = (job.stylesheets, job.roots, job.fonts)
    cached = _process_state.setdefault("css", {}).get(key)
    if cached is None:
        fetcher = ProjectFetcher([Path(r) for r in job.roots])
        parsed, warnings, refused = [], [], []
        reads = deps.Recorder()
        with deps.recording(reads):
            _parse_stylesheets(job, fetcher, parsed, warnings, refused)
        cached = (parsed, warnings, refused, reads.files)
        _process_state["css"][key] = cached
    deps.merge(cached[3])
    return cached[:3]


def _parse_stylesheets(job, fetcher, parsed, warnings, refused) -> None:
    from weasyprint import CSS

    for sheet in job.stylesheets:
        origin = display_path(Path(sheet.path)) if sheet.path else sheet.label
        handler, logger = _capture()
        before = len(fetcher.refused)
        try:
            if sheet.path:
                deps.record_file(sheet.path)
                parsed.append(CSS(filename=sheet.path, url_fetcher=fetcher,
                                  font_config=_font_config(job)))
            else:
                parsed.append(CSS(string=sheet.text, base_url=sheet.base_url or job.base_url,
                                  url_fetcher=fetcher, font_config=_font_config(job)))
        finally:
            logger.removeHandler(handler)
        refused_here = fetcher.refused[before:]
        refused += [Problem(origin, f"refused to load {url}: {why}")
                    for url, why in refused_here]
        warnings += [_as_problem(origin, m) for m in handler.messages
                     if not m.startswith("Failed to load")]
        warnings += [Problem(origin, m) for m in handler.messages
                     if m.startswith("Failed to load") and not refused_here]


def warm_up() -> None:
    """In a new worker: import WeasyPrint and load the fonts before the first job comes
    (about half a second), while the parent loads and checks the project."""
    _font_config(None)
    import weasyprint.layout  # noqa: F401
    import weasyprint.pdf  # noqa: F401


def _fonts():
    """The bundled fonts' configuration (what every product but a manuscript's book uses)."""
    return _font_config(None)


def _font_config(job: RenderJob | None):
    """One FontConfiguration per font policy and process: fontconfig reads its file when
    the configuration is made, so each policy gets its own file and its own object."""
    from weasyprint.text.fonts import FontConfiguration

    from printshop.render import column_balance, speedups
    from printshop.render.fonts import (BUNDLED_ONLY, isolate_fontconfig,
                                        remove_font_folder_at_exit)
    from printshop.render.subsetting import keep_font_dates

    policy = (job.fonts if job is not None else None) or BUNDLED_ONLY
    configs = _process_state.setdefault("fonts", {})
    if policy not in configs:
        if not configs:
            speedups.apply()
            column_balance.apply()
        isolate_fontconfig(policy)
        keep_font_dates()
        configs[policy] = FontConfiguration()
        remove_font_folder_at_exit(configs[policy])
    return configs[policy]


_NOTDEF_RE = re.compile(r'^\.notdef glyph rendered for Unicode string unsupported by fonts: '
                        r'"(.*)" \(U\+[0-9A-F]+\)$', re.S)


def _summarise_notdef(origin: str, messages: list[str]) -> tuple[list[str], list[Problem]]:
    """WeasyPrint warns once per character it cannot draw: a flood. One line per script."""
    from printshop.render.fonts import script_of

    kept, missing = [], set()
    for message in messages:
        match = _NOTDEF_RE.match(message)
        if match:
            missing.update(match[1])
        else:
            kept.append(message)
    by_script: dict[str, set[str]] = {}
    for char in missing:
        by_script.setdefault(script_of(char), set()).add(char)
    def sample(chars) -> str:
        first = sorted(chars)[:4]
        return ", ".join(f"{c} U+{ord(c):04X}" for c in first) + \
            (", …" if len(chars) > 4 else "")

    problems = [Problem(origin, f"{len(chars)} different {script} character"
                        f"{'s' if len(chars) != 1 else ''} printed as empty boxes: no font "
                        f"has them (e.g. {sample(chars)})")
                for script, chars in sorted(by_script.items())]
    return kept, problems


def render_job(job: RenderJob) -> RenderResult:
    """Runs in a worker process; what it read comes back in `RenderResult.read`."""
    if isinstance(job, Cached):
        return job.result
    reads = deps.Recorder()
    with deps.recording(reads):
        result = _render_job(job)
    result.read = reads.files
    return result


def _render_job(job: RenderJob) -> RenderResult:
    from weasyprint import HTML

    from printshop.render.fetcher import ProjectFetcher
    from printshop.render.subsetting import is_fallback_warning

    css, css_warnings, css_refused = _stylesheets(job)
    fetcher = ProjectFetcher([Path(r) for r in job.roots], cmyk_icc=job.cmyk_icc)
    handler, logger = _capture()

    # WeasyPrint keys its image cache by URL alone: one cache per colour mode, so a job for
    # a CMYK press never draws an image another job of the build loaded unconverted
    images = _process_state.setdefault("images", {}).setdefault(job.cmyk_icc, _ImageCache())

    def layout(html: str, extra=()):
        return HTML(string=html, base_url=job.base_url, url_fetcher=fetcher).render(
            stylesheets=list(css) + list(extra), font_config=_font_config(job),
            cache=images)

    try:
        if job.stamps:
            from printshop.render.layers import stamps_html

            document = layout(stamps_html(list(job.stamps)), extra=[_stamp_css(job)])
        elif job.strings:
            from printshop.render import strings

            strings.install()
            with strings.carried(dict(job.strings)):
                document = layout(job.html)
        else:
            document = layout(job.html)
        overflows, outside = [], []
        if job.fit_check:
            from printshop.render.fit import find_overflows

            overflows = find_overflows(document)
        anchors, named = {}, {}
        if job.anchors:
            from printshop.render.strings import assignments

            for number, page in enumerate(document.pages, start=1):
                for name in page.anchors:
                    anchors.setdefault(name, number)
            named = assignments(document)
        if job.page_check:
            from printshop.render.fit import find_outside

            outside = find_outside(document)
        geometry = []
        if job.slots or job.overlay is not None:
            from printshop.render.layers import slot_geometry

            geometry = slot_geometry(document)
        pdf = b"" if job.layout_only else document.write_pdf(uncompressed_pdf=job.uncompressed)
        fonts = sorted({font.family for font in document.fonts.values()})
        if job.overlay is not None:
            pdf = _overlay(job, geometry, pdf)
    finally:
        logger.removeHandler(handler)
    refused = [Problem(job.source, f"refused to load {url}: {why}") for url, why in
               fetcher.refused]
    messages, notdef = _summarise_notdef(job.source, handler.messages)
    warnings = [Problem(job.source, m) for m in messages
                if not (m.startswith("Failed to load") and fetcher.refused)
                and not is_fallback_warning(m)] + notdef  # the CLI says it once per run
    return RenderResult(pdf=pdf, pages=len(document.pages),
                        warnings=css_warnings + warnings, refused=css_refused + refused,
                        overflows=overflows, anchors=anchors, fonts=fonts, outside=outside,
                        slots=geometry if job.slots else [], strings=named)


def _stamp_css(job: RenderJob):
    from weasyprint import CSS

    from printshop.render.layers import STAMP_CSS

    if "stamp_css" not in _process_state:
        _process_state["stamp_css"] = CSS(string=STAMP_CSS, font_config=_font_config(job))
    return _process_state["stamp_css"]


def _overlay(job: RenderJob, geometry, pdf: bytes) -> bytes:
    """The values pages with their forms and stamps drawn over them. Pages that did not
    come out one a sheet (a sheet too long) are left as they are: the product reports or
    redraws them."""
    from printshop.render.layers import compose

    pages = job.overlay.pages
    if len(geometry) != len(pages) or any(
            art is not None and "bottom" not in found for art, found in zip(pages, geometry)):
        return pdf
    for number, art in enumerate(pages):
        if art is not None:
            form = job.overlay.forms[art.form]
            art.band_dy_px = geometry[number]["bottom"].top - form.band_top_px
    return compose(pdf, job.overlay, job.uncompressed)


class Renderer:
    """Renders jobs on worker processes; turns every failure into a PrintshopError."""

    def __init__(self, processes: int | None = None, timeout: float = DEFAULT_TIMEOUT):
        self.pool = WorkerPool(render_job, processes=processes, timeout=timeout,
                               warm_up=warm_up)
        self.epoch = 1
        self.cache = None   # a printshop.render.chunks.ChunkCache, set per build
        # `serve` renders a chapter preview on one thread while another composes HTML
        # editions: the pool takes one caller at a time
        self._lock = threading.RLock()
        self._riders: list[RenderJob] = []        # to render with the next batch (`also`)
        self._rode: dict[str, RenderResult] = {}  # their results, by job key

    def also(self, job: RenderJob) -> None:
        """Render `job` at the end of the next batch of jobs (when a worker is free) and keep
        its result for the `render` that asks for it: a small job a product needs after a
        long batch (the blank sheet after the book's parts) then costs no time of its own."""
        with self._lock:
            self._riders.append(job)

    def new_build(self) -> None:
        """A renderer kept warm across builds (`serve`): workers keep their fonts but drop
        the stylesheets and images they parsed, which may have been edited since."""
        self.epoch += 1
        self._riders, self._rode = [], {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.pool.close()

    def start(self) -> None:
        """Start the workers now rather than at the first render: before loading big inputs,
        so the workers do not inherit a copy of them, and so their start-up overlaps it.
        Workers already running are kept (`serve` calls this to keep its pool warm)."""
        with self._lock:
            self.pool.start()

    def release(self) -> None:
        """Stop the workers now, giving their memory back (before a big merge, say); the
        next render starts fresh ones."""
        self.pool.close()

    def render(self, jobs: list[RenderJob], on_done=None) -> list[RenderResult]:
        with self._lock:
            if not isinstance(jobs, (list, tuple)) or not (self._riders or self._rode):
                return self._cached_render(jobs, on_done)
            return self._render_with_riders(list(jobs), on_done)

    def _render_with_riders(self, jobs, on_done) -> list[RenderResult]:
        from printshop.render.chunks import job_key

        keys = [job_key(job) for job in jobs]
        results = [self._rode.pop(key, None) for key in keys]
        for index, result in enumerate(results):
            if result is not None:
                deps.merge(result.read)
                if on_done is not None:
                    on_done(index, result)
        todo = [i for i, result in enumerate(results) if result is None]
        if not todo:
            return results
        riders = [(job_key(job), job) for job in self._riders]
        riders = [(key, job) for key, job in riders if key not in keys]
        self._riders = []
        rendered = self._cached_render(
            [jobs[i] for i in todo] + [job for _, job in riders],
            on_done and (lambda n, result: on_done(todo[n], result) if n < len(todo)
                         else None))
        for index, result in zip(todo, rendered):
            results[index] = result
        for (key, _), result in zip(riders, rendered[len(todo):]):
            self._rode[key] = result
        return results

    def _cached_render(self, jobs, on_done=None) -> list[RenderResult]:
        cache = self.cache
        if cache is None:
            return self._render(jobs, on_done)
        from printshop.render.chunks import job_key

        if not isinstance(jobs, (list, tuple)):
            # made lazily (a pack's chunks): each job is looked up when a worker takes it,
            # and a cached one goes through the worker as its stored result
            stamped = _Stamped(jobs, self.epoch, cache)
            results = self._render(jobs, on_done, stamped=stamped)
            for index, result in enumerate(results):
                if index in stamped.keys:
                    cache.put(stamped.keys[index], result)
            cache.reused += len(results) - len(stamped.keys)
            cache.rendered += len(stamped.keys)
            return results
        # a list: the jobs rendered before (same content, same files read) are taken from
        # the cache here, and no worker starts if all of them were
        keys = [job_key(job) for job in jobs]
        results: list = [cache.get(key) for key in keys]
        misses = [i for i, result in enumerate(results) if result is None]
        for index, result in enumerate(results):
            if result is not None and on_done is not None:
                on_done(index, result)
        rendered = self._render([jobs[i] for i in misses], on_done and (
            lambda n, result: on_done(misses[n], result))) if misses else []
        for index, result in zip(misses, rendered):
            cache.put(keys[index], result)
            results[index] = result
        cache.reused += len(jobs) - len(misses)
        cache.rendered += len(misses)
        for index in set(range(len(jobs))) - set(misses):
            deps.merge(results[index].read)   # what the cached render read, for the build cache
        return results

    def _render(self, jobs, on_done=None, stamped=None) -> list[RenderResult]:
        try:
            results = self.pool.map(stamped or _Stamped(jobs, self.epoch), on_done=on_done)
        except TaskFailed as failed:
            job = jobs[failed.index]
            if failed.reason == "timeout":
                message = f"render timed out after {failed.detail} s in {job.source}"
            elif failed.reason == "died":
                message = (f"the render process died ({failed.detail or 'killed'}) while "
                           f"rendering {job.source}")
            elif failed.detail.startswith("nesting too deep"):
                message = f"nesting too deep in {job.source} (simplify the HTML structure)"
            elif failed.detail.startswith("ran out of memory"):
                message = f"ran out of memory rendering {job.source}"
            else:
                raise RuntimeError(f"rendering {job.source} failed: {failed.detail}") from None
            raise PrintshopError(Problem(job.source, message)) from None
        for result in results:
            deps.merge(result.read)
        refused = [p for r in results for p in r.refused]
        if refused:
            raise PrintshopError(_unique(refused))
        return results


class _Stamped:
    """The jobs (maybe made lazily, when taken) with the renderer's build epoch set; with a
    chunk cache, a job rendered before is handed out as its stored result (`Cached`), and
    the keys of the others are kept (`keys`) to store their results."""

    def __init__(self, jobs, epoch: int, cache=None):
        self.jobs, self.epoch, self.cache = jobs, epoch, cache
        self.keys: dict[int, str] = {}

    def __len__(self):
        return len(self.jobs)

    def __getitem__(self, index):
        job = self.jobs[index]
        job.epoch = self.epoch
        if self.cache is not None:
            from printshop.render.chunks import job_key

            key = job_key(job)
            found = self.cache.get(key)
            if found is not None:
                return Cached(found)
            self.keys[index] = key
        return job


@dataclass
class Cached:
    """A job's result from the chunk cache, passed through a worker as it is."""

    result: RenderResult


def _unique(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for problem in problems:
        if problem not in seen:
            seen.add(problem)
            out.append(problem)
    return out


def collect_warnings(results: list[RenderResult]) -> list[Problem]:
    return _unique([w for r in results for w in r.warnings])
