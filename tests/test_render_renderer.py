"""The renderer: worker processes started, stopped, and jobs handed over to render while
workers would wait."""

from __future__ import annotations

from conftest import RULES_SRC
from printshop.render.job import RenderJob
from printshop.render.renderer import Renderer


def job(text: str) -> RenderJob:
    return RenderJob(html=f"<p>{text}</p>", stylesheets=(), roots=(str(RULES_SRC),),
                     base_url=RULES_SRC.as_uri() + "/", source="test")


def takes(monkeypatch) -> list[tuple[bool, int]]:
    """(whether its batch was handed over as idle, its index) of each task a worker takes, in
    the order taken."""
    from printshop.render.pool import batches

    taken: list[tuple[bool, int]] = []
    take = batches.Batch.take

    def logged(self, *args):
        item = take(self, *args)
        if item is not None:
            taken.append((self.priority is not None, item[0]))
        return item

    monkeypatch.setattr(batches.Batch, "take", logged)
    return taken


def test_release_stops_the_workers_and_the_next_render_starts_new_ones():
    with Renderer(processes=1) as renderer:
        first, = renderer.render([job("one")])
        pid = renderer.pool.workers[0].process.pid
        renderer.release()
        assert renderer.pool.workers == []
        second, = renderer.render([job("two")])
        assert first.pages == second.pages == 1
        assert renderer.pool.workers[0].process.pid != pid


def test_a_job_handed_over_early_renders_when_a_worker_would_wait(monkeypatch):
    # the book's blank sheet is rendered while a core would otherwise wait for the longest
    # part, not after the book's parts on its own, and never before a task of the book's
    taken = takes(monkeypatch)
    with Renderer(processes=1) as renderer:
        renderer.pool.start()
        rider = job("the sheet")
        renderer.also(rider)
        parts = renderer.render([job(f"part {n} of the book") for n in range(3)])
        sheet, = renderer.render([rider])      # taken as it was rendered, not again
        assert taken[0] == (False, 0)          # handed over after the parts: none waited
        assert [p.pages for p in parts] == [1, 1, 1] and sheet.pages == 1
        assert b"%PDF" in sheet.pdf[:8]
        assert taken.count((True, 0)) == 1
        renderer.render([rider])               # once taken, it renders like any job
        assert taken[-1] == (False, 0)
        renderer.also(job("never asked for"))
        assert renderer.render([job("a card")])[0].pages == 1    # (nothing waits for it)


def test_a_job_handed_over_early_goes_first_once_asked_for(monkeypatch):
    # asked for while another caller keeps the workers busy (a kit's pack), it is rendered
    # next, not behind all of their jobs
    taken = takes(monkeypatch)
    with Renderer(processes=1) as renderer:
        rider = job("the sheet")
        busy = renderer.in_background([job(f"a card sheet {n}") for n in range(20)])
        renderer.also(rider)
        book = renderer.in_background([job("a part of the book")])   # hands the rider over
        sheet, = renderer.render([rider])
        assert sheet.pages == 1
        assert len(busy.result()) == 20 and len(book.result()) == 1
        assert [idle for idle, _ in taken].index(True) < 19


def test_the_same_job_twice_in_a_list_is_rendered_once():
    # a deck's backs are the same page on every full sheet
    with Renderer(processes=1) as renderer:
        done = []
        first, second, other = renderer.render([job("a back"), job("a back"), job("a front")],
                                               on_done=lambda i, r: done.append(i))
        assert first is second and other is not first
        assert sorted(done) == [0, 1, 2]


def test_jobs_rendered_in_the_background_while_the_caller_renders_others():
    # a pack's cover renders while the pack prepares its sheets' forms
    import io

    from pypdf import PdfReader

    with Renderer(processes=2) as renderer:
        background = renderer.in_background([job("the cover"), job("an index page")])
        form, = renderer.render([job("a form")])      # waits its turn, then renders
        cover, index = background.result()
        texts = [PdfReader(io.BytesIO(r.pdf)).pages[0].extract_text()
                 for r in (cover, index, form)]
        assert texts == ["the cover", "an index page", "a form"]


def test_a_background_render_is_listed_before_the_caller_goes_on(monkeypatch):
    """Its jobs come before those its starter asks for next: left to list them on its own
    while the starter worked, the thread took 0.4 s (the pack's forms went first)."""
    import time

    from printshop.render.pool.pool import WorkerPool

    real_run = WorkerPool.run

    def slow_to_list(self, *args, **kwargs):
        time.sleep(0.3)     # a thread held back (the interpreter lock, say)
        return real_run(self, *args, **kwargs)

    monkeypatch.setattr(WorkerPool, "run", slow_to_list)
    with Renderer(processes=1) as renderer:
        background = renderer.in_background([job("the cover")])
        assert len(renderer.pool._batches) == 1      # listed: the next render comes after
        renderer.render([job("a form")])
        assert len(background.result()) == 1


