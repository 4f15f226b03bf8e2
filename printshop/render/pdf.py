"""HTML → PDF with WeasyPrint, in worker processes, with warnings kept and attributed.

Each worker keeps one FontConfiguration and the parsed stylesheets for the whole build
(parsing CSS and loading fonts is a large share of a small document's render time).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

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


@dataclass
class RenderResult:
    pdf: bytes
    pages: int
    warnings: list[Problem] = field(default_factory=list)
    refused: list[Problem] = field(default_factory=list)
    overflows: list = field(default_factory=list)  # printshop.render.fit.Overflow
    anchors: dict[str, int] = field(default_factory=dict)  # id → page number (from 1)


_LINE_COL_RE = re.compile(r" at (\d+):(\d+)")
_process_state: dict = {}


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


def _stylesheets(job: RenderJob):
    """Parse (once per process) the job's stylesheets; warnings tagged with each file."""
    from weasyprint import CSS

    from printshop.render.fetcher import ProjectFetcher

    _fonts()
    key = (job.stylesheets, job.roots)
    cached = _process_state.setdefault("css", {}).get(key)
    if cached is None:
        fetcher = ProjectFetcher([Path(r) for r in job.roots])
        parsed, warnings, refused = [], [], []
        for sheet in job.stylesheets:
            origin = display_path(Path(sheet.path)) if sheet.path else sheet.label
            handler, logger = _capture()
            before = len(fetcher.refused)
            try:
                if sheet.path:
                    parsed.append(CSS(filename=sheet.path, url_fetcher=fetcher,
                                      font_config=_process_state["fonts"]))
                else:
                    parsed.append(CSS(string=sheet.text, base_url=sheet.base_url or job.base_url,
                                      url_fetcher=fetcher, font_config=_process_state["fonts"]))
            finally:
                logger.removeHandler(handler)
            refused_here = fetcher.refused[before:]
            refused += [Problem(origin, f"refused to load {url}: {why}")
                        for url, why in refused_here]
            warnings += [_as_problem(origin, m) for m in handler.messages
                         if not m.startswith("Failed to load")]
            warnings += [Problem(origin, m) for m in handler.messages
                         if m.startswith("Failed to load") and not refused_here]
        cached = (parsed, warnings, refused)
        _process_state["css"][key] = cached
    return cached


def warm_up() -> None:
    """In a new worker: import WeasyPrint and load the fonts before the first job comes
    (about half a second), while the parent loads and checks the project."""
    _fonts()
    import weasyprint.layout  # noqa: F401
    import weasyprint.pdf  # noqa: F401


def _fonts():
    if "fonts" not in _process_state:
        from weasyprint.text.fonts import FontConfiguration

        from printshop.render import speedups
        from printshop.render.fonts import isolate_fontconfig
        from printshop.render.subsetting import keep_font_dates

        speedups.apply()
        isolate_fontconfig()
        keep_font_dates()
        _process_state["fonts"] = FontConfiguration()
    return _process_state["fonts"]


def render_job(job: RenderJob) -> RenderResult:
    """Runs in a worker process."""
    from weasyprint import HTML

    from printshop.render.fetcher import ProjectFetcher
    from printshop.render.subsetting import is_fallback_warning

    css, css_warnings, css_refused = _stylesheets(job)
    fetcher = ProjectFetcher([Path(r) for r in job.roots], cmyk_icc=job.cmyk_icc)
    handler, logger = _capture()

    def layout(html: str):
        return HTML(string=html, base_url=job.base_url, url_fetcher=fetcher).render(
            stylesheets=css, font_config=_process_state["fonts"],
            cache=_process_state.setdefault("images", {}))

    try:
        document = layout(job.html)
        overflows = []
        if job.fit_check:
            from printshop.render.fit import find_overflows

            overflows = find_overflows(document)
        anchors = {}
        if job.anchors:
            for number, page in enumerate(document.pages, start=1):
                for name in page.anchors:
                    anchors.setdefault(name, number)
        pdf = b"" if job.layout_only else document.write_pdf(uncompressed_pdf=job.uncompressed)
    finally:
        logger.removeHandler(handler)
    refused = [Problem(job.source, f"refused to load {url}: {why}") for url, why in
               fetcher.refused]
    warnings = [Problem(job.source, m) for m in handler.messages
                if not (m.startswith("Failed to load") and fetcher.refused)
                and not is_fallback_warning(m)]  # the CLI says it once per run
    return RenderResult(pdf=pdf, pages=len(document.pages),
                        warnings=css_warnings + warnings, refused=css_refused + refused,
                        overflows=overflows, anchors=anchors)


class Renderer:
    """Renders jobs on worker processes; turns every failure into a PrintshopError."""

    def __init__(self, processes: int | None = None, timeout: float = DEFAULT_TIMEOUT):
        self.pool = WorkerPool(render_job, processes=processes, timeout=timeout,
                               warm_up=warm_up)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.pool.close()

    def start(self) -> None:
        """Start the workers now rather than at the first render: before loading big inputs,
        so the workers do not inherit a copy of them, and so their start-up overlaps it."""
        self.pool.start()

    def release(self) -> None:
        """Stop the workers now, giving their memory back (before a big merge, say); the
        next render starts fresh ones."""
        self.pool.close()

    def render(self, jobs: list[RenderJob], on_done=None) -> list[RenderResult]:
        try:
            results = self.pool.map(jobs, on_done=on_done)
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
        refused = [p for r in results for p in r.refused]
        if refused:
            raise PrintshopError(_unique(refused))
        return results


def _unique(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for problem in problems:
        if problem not in seen:
            seen.add(problem)
            out.append(problem)
    return out


def collect_warnings(results: list[RenderResult]) -> list[Problem]:
    return _unique([w for r in results for w in r.warnings])
