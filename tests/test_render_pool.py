import os
import signal
import time
from pathlib import Path

import pytest

from printshop.render.pool.pool import TaskFailed, WorkerPool


def square(x):
    return x * x


def sleepy(seconds):
    time.sleep(seconds)
    return seconds


def suicide(_):
    os.kill(os.getpid(), signal.SIGKILL)


def hog(_):
    blocks = []
    while True:
        blocks.append(bytearray(50_000_000))


def deep(_):
    def recurse(n):
        return recurse(n + 1)
    return recurse(0)


def test_results_come_back_in_order():
    with WorkerPool(square, processes=2) as pool:
        done = []
        assert pool.map(list(range(10)), on_done=lambda i, v: done.append(i)) == \
            [i * i for i in range(10)]
        assert sorted(done) == list(range(10))


def started_at(_):
    return time.monotonic()


def test_a_freed_worker_gets_its_next_task_before_the_caller_handles_the_result():
    """The caller's work on a result (a pack joins its chunks as they come) must not keep a
    worker waiting: the next task is sent first."""
    handled = {}

    def on_done(index, _):
        handled[index] = time.monotonic()
        time.sleep(0.3)

    with WorkerPool(started_at, processes=1) as pool:
        starts = pool.map([0, 1, 2], on_done=on_done)
    assert sorted(handled) == [0, 1, 2]
    # task n+1 started before the caller had finished with result n (0.3 s of it)
    assert starts[1] < handled[0] + 0.3 and starts[2] < handled[1] + 0.3


def fail_on_negative(x):
    if x < 0:
        raise ValueError("negative")
    time.sleep(0.05)
    return x * x


