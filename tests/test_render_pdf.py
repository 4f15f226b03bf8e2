"""Rendering a job in a worker: its fonts, its process state."""

from __future__ import annotations

import tempfile

from conftest import RULES_SRC
from printshop.render.job import RenderJob, Stylesheet
from printshop.render.renderer import Renderer
from printshop.resources import TEMPLATES_DIR


def job(text: str) -> RenderJob:
    return RenderJob(html=f"<p>{text}</p>", stylesheets=(), roots=(str(RULES_SRC),),
                     base_url=RULES_SRC.as_uri() + "/", source="test")


def test_workers_leave_no_font_files_in_the_temporary_folder(tmp_path, monkeypatch):
    # @font-face files are copied into a folder WeasyPrint only removes when its font
    # configuration is garbage-collected, which never happens to a worker's: every build
    # used to leave a few MB per worker behind in /tmp.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))
    with Renderer(processes=2) as renderer:
        first, second = renderer.render([
            RenderJob(html=f'<p style="font-family: Vollkorn">{text}</p>',
                      stylesheets=(fonts,), roots=(str(TEMPLATES_DIR),),
                      base_url=TEMPLATES_DIR.as_uri() + "/", source="test")
            for text in ("one", "two")])
        assert first.pages == second.pages == 1
        folders = [p for p in tmp_path.iterdir() if "fontconfig" not in p.name]
        assert folders, "the workers keep their font files while they live"
    assert [p.name for p in tmp_path.iterdir() if "fontconfig" not in p.name] == []


def test_a_forked_worker_starts_without_its_parents_fonts_and_stylesheets():
    # two workers forked from a process that had rendered shared its font configuration,
    # and so its folder of @font-face files: one rewriting a file the other had mapped
    # killed it with SIGBUS (seen in the test suite)
    import os

    from printshop.render import job as pdf
    from printshop.render.job import render_job

    render_job(job("in the parent"))
    assert pdf._process_state.get("fonts")
    child = os.fork()
    if child == 0:
        os._exit(0 if pdf._process_state == {} else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert pdf._process_state.get("fonts")      # the parent keeps its own


def test_a_killed_workers_font_folder_goes_with_the_next_worker(tmp_path, monkeypatch):
    # a worker killed (over its time, serve stopped) runs no finaliser: its folder, named
    # with its process id, is removed by the next process that makes one
    import os
    import subprocess
    import sys

    from printshop.render.weasy.font_folder import (
        FONT_FOLDER_PREFIX,
        remove_folders_of_ended_processes,
    )

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    gone = tmp_path / f"{FONT_FOLDER_PREFIX}{ended}-abc"
    alive = tmp_path / f"{FONT_FOLDER_PREFIX}{os.getpid()}-def"
    other = tmp_path / "printshop-fontconfig-0-123"
    for folder in (gone, alive, other):
        folder.mkdir()
        (folder / "font").write_bytes(b"x")
    assert remove_folders_of_ended_processes(tmp_path) == [gone]
    assert not gone.exists() and alive.exists() and other.exists()


def test_a_stylesheet_shared_by_jobs_is_parsed_once_with_its_warnings(tmp_path, monkeypatch):
    # the book's parts share the book's sheets, each with a rule of its own added
    import weasyprint

    from printshop.render import job as pdf

    sheet = tmp_path / "book.css"
    sheet.write_text("p { color: red; colour: blue }\n")
    parsed = []
    real = weasyprint.CSS

    def counting(*args, **kwargs):
        parsed.append(kwargs.get("filename") or kwargs.get("string"))
        return real(*args, **kwargs)

    monkeypatch.setattr(weasyprint, "CSS", counting)
    shared = Stylesheet(path=str(sheet))
    results = [pdf.render_job(RenderJob(
        html="<p>text</p>", stylesheets=(shared, Stylesheet(text=f"p {{ margin: {n}px }}")),
        roots=(str(tmp_path),), base_url=tmp_path.as_uri() + "/", source="test"))
        for n in (1, 2)]
    assert parsed.count(str(sheet)) == 1 and len(parsed) == 3
    for result in results:
        assert [w.message for w in result.warnings if "colour" in w.message]
        assert str(sheet) in result.read


def test_a_worker_whose_font_files_were_removed_makes_them_again():
    # a temporary folder cleaned under a long-lived `serve` (or another test's folder)
    import shutil

    from printshop.render import job as pdf

    fonts = Stylesheet(path=str(TEMPLATES_DIR / "css" / "fonts.css"))

    def render(text, epoch):     # a new epoch: a new build, its stylesheets read again
        return pdf.render_job(RenderJob(html=f'<p style="font-family: Vollkorn">{text}</p>',
                                        stylesheets=(fonts,), roots=(str(TEMPLATES_DIR),),
                                        base_url=TEMPLATES_DIR.as_uri() + "/",
                                        source="test", epoch=epoch))

    first = render("before", 101)
    config, = [c for c in pdf._process_state["fonts"].values()
               if getattr(c, "_folder", None) is not None]
    shutil.rmtree(config._folder)
    second = render("after", 102)
    assert second.pages == first.pages == 1 and not second.warnings
    assert "Vollkorn" in second.fonts
