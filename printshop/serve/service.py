"""The long-lived build service behind `printshop serve`.

One thread watches the project (watchfiles) and marks it dirty; one thread builds. A build
is a cycle: first the HTML editions alone (a saved chapter reaches the browser in about a
second), then each saved chapter's pages alone, numbered as in the last whole book (its page
map, kept in the build cache: products/book/preview.py), then every product, one at a time,
each through the build cache (only what a change touched is rendered), on one warm pool of
render workers. The whole book replaces the chapter's preview when it is done. A save that
arrives during a cycle makes the loop go round once more as soon as the current product is
done: the latest change wins, and no change is lost. Files reach the output folder only by
atomic renames, so a half-written file is never served.

State for the pages (the build number, each file's version, the problems of the last
attempt) is published to listeners (the server's event streams) after every step.
"""

from __future__ import annotations

import threading
import time
import traceback
from pathlib import Path
from typing import Callable

from printshop.cache import CACHE_DIR
from printshop.serve.made_here import FormJobs
from printshop.serve.state import (
    State,
    count_phrase,
    internal_error,
    mtime_of,
    page_count,
    product_title,
    shown_path,
    version_of,
)


class BuildService(FormJobs):
    def __init__(self, source: Path, out: Path, names: list[str] | None = None,
                 jobs: int | None = None, log: Callable[[str], None] = print,
                 colour: bool = False):
        self.colour = colour        # the terminal's problems in colour
        self._logged: set[str] = set()   # problems said in the terminal, still there
        self.source = Path(source).resolve()
        self.out = Path(out).resolve()
        self.names = names
        self.jobs = jobs
        self.log = log
        self.state = State()
        self.changed = threading.Condition()
        self._dirty = True          # build at start
        self._saved: set[str] = set()   # files saved since the last cycle took them
        self._guides: set[str] = set()  # products whose chapters can be previewed alone
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._renderer = None
        self._queued: list[dict] = []   # form jobs waiting for the build thread

    # --- life cycle ------------------------------------------------------------------------
    def start(self) -> None:
        from printshop.render.renderer import Renderer

        self._renderer = Renderer(processes=self.jobs)
        # workers ready before the first save: a new one spends about half a second
        # importing WeasyPrint and loading fonts before it takes a job (forked now, from a
        # process that holds no project yet)
        self._renderer.start()
        for target in (self._build_loop, self._watch_loop):
            thread = threading.Thread(target=target, daemon=True, name=target.__name__)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        with self.changed:
            self.changed.notify_all()
        for thread in self._threads:
            thread.join(10)
        if self._renderer is not None:
            self._renderer.pool.kill()

    def mark_dirty(self, why: str = "", paths=()) -> None:
        with self.changed:
            self._dirty = True
            self._saved.update(paths)
            self.changed.notify_all()
        if why:
            self.log(f"printshop: changed: {why}")

    def wait_for_change(self, seen: int, timeout: float) -> dict:
        """The state once its build number passes `seen` (or after `timeout`)."""
        with self.changed:
            self.changed.wait_for(lambda: self.state.build != seen or self._stop.is_set(),
                                  timeout)
            return self.state.as_json()

    def snapshot(self) -> dict:
        with self.changed:
            return self.state.as_json()

    # --- watching ---------------------------------------------------------------------------
    def _watch_loop(self) -> None:
        import watchfiles

        from printshop.project import BUILTIN_TEMPLATES

        out = str(self.out)
        default = watchfiles.DefaultFilter()

        def wanted(change, path: str) -> bool:
            if path == out or path.startswith(out + "/") or f"/{CACHE_DIR}" in path:
                return False
            name = Path(path).name
            return default(change, path) and not name.startswith((".", "#"))

        paths = [self.source] + ([BUILTIN_TEMPLATES] if BUILTIN_TEMPLATES.is_dir() else [])
        for changes in watchfiles.watch(*paths, watch_filter=wanted, stop_event=self._stop,
                                        step=50, debounce=1600, raise_interrupt=False):
            shown = sorted({shown_path(p, self.source) for _, p in changes})
            self.mark_dirty(", ".join(shown[:5]) + (" …" if len(shown) > 5 else ""),
                            {p for _, p in changes})

    # --- building ---------------------------------------------------------------------------
    def _build_loop(self) -> None:
        while not self._stop.is_set():
            with self.changed:
                self.changed.wait_for(lambda: self._dirty or self._queued
                                      or self._stop.is_set())
                if self._stop.is_set():
                    return
                job = self._queued.pop(0) if self._queued else None
            if job is not None:   # asked for by someone waiting: before a rebuild
                self._run_job(job)
                continue
            with self.changed:
                self._dirty = False
                self.state.building = True
            try:
                self._cycle()
                if not self._is_dirty():
                    self._forget_fixed()
            finally:
                with self.changed:
                    self.state.building = self._dirty
                    self.state.build += 1
                    self.changed.notify_all()
            if not self._is_dirty():
                # workers a product let go (a pregen pack frees their memory before its
                # merge) or that a failed render took down start again while the author
                # writes, not after the next save
                if self._renderer is not None:
                    self._renderer.start()

    def _is_dirty(self) -> bool:
        with self.changed:
            return self._dirty or self._stop.is_set()

    def _cycle(self) -> None:
        with self.changed:
            saved, self._saved = self._saved, set()
        names = self._product_names()
        if names is None:
            return
        # a saved chapter's pages alone render on a worker while the HTML editions are
        # composed here (two cores: the page and the HTML are both ready sooner); the
        # chapter's HTML is made first, so the two do not share this process's time
        composed = threading.Event()
        previews = threading.Thread(target=self._chapters_first,
                                    args=(list(self._saved_chapters(names, saved)), composed),
                                    daemon=True, name="chapter-first")
        previews.start()
        composed.wait(10)
        for name in self._html_first(names):
            self._step(name, {name: {"formats": ["html"]}})
            if self._is_dirty():
                break
        previews.join()
        if self._is_dirty():
            return
        for name in names:
            self._step(name, None)
            if self._is_dirty():
                return

    def _product_names(self) -> list[str] | None:
        from printshop.errors import PrintshopError
        from printshop.products import load_products
        from printshop.project import Project

        try:
            project = Project.load(self.source)
            products = load_products(project, self.names)
        except PrintshopError as exc:
            exc = _everything(self.source, self.names, exc)
            self._say(exc.problems, exc.warnings)
            self._publish("", self._lines(exc.problems, exc.warnings))
            return None
        except Exception as exc:  # a bug: keep serving, say so
            self._publish("", [internal_error(exc)])
            return None
        self._publish("", [])
        self._html_products = {p.name for p in products
                               if "html" in (getattr(p.options, "formats", None) or [])}
        self._root = Path(project.root).resolve()
        self._guides = {p.name for p in products if p.kind == "guide"
                        and "pdf" in (getattr(p.options, "formats", None) or [])}
        with self.changed:
            self.state.products = [p.name for p in products]
            self.state.titles = {p.name: product_title(project, p) for p in products}
        return [p.name for p in products]

    def _html_first(self, names: list[str]) -> list[str]:
        return [n for n in names if n in self._html_products]

    def _step(self, name: str, overrides: dict | None) -> None:
        from printshop.builder import build_project
        from printshop.errors import PrintshopError

        started = time.monotonic()
        try:
            report = build_project(self.source, self.out, [name], renderer=self._renderer,
                                   overrides=overrides,
                                   progress=lambda m: self.log(f"printshop: {m}"))
        except PrintshopError as exc:
            if self._say(exc.problems, exc.warnings):
                self.log(f"printshop: {name}: {count_phrase(exc.problems, exc.warnings)}; still "
                         "serving the last good files")
            self._publish(name, self._lines(exc.problems, exc.warnings))
            return
        except Exception as exc:
            self.log(traceback.format_exc())
            self._publish(name, [internal_error(exc)])
            return
        self._say((), report.warnings)
        if report.built:
            edition = " (HTML edition)" if overrides else ""
            self.log(f"printshop: {name}{edition} built in {time.monotonic() - started:.1f} s")
        self._publish(name, [], overrides is None,
                      warnings=self._lines((), report.warnings))

    # --- problems: one format, each said once --------------------------------------------------
    def _lines(self, errors, warnings) -> list[str]:
        from printshop.diagnostics import render_all

        return render_all(errors, warnings)

    def _say(self, errors, warnings) -> bool:
        """Problems in the terminal, in colour there, each once while it lasts: the HTML
        edition, the whole product and every product that reads the same table find the
        same mistake, and a save that changes nothing else says nothing again."""
        from printshop.diagnostics import render_all

        plain = self._lines(errors, warnings)
        shown = render_all(errors, warnings, self.colour)
        new = False
        for key, text in zip(plain, shown):
            if key not in self._logged:
                self._logged.add(key)
                self.log(text)
                new = True
        return new

    def _forget_fixed(self) -> None:
        """A problem gone from every product may be said again when it comes back."""
        with self.changed:
            current = {line for lines in self.state.problems.values() for line in lines}
            current |= {line for lines in self.state.warnings.values() for line in lines}
        self._logged &= current

    # --- a saved chapter alone, before the whole book ------------------------------------------
    def _saved_chapters(self, names: list[str], saved: set[str]):
        """(book, chapter file, page map) for each book with a saved chapter and a page map
        from a whole build of it (else the whole book is all there is to build)."""
        from printshop.cache import entry_extra
        from printshop.products.book.preview import PageMap

        sources = []
        for path in sorted(saved, key=mtime_of, reverse=True):   # the latest save first
            try:   # as the book names them: relative to the project's rules folder
                sources.append(Path(path).resolve().relative_to(self._root).as_posix())
            except ValueError:
                continue
        for name in names:
            if name not in self._guides or not sources:
                continue
            pages = PageMap.from_json(entry_extra(self.out, name).get("page_map"))
            source = next((s for s in sources if pages and pages.chapter(s)), None)
            if source is not None:
                yield name, source, pages

    def _chapters_first(self, chapters: list, composed: threading.Event) -> None:
        try:
            for name, source, pages in chapters:
                self._chapter_first(name, source, pages, composed.set)
                if self._is_dirty():
                    return
        finally:
            composed.set()

    def preview_file(self, name: str) -> Path:
        return self.out / CACHE_DIR / "preview" / f"{name}.pdf"

    def _chapter_first(self, name: str, source: str, pages, composed=None) -> None:
        from printshop import deps
        from printshop.errors import PrintshopError
        from printshop.output import write_atomic
        from printshop.products import BuildContext, load_products
        from printshop.products.book.guide import Guide
        from printshop.project import Project

        started = time.monotonic()
        try:
            project = Project.load(self.source)
            product, = load_products(project, [name])
            renderer = self._renderer
            assert renderer is not None and isinstance(product, Guide)   # (started; a book)
            ctx = BuildContext(project=project, renderer=renderer)
            renderer.new_build()
            with deps.recording(deps.Recorder()):
                preview = product.chapter_preview(ctx, source, pages, composed)
        except PrintshopError:
            return      # the whole build, next, reports the problems
        except Exception:
            self.log(traceback.format_exc())
            return
        if preview is None:
            return
        target = self.preview_file(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, preview.pdf)
        last = preview.first_page + preview.pages - 1
        self.log(f"printshop: {name}: {source} alone (pages {preview.first_page}–{last}) in "
                 f"{time.monotonic() - started:.1f} s; now the whole book")
        with self.changed:
            self.state.previews[name] = {
                "file": f"{name}.pdf", "source": source, "title": preview.title,
                "number": preview.number, "first": preview.first_page,
                "pages": preview.pages, "replaces": list(preview.replaces),
                "version": version_of(target)}
            self.state.build += 1
            self.changed.notify_all()

    def _publish(self, name: str, problems: list[str], full: bool = False,
                 warnings: list[str] | None = None) -> None:
        files = dict(self.state.files)
        outputs = dict(self.state.outputs)
        if name and full:
            outputs[name] = self._outputs_of(name)
        for output in [o for names in outputs.values() for o in names] + \
                [f"{n}.html" for n in getattr(self, "_html_products", ())]:
            version = version_of(self.out / output)
            if version:
                files[output] = version
        pages: dict[str, int | None] = {f: n for f, n in self.state.pages.items()
                                        if f in files}
        for output in files:
            if output.endswith(".pdf") and files[output] != self.state.files.get(output):
                pages[output] = page_count(self.out / output)
        with self.changed:
            changed = (files != self.state.files or outputs != self.state.outputs
                       or problems != self.state.problems.get(name, []))
            if warnings is not None and warnings != self.state.warnings.get(name, []):
                self.state.warnings[name] = warnings
                changed = True
            self.state.pages = {f: n for f, n in pages.items() if n}
            self.state.files, self.state.outputs = files, outputs
            if problems:
                self.state.problems[name] = problems
            else:
                self.state.problems.pop(name, None)
            if name in self.state.previews and (full or problems):
                del self.state.previews[name]   # the whole book (or its problems) instead
                changed = True
            if changed:
                self.state.build += 1
                self.changed.notify_all()

    def _outputs_of(self, name: str) -> list[str]:
        import json

        entry = self.out / CACHE_DIR / "products" / f"{name}.json"
        try:
            return sorted(json.loads(entry.read_text(encoding="utf-8"))["outputs"])
        except (OSError, ValueError, KeyError):
            return []


def _everything(source, names, exc):
    """The manifest has a problem: every problem of the project, as `check` finds them
    (nothing is rendered), so that one save shows them all."""
    from printshop.builder import check_project
    from printshop.errors import PrintshopError

    try:
        check_project(source, names)
    except PrintshopError as full:
        return full
    except Exception:   # noqa: BLE001 - the first problem is still worth showing
        return exc
    return exc