def test_callers_on_several_threads_share_the_workers_each_getting_its_own_results():
    """A build renders its products on threads of their own: each map gets its results in
    order, its on_done runs in its own thread, and one caller's failing task fails only
    that caller."""
    import threading

    outcome, done_in = {}, {}

    def caller(name, payloads):
        me = threading.get_ident()
        done_in[name] = set()
        try:
            outcome[name] = pool.map(payloads, on_done=lambda i, v: done_in[name].add(
                threading.get_ident() == me))
        except TaskFailed as failed:
            outcome[name] = failed

    with WorkerPool(fail_on_negative, processes=2) as pool:
        threads = [threading.Thread(target=caller, args=(name, payloads)) for name, payloads
                   in (("a", list(range(12))), ("b", list(range(20, 30))),
                       ("c", [1, 2, -1, 3]), ("d", list(range(40, 46))))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert outcome["a"] == [x * x for x in range(12)]
        assert outcome["b"] == [x * x for x in range(20, 30)]
        assert outcome["d"] == [x * x for x in range(40, 46)]
        assert isinstance(outcome["c"], TaskFailed) and "negative" in outcome["c"].detail
        assert done_in["a"] == done_in["b"] == done_in["d"] == {True}
        assert pool.map([5]) == [25]       # and the pool goes on


class Growing:
    """A queue to which results add tasks (as card fitting adds probes)."""

    def __init__(self, first: list[int]):
        self.items = list(first)
        self.next = 0

    def take(self):
        if self.next >= len(self.items):
            return None
        self.next += 1
        return self.next - 1, self.items[self.next - 1]

    def prepare(self):
        pass


def test_tasks_added_by_results_are_never_lost_whatever_thread_hands_them_out():
    """Three callers whose results add more tasks, on two workers: every caller gets every
    task it added (a task added just as the pump found the queue empty once went unrun)."""
    import threading

    got = {}

    def caller(name):
        queue = Growing(list(range(6)))
        seen = []

        def done(index, value):
            seen.append(value)
            if value < 6:
                queue.items.append(value + 100)    # a follow-up
        pool.run(queue, done)
        got[name] = sorted(seen)

    with WorkerPool(square_root_ish, processes=2) as pool:
        for _ in range(3):
            threads = [threading.Thread(target=caller, args=(n,)) for n in "abc"]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            assert got == {n: list(range(6)) + list(range(100, 106)) for n in "abc"}


def test_tasks_added_after_every_worker_was_lost_still_run():
    """A queue that was dry when the pool lost its workers (killed, say) and then gets a
    task from a result: new workers are started for it, rather than the task left unrun."""
    queue = Growing([1])
    seen = []

    def done(index, value):
        seen.append(value)
        if value == 1:
            pool.kill()                 # every worker gone while the queue is dry
            queue.items.append(2)

    with WorkerPool(square_root_ish, processes=1) as pool:
        pool.run(queue, done)
    assert seen == [1, 2]


def square_root_ish(x):
    return x      # as fast as a task can be: the races are in the handing out


def test_workers_are_let_go_early_only_when_no_other_caller_is_rendering():
    """A pack gives its workers' memory back before its merge (close_if_idle); in a build
    whose other product is rendering on another thread, that must not stop its tasks."""
    import threading

    with WorkerPool(sleepy, processes=2) as pool:
        outcome = {}
        other = threading.Thread(target=lambda: outcome.setdefault(
            "other", pool.map([0.3, 0.3, 0.3])))
        other.start()
        time.sleep(0.1)
        assert pool.close_if_idle() is False
        other.join(30)
        assert outcome["other"] == [0.3, 0.3, 0.3]
        assert pool.close_if_idle() is True and pool.workers == []
        assert pool.map([0.01]) == [0.01]    # fresh workers for the next render


def test_a_task_over_its_time_limit_is_killed():
    started = time.monotonic()
    with WorkerPool(sleepy, processes=1, timeout=1) as pool:
        with pytest.raises(TaskFailed) as exc:
            pool.map([30])
    assert exc.value.reason == "timeout"
    assert time.monotonic() - started < 10


def test_a_killed_worker_is_noticed_at_once():
    started = time.monotonic()
    with WorkerPool(suicide, processes=1, timeout=60) as pool:
        with pytest.raises(TaskFailed) as exc:
            pool.map([1])
    assert exc.value.reason == "died"
    assert time.monotonic() - started < 10


def test_memory_limit_turns_into_a_clear_failure():
    with WorkerPool(hog, processes=1, timeout=60, memory_mb=400) as pool:
        with pytest.raises(TaskFailed) as exc:
            pool.map([1])
    assert exc.value.reason in ("error", "died")
    if exc.value.reason == "error":
        assert "out of memory" in exc.value.detail


def test_runaway_recursion_is_reported():
    with WorkerPool(deep, processes=1, timeout=60) as pool:
        with pytest.raises(TaskFailed) as exc:
            pool.map([1])
    assert "nesting too deep" in exc.value.detail


warmed = []


def note_warm_up():
    warmed.append(os.getpid())
    raise RuntimeError("a failing warm-up is left for the first job to report")


def test_workers_warm_up_when_they_start_and_a_failure_there_is_not_fatal():
    with WorkerPool(lambda x: (x, len(warmed)), processes=1, warm_up=note_warm_up) as pool:
        assert pool.map([7]) == [(7, 1)]       # the warm-up ran in the worker, before the job


def test_a_worker_killed_while_idle_is_reported_as_died():
    with WorkerPool(square, processes=1) as pool:
        pool.start()
        os.kill(pool.workers[0].process.pid, signal.SIGKILL)
        time.sleep(0.2)
        with pytest.raises(TaskFailed) as failed:
            pool.map([3])
        assert failed.value.reason == "died"


# A worker freezes what it holds for its life (gc.freeze) so that the collection after each
# job does not walk it again; what a job leaves behind must stay collectable.

class Node:
    pass


state: dict = {}


def warm_up_with_a_cycle():
    state["warm"] = node = Node()
    node.me = node


def keep_and_drop(action):
    """'keep': a job keeps a cycle (a build's stylesheet cache); 'drop': a later job drops
    it (the next build); 'check': was it freed, and is the warm-up's frozen?"""
    import gc
    import weakref

    if action == "keep":
        state["cache"] = node = Node()
        node.me = node
        state["ref"] = weakref.ref(node)
        return None
    if action == "drop":
        del state["cache"]
        return None
    warm = state["warm"]
    return (state["ref"]() is None, gc.get_freeze_count() > 0, gc.is_tracked(warm),
            any(o is warm for o in gc.get_objects()))


def test_a_worker_freezes_its_warm_up_and_still_frees_what_a_job_kept_and_dropped():
    with WorkerPool(keep_and_drop, processes=1, warm_up=warm_up_with_a_cycle) as pool:
        freed, frozen_some, tracked, walked = pool.map(["keep", "drop", "check"])[2]
    assert freed                 # not frozen: collected after the job that dropped it
    assert frozen_some
    assert tracked and not walked  # the warm-up's object: out of every collected generation


# After a job, one collection walks what the job made: sending its result (pickling allocates)
# must not set off an automatic one first, which walked every young object as long again.

def make_young_objects_then_report(action):
    import gc

    if action == "make":
        state["young"] = [[i] for i in range(200_000)]    # (a kept layout's boxes, say)
        state["log"] = log = []
        gc.callbacks.append(lambda phase, info: log.append((phase, info["generation"])))
        return [(i, str(i)) for i in range(5_000)]         # its pickling allocates
    return [generation for phase, generation in state["log"] if phase == "start"]


def test_a_worker_collects_once_after_a_job_not_while_it_sends_the_result():
    with WorkerPool(make_young_objects_then_report, processes=1) as pool:
        collections = pool.map(["make", "report"])[1]
    assert collections[0] == 2    # the full collection after the job, and nothing before it


# A job that keeps a layout for a later one (render/weasy/resume.py) has it frozen without a
# collection walking it first; what it left in cycles is freed when the layouts are thawed.

def keep_then_thaw(action):
    import gc
    import weakref

    from printshop.render.pool import workers

    if action == "keep":
        state["kept"] = [[i] for i in range(100_000)]      # (a kept layout's boxes)
        garbage = Node()
        garbage.me = garbage                                # left in a cycle by the job
        state["garbage"] = weakref.ref(garbage)
        del garbage
        state["log"] = log = []
        gc.callbacks.append(lambda phase, info: log.append((phase, info["generation"])))
        workers.after_job("freeze")
        return None
    if action == "thaw":
        collected = [g for phase, g in state["log"] if phase == "start"]
        del state["kept"]
        workers.after_job("thaw")
        return collected, state["garbage"]() is None
    return state["garbage"]() is None


def test_a_kept_layout_is_frozen_without_a_collection_and_its_garbage_freed_at_the_thaw():
    with WorkerPool(keep_then_thaw, processes=1) as pool:
        _, (collected, freed_before), freed_after = pool.map(["keep", "thaw", "check"])
    assert 2 not in collected           # nothing walked the kept layout after its job
    assert not freed_before and freed_after


# With `preload`, the first worker imports what all need once and forks the others.

def preload_note():
    state["preloaded_in"] = os.getpid()


def where_preloaded(_):
    return os.getpid(), os.getppid(), state.get("preloaded_in")


def test_the_first_worker_preloads_once_and_forks_the_others():
    with WorkerPool(where_preloaded, processes=2, preload=preload_note) as pool:
        results = pool.map([1, 2, 3, 4])
        first = pool.workers[0].process.pid
        pids = {pid for pid, _, _ in results}
        assert all(preloaded == first for _, _, preloaded in results)  # in the first only
        assert pids <= {first, pool.workers[1].process.pid}
        second = pool.workers[1].process.pid
        assert second not in (None, first, os.getpid())
        assert {ppid for pid, ppid, _ in results if pid == second} <= {first}


def test_a_forked_worker_that_dies_or_overruns_is_noticed_and_killed():
    with WorkerPool(sleepy, processes=2, timeout=1, preload=lambda: None) as pool:
        pool.map([0, 0])    # both have started (and sent their pids)
        pids = [worker.process.pid for worker in pool.workers]
        started = time.monotonic()
        with pytest.raises(TaskFailed) as exc:
            pool.map([0, 30])
        assert exc.value.reason == "timeout" and time.monotonic() - started < 10
    assert pool.workers == []
    for pid in pids:    # both end (the forked one may wait, a zombie, for its reaper)
        assert ended(pid)


def ended(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if "zombie" in Path(f"/proc/{pid}/status").read_text():
                return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_a_forked_worker_killed_in_a_task_is_noticed_at_once():
    with WorkerPool(suicide, processes=2, timeout=60, preload=lambda: None) as pool:
        with pytest.raises(TaskFailed) as exc:
            pool.map([1, 2])
        assert exc.value.reason == "died"


class Pinned:
    """A task for one worker (a book part whose first layout that worker keeps)."""

    def __init__(self, worker: int, seconds: float = 0.0):
        self.worker, self.seconds = worker, seconds


def where(task):
    time.sleep(getattr(task, "seconds", 0))
    return os.getpid()


def test_a_task_for_one_worker_waits_for_it_and_the_others_take_the_rest():
    with WorkerPool(where, processes=2) as pool:
        pids = set(pool.map([Pinned(0, 0.3), Pinned(0, 0.3)]))
        assert len(pids) == 2
        mine, other = sorted(pids)
        # four tasks for `mine` first, then free ones: `other` takes only free ones, and
        # `mine` does all of its own (never more than two left for it when `other` asks)
        tasks = [Pinned(mine, 0.05) for _ in range(4)] + [Pinned(0, 0.05) for _ in range(4)]
        ran = pool.map(tasks)
        assert ran[:4] == [mine] * 4
        assert other in ran[4:]


def test_an_idle_worker_takes_the_last_of_many_tasks_left_for_a_busy_one():
    # the guide's finishing: most parts were laid out by one worker, which keeps them; the
    # other, idle, lays the shortest ones out afresh rather than wait
    with WorkerPool(where, processes=2) as pool:
        mine, other = sorted(set(pool.map([Pinned(0, 0.3), Pinned(0, 0.3)])))
        ran = pool.map([Pinned(mine, 0.2) for _ in range(8)])
    assert ran[0] == mine and ran[-1] == other
    assert 2 <= ran.count(other) <= 5 and ran[:2] == [mine, mine]


def test_a_task_for_a_worker_that_is_gone_is_taken_by_any_other():
    with WorkerPool(where, processes=2) as pool:
        ran = pool.map([Pinned(999_999_999), Pinned(999_999_999)])
        assert all(ran)


_KEPT = []


def keeper(task):
    """A worker's job that keeps things for later jobs (as render/weasy/resume.py keeps a book
    part's layout) or says how many objects its collections skip."""
    import gc

    from printshop.render.pool import workers

    if task == "keep":
        for _ in range(20_000):
            node = {"self": None}
            node["self"] = node          # in a cycle: only a collection frees it
            _KEPT.append(node)
        workers.after_job("freeze")
    elif task == "drop":
        _KEPT.clear()
        workers.after_job("thaw")
    return gc.get_freeze_count()


def test_what_a_job_keeps_is_frozen_after_it_and_thawed_and_freed_when_dropped():
    with WorkerPool(keeper, processes=1) as pool:
        before, kept, later, dropped, after = pool.map(
            ["count", "keep", "count", "drop", "count"])
    assert later >= before + 20_000          # kept: not walked by later collections
    assert after < later - 19_000            # dropped: its cycles were collected
