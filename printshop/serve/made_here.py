"""What serve's form page makes (serve/forms.py): a pack of characters or a convention kit,
on the service's warm workers, written into the output folder and nowhere else."""

from __future__ import annotations

import threading
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from printshop.render.renderer import Renderer
    from printshop.serve.state import State


def inside(out: Path, name: str) -> Path:
    """Where a made file goes: inside the output folder, never elsewhere."""
    target = (out / name).resolve()
    if out.resolve() not in target.parents:
        raise RuntimeError(f"refusing to write {name} outside {out}")
    return target


def pack(source: Path, out: Path, renderer, request: dict, log) -> tuple[list[str], list[str]]:
    """(files made, what to say about them)."""
    from printshop.output import check_output_name, write_atomic
    from printshop.products.characters.pack import roll_characters_to_bytes

    result = roll_characters_to_bytes(source, renderer=renderer, progress=log, **request)
    name = check_output_name(result.default_name)
    write_atomic(inside(out, name), result.data)
    return [name], [f"{result.count} characters, seed {result.seed}, {result.pages} pages: "
                    f"{name}"]


def kit(source: Path, out: Path, renderer, request, log) -> tuple[list[str], list[str]]:
    from printshop.products.characters.kit import build_kit, envelope_lines, prepare_kit, write_kit
    from printshop.project import Project

    project = Project.load(source)
    product, ctx = prepare_kit(project, request, progress=log)
    renderer.new_build()
    built = build_kit(product, ctx, renderer)
    for name in built.files:
        inside(out, name)
    write_kit(built, out)
    files = [f"{built.name}.pdf"] + [e["file"] for e in built.kit["envelopes"]]
    files += [f"{built.name}/kit.json", f"{built.name}/manifest-entry.yaml"]
    return files, [line.replace(f"{out}/", "") for line in envelope_lines(built, out)]


class FormJobs:
    """The build service's queue of the form page's jobs (serve/service.py mixes it in): a
    job waits for the build thread, which runs it on the warm workers before a rebuild."""

    MAX_JOBS_SHOWN = 20
    # what the build service it is mixed into has (serve/service.py)
    source: Path
    out: Path
    log: Callable[[str], None]
    state: State
    changed: threading.Condition
    _renderer: Renderer | None
    _queued: list[dict]
    _lines: Callable[[Any, Any], list[str]]
    _say: Callable[[Any, Any], bool]

    def submit(self, kind: str, request) -> int | None:
        """Queue a pack or a kit for the build thread (it uses the warm workers); its id, or
        None while another is waiting or running (one at a time)."""
        with self.changed:
            if self._queued or any(j["status"] in ("queued", "running")
                                   for j in self.state.jobs):
                return None
            number = 1 + max((j["id"] for j in self.state.jobs), default=0)
            job = {"id": number, "kind": kind, "status": "queued", "files": [], "lines": [],
                   "problems": []}
            self.state.jobs = (self.state.jobs + [job])[-self.MAX_JOBS_SHOWN:]
            self._queued.append({"id": number, "kind": kind, "request": request})
            self.state.build += 1
            self.changed.notify_all()
        return number

    def _job_update(self, number: int, **changes) -> None:
        with self.changed:
            self.state.jobs = [{**j, **changes} if j["id"] == number else j
                               for j in self.state.jobs]
            self.state.build += 1
            self.changed.notify_all()

    def _run_job(self, job: dict) -> None:
        from printshop.errors import PrintshopError

        self._job_update(job["id"], status="running")
        self.log(f"printshop: the form page asked for a {job['kind']}")
        try:
            make = pack if job["kind"] == "pack" else kit
            files, lines = make(self.source, self.out, self._renderer, job["request"],
                                lambda m: self.log(f"printshop: {m}"))
        except PrintshopError as exc:
            self._say(exc.problems, exc.warnings)
            self._job_update(job["id"], status="failed",
                             problems=self._lines(exc.problems, exc.warnings))
            return
        except Exception as exc:   # a bug: keep serving, say so
            self.log(traceback.format_exc())
            self._job_update(job["id"], status="failed", problems=[_internal(exc)])
            return
        for line in lines:
            self.log(f"printshop: {line}")
        self._job_update(job["id"], status="done", files=files, lines=lines)


def _internal(exc: BaseException) -> str:
    from printshop.serve.state import internal_error

    return internal_error(exc)
