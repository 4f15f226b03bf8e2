"""Progress: a bar with a count and an estimate on a terminal, plain lines now and then when
the output is not a terminal, nothing under -q."""

from __future__ import annotations

import io

import pytest

from conftest import RULES_SRC, run_cli
from printshop import progress as progress_module
from printshop.cli import progress as cli_progress
from printshop.progress import Counter


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    return clock


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_plain_lines_are_quiet_for_quick_work(clock):
    said = []
    counter = Counter(said.append, "pack: rendering", 10, "sheets")
    clock.now += 1.0
    counter.update(10)
    assert said == []


def test_plain_lines_every_few_seconds_with_an_estimate_and_one_at_the_end(clock):
    said = []
    counter = Counter(said.append, "pack: rendering", 100, "sheets")
    for done in range(10, 101, 10):
        clock.now += 1.5
        counter.update(done)
    assert said == ["pack: rendering: 40/100 sheets (6 s, about 9 s to go)",
                    "pack: rendering: 80/100 sheets (12 s, about 3 s to go)",
                    "pack: rendering: 100/100 sheets (15 s)"]


def test_a_terminal_is_told_every_step_once_the_work_is_slow(clock):
    told = []

    class Live:
        def __call__(self, message):
            told.append(message)

        def count(self, task, done, total, unit, seconds):
            told.append((task, done, total, unit, round(seconds, 1)))

    counter = Counter(Live(), "book: setting the pages", 4, "parts")
    clock.now += 1.0
    counter.update(step=1)            # quick so far: no bar
    clock.now += 1.5
    counter.update(step=1)
    counter.update(step=1)
    assert told == [("book: setting the pages", 2, 4, "parts", 2.5),
                    ("book: setting the pages", 3, 4, "parts", 2.5)]


def test_the_terminal_bar_has_a_count_and_an_estimate_and_ends_in_one_line():
    stream = Tty()
    live = cli_progress.TerminalProgress(stream)
    live("pack: rendering 60 sheets in 10 chunks")
    live.count("pack: rendering", 20, 60, "sheets", 4.0)
    live.count("pack: rendering", 30, 60, "sheets", 6.0)
    text = stream.getvalue()
    bar = text.rsplit("\r", 1)[1]
    assert bar.startswith("printshop: pack: rendering sheets  [") and "30/60" in bar
    assert "00:00:0" in bar          # about 6 s to go
    live("pack: a message")         # said above the bar, which is drawn again
    assert "\r\x1b[Kprintshop: pack: a message\n\rprintshop: pack: rendering" in \
        stream.getvalue()
    live.count("pack: rendering", 60, 60, "sheets", 12.0)
    assert stream.getvalue().endswith("\r\x1b[Kprintshop: pack: rendering: 60/60 sheets in "
                                      "12.0 s\n")
    assert live.bars == {}


def test_a_bar_only_on_a_terminal_and_nothing_under_quiet(monkeypatch):
    with cli_progress.progress_reporter(quiet=True) as said:
        assert said is None
    with cli_progress.progress_reporter(stream=io.StringIO()) as said:
        assert type(said) is cli_progress.PlainProgress
    with cli_progress.progress_reporter(stream=Tty()) as said:
        assert isinstance(said, cli_progress.TerminalProgress)
    monkeypatch.setenv("TERM", "dumb")
    with cli_progress.progress_reporter(stream=Tty()) as said:
        assert type(said) is cli_progress.PlainProgress


def test_a_pack_shows_its_bar_on_a_terminal(tmp_path, monkeypatch):
    from printshop.products.characters import pregens

    monkeypatch.setattr(cli_progress, "_interactive", lambda stream: True)
    monkeypatch.setattr(pregens, "PROGRESS_AFTER_S", 0)
    result = run_cli("roll", "characters", "--count", "4", "--seed", "bar", "--source",
                     RULES_SRC, "--out", tmp_path / "pack.pdf")
    assert result.exit_code == 0, result.output
    assert "printshop: characters: rendering sheets  [" in result.output
    assert "printshop: characters: rendering: 4/4 sheets in " in result.output
    # -q: nothing but problems (the rolling is counted too, and says nothing)
    quiet = run_cli("roll", "characters", "--count", "200", "--seed", "bar", "--source",
                    RULES_SRC, "--format", "json", "--out", tmp_path / "quiet.json", "-q")
    assert quiet.exit_code == 0 and quiet.output == ""
    loud = run_cli("roll", "characters", "--count", "200", "--seed", "bar", "--source",
                   RULES_SRC, "--format", "json", "--out", tmp_path / "loud.json")
    assert "printshop: characters: rolling: 200/200 characters in " in loud.output
