"""Every example in `--help` can be pasted as it is (the explanation after `#`) and works:
in a project made by `printshop new`, or, where the help says so, in a game with character
classes (a copy of rules-src/).

Every example is parsed as the command line reads it. Every example for a `printshop new`
project is run (`serve` runs until stopped: parsed only). Of the examples for a game with
character classes, each command's cheapest ones are run (a pack of a few sheets, JSON); the
others roll and render dozens of sheets, which the tests of those commands cover."""

from __future__ import annotations

import shlex
import shutil

import click
import pytest

from conftest import RULES_SRC, run_cli
from printshop.cli import cli
from printshop.scaffold import new_project


def commands(group=cli, path=()):
    yield path, group
    if isinstance(group, click.Group):
        for name, command in group.commands.items():
            yield from commands(command, path + (name,))


def examples() -> list[tuple[str, str, list[str]]]:
    """(command, where, argv) of every example line: where is "new" (a printshop new
    project) or "game" (rules-src)."""
    found = []
    for path, command in commands():
        where = "new"
        for line in (command.epilog or "").splitlines():
            text = line.strip()
            if text.endswith(":") or "(in a game with" in text or "Examples (" in text:
                where = "game" if "in a game with" in text else "new"
            if text.startswith("printshop "):
                argv = shlex.split(text, comments=True)
                found.append((" ".join(path) or "printshop", where, argv[1:]))
    return found


EXAMPLES = examples()


def test_every_command_has_examples():
    with_examples = {name for name, _, _ in EXAMPLES}
    for path, _ in commands():
        assert (" ".join(path) or "printshop") in with_examples, path


@pytest.mark.parametrize("name, where, argv", EXAMPLES,
                         ids=[" ".join(a) for _, _, a in EXAMPLES])
def test_every_example_parses(name, where, argv):
    """Options, choices and ranges as the command line reads them (no unknown option, no
    explanation read as an argument)."""
    if argv in (["--help"], ["--version"]):
        return
    command, args, name = cli, list(argv), "printshop"
    while isinstance(command, click.Group):   # our groups take no options of their own
        name = args.pop(0)
        command = command.get_command(click.Context(command), name)
        assert command is not None, name
    sub = command.make_context(name, args)
    assert not sub.args, f"left over: {sub.args}"


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    root = tmp_path_factory.mktemp("examples")
    new_project(root / "game", "Game")
    shutil.copytree(RULES_SRC, root / "rules")
    novel = root / "home" / "my-novel"
    novel.mkdir(parents=True)
    (novel / "01-start.md").write_text("# It Begins\n\nA dark and stormy night.\n")
    return root


def run_example(places, monkeypatch, where: str, argv: list[str]):
    monkeypatch.setenv("HOME", str(places / "home"))
    cwd = places / ("game" if where == "new" else "rules")
    if argv[0] == "new":   # each in a folder of its own (`new` wants a new or empty one)
        cwd = places / "fresh" / str(len(list((places / "fresh").glob("*")))
                                     if (places / "fresh").is_dir() else "0")
        cwd.mkdir(parents=True)
    expanded = [arg.replace("~", str(places / "home")) for arg in argv]
    return run_cli(*expanded, cwd=cwd)


# of a game's examples, these run (the rest are parsed): one or two per command, small
GAME_RUN = {"roll characters --count 3 --seed con-2025 --format json --out -",
            "roll characters --seed con-2026 --backs --seats 4 --per-seat 2 --no-cover "
            "--first 14 --count 1",
            "roll hirelings --seed inn --format json --out -",
            "roll hirelings --seed inn --tier 2 --count 3"}   # kit: tests/test_kit.py
RUN = [(n, w, a) for n, w, a in EXAMPLES
       if a[0] != "serve" and (w == "new" or " ".join(a) in GAME_RUN)]


def test_the_examples_run_are_in_the_help():
    assert GAME_RUN <= {" ".join(a) for _, w, a in EXAMPLES if w == "game"}


@pytest.mark.parametrize("name, where, argv", RUN, ids=[" ".join(a) for _, _, a in RUN])
def test_every_example_works(places, monkeypatch, name, where, argv):
    result = run_example(places, monkeypatch, where, argv)
    assert result.exit_code == 0, f"printshop {' '.join(argv)}:\n{result.output}"
    assert "Traceback" not in result.output


# --- the documentation ---------------------------------------------------------------------------
def documented() -> list[tuple[str, list[str]]]:
    """(file, argv) of every `printshop …` line in a sh code block of README.md and docs/."""
    from conftest import REPO

    found = []
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        block = None
        text = path.read_text(encoding="utf-8").replace("\\\n", " ")   # continued lines
        for line in text.splitlines():
            if line.startswith("```"):
                block = line[3:].strip() if block is None else None
                continue
            if block in ("sh", "bash") and line.startswith("printshop "):
                found.append((path.name, shlex.split(line, comments=True)[1:]))
    return found


DOCUMENTED = documented()


@pytest.mark.parametrize("file, argv", DOCUMENTED,
                         ids=[f"{f}: {' '.join(a)}" for f, a in DOCUMENTED])
def test_every_command_in_the_docs_parses(file, argv):
    test_every_example_parses("docs", "new", argv)


def test_the_docs_say_printshop_not_the_virtualenvs_path():
    from conftest import REPO

    for path in [REPO / "README.md", *(REPO / "docs").glob("*.md")]:
        assert ".venv/bin/printshop" not in path.read_text(encoding="utf-8"), path.name
    assert len(DOCUMENTED) > 40