def test_a_background_render_that_fails_raises_where_its_result_is_asked_for():
    import pytest

    from printshop.errors import PrintshopError

    with Renderer(processes=1, timeout=0.001) as renderer:   # no job can be that quick
        background = renderer.in_background([job("x")])
        with pytest.raises(PrintshopError) as failed:
            background.result()
        assert "timed out" in str(failed.value.problems[0].message)


# --- a queue that grows while it renders (render/queue.py) ---------------------------------

def test_jobs_added_as_results_come_in_urgent_ones_first_identical_ones_once():
    # card fitting: a probe follows the sheet that overflowed, before the other sheets
    from printshop.render.queue import RenderQueue

    with Renderer(processes=1) as renderer:
        queue = RenderQueue()
        made = []

        def lazily(text):
            def make():
                made.append(text)
                return job(text)
            return make

        for text in ("first", "second", "third"):
            queue.add(lazily(text), text)
        order = []

        def done(tag, result):
            order.append(tag)
            if tag == "first":      # follow-ups: one urgent, one the same as a queued job
                queue.add(lazily("follow-up"), "follow-up", urgent=True)
                queue.add(job("third"), "third again")
        renderer.run(queue, done)
        assert order == ["first", "follow-up", "second", "third", "third again"]
        # each job made when a worker was about to take it, the next one ahead of it
        assert made == ["first", "second", "follow-up", "third"]


def test_a_queue_job_that_fails_is_a_clear_error_naming_it():
    import pytest

    from printshop.errors import PrintshopError
    from printshop.render.queue import RenderQueue

    with Renderer(processes=1, timeout=0.001) as renderer:
        queue = RenderQueue()
        queue.add(job("x"), "x")
        with pytest.raises(PrintshopError) as failed:
            renderer.run(queue, lambda tag, result: None)
        assert "timed out" in failed.value.problems[0].message


def test_work_while_idle_renders_behind_the_callers_jobs_and_gives_its_result(monkeypatch):
    # the book's HTML edition is composed while the PDF renders: the fillable sheet it
    # links renders when a worker would wait, and its result is there when asked for
    taken = takes(monkeypatch)
    with Renderer(processes=1) as renderer:
        renderer.pool.start()
        book = renderer.in_background([job(f"part {n}") for n in range(4)])
        edition = renderer.while_idle(lambda: renderer.render([job("the sheet")])[0].pages)
        assert len(book.result()) == 4
        assert edition.result() == 1
        assert [idle for idle, _ in taken] == [False] * 4 + [True]


def test_work_while_idle_starts_once_the_callers_jobs_are_handed_out():
    # its turns with the interpreter held up the book's first jobs while the parent made
    # them (~0.1 s): it starts when the parent only waits for the workers
    import threading
    import time

    started = threading.Event()
    with Renderer(processes=1) as renderer:
        renderer.pool.start()
        edition = renderer.while_idle(lambda: started.set() or "composed")
        time.sleep(0.3)
        assert not started.is_set()           # nothing rendered yet: the caller still works
        assert len(renderer.render([job("part 1"), job("part 2")])) == 2
        assert started.wait(5)                # began while the caller waited on the parts
        assert edition.result() == "composed"
    with Renderer(processes=1) as renderer:   # nothing rendered before it is asked for
        assert renderer.while_idle(lambda: "composed").result() == "composed"


def test_a_job_handed_over_now_renders_while_the_caller_is_busy_elsewhere(monkeypatch):
    # the book's blank sheet is drawn while the book is composed, before its parts are made
    import time

    taken = takes(monkeypatch)
    with Renderer(processes=1) as renderer:
        renderer.pool.start()
        rider = job("the sheet")
        renderer.also(rider, now=True)
        time.sleep(1.0)                       # (composing the book: no render asked for)
        assert taken == [(True, 0)]
        parts = renderer.render([job("part 1")])
        sheet, = renderer.render([rider])     # taken as it was rendered, not again
        assert taken == [(True, 0), (False, 0)]
        assert parts[0].pages == sheet.pages == 1


def test_work_while_idle_that_fails_raises_where_its_result_is_asked_for():
    with Renderer(processes=1) as renderer:
        def compose():
            raise ValueError("a broken template")

        work = renderer.while_idle(compose)
        try:
            work.result()
        except ValueError as error:
            assert "broken template" in str(error)
        else:
            raise AssertionError("the error was lost")


def test_work_while_idle_in_a_serial_build_runs_where_its_result_is_asked_for(monkeypatch):
    # --serial is for a debugger: one thing at a time, in order, no thread of its own
    import threading

    monkeypatch.setenv("PRINTSHOP_SERIAL", "1")
    ran = []
    with Renderer(processes=1) as renderer:
        work = renderer.while_idle(lambda: ran.append(threading.current_thread()) or
                                   renderer.render([job("the sheet")])[0].pages)
        assert ran == []
        assert work.result() == 1 and ran == [threading.current_thread()]
        assert work.result() == 1 and len(ran) == 1
