"""The renderer's worker processes."""

from __future__ import annotations

from printshop.render.pdf import Renderer, RenderJob

from conftest import RULES_SRC


def job(text: str) -> RenderJob:
    return RenderJob(html=f"<p>{text}</p>", stylesheets=(), roots=(str(RULES_SRC),),
                     base_url=RULES_SRC.as_uri() + "/", source="test")


def test_release_stops_the_workers_and_the_next_render_starts_new_ones():
    with Renderer(processes=1) as renderer:
        first, = renderer.render([job("one")])
        pid = renderer.pool.workers[0].process.pid
        renderer.release()
        assert renderer.pool.workers == []
        second, = renderer.render([job("two")])
        assert first.pages == second.pages == 1
        assert renderer.pool.workers[0].process.pid != pid
