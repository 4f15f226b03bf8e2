"""Every example in `--help` and every command in README.md and docs/ can be pasted as it is
(the explanation after `#`) and works: in a project made by `printshop new`, or, where the
help or the docs say so, in a game with character classes (a copy of rules-src/) or in
printshop's repository (rules-src/ and games/).

Every example and command is parsed as the command line reads it, and every one for a
`printshop new` project is run (`serve` runs until stopped: parsed only). Of the others,
`make test` runs each command's cheapest (a pack of a few sheets, JSON); the rest roll and
render dozens of sheets and HAMMERCRAWL!'s guide, minutes of work: `make test-slow`
runs them (marked `slow`; in .ci/run)."""

from __future__ import annotations

import shlex
import shutil
from dataclasses import dataclass

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
    # like printshop's repository: HAMMERCRAWL! kept in rules-src/, the other games in games/
    shutil.copytree(RULES_SRC, root / "rules" / "rules-src",
                    ignore=shutil.ignore_patterns("build", ".printshop-cache"))
    shutil.copytree(RULES_SRC.parent / "games", root / "rules" / "games",
                    ignore=shutil.ignore_patterns("build", ".printshop-cache"))
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


REST = [(n, w, a) for n, w, a in EXAMPLES if a[0] != "serve" and (n, w, a) not in RUN]


@pytest.mark.slow
@pytest.mark.parametrize("name, where, argv", REST, ids=[" ".join(a) for _, _, a in REST])
def test_every_other_example_works(places, monkeypatch, name, where, argv):
    """The game's examples `make test` only parses (`make test-slow`, in .ci/run)."""
    test_every_example_works(places, monkeypatch, name, where, argv)


# --- the documentation ---------------------------------------------------------------------------
# A code block that starts with this comment runs in printshop's repository (HAMMERCRAWL!
# in rules-src/, the other games in games/); every other block in a project `printshop new`
# made, as a reader who just made one would paste it.
IN_REPOSITORY = "# in printshop's repository"


@dataclass(frozen=True)
class Block:
    file: str
    line: int
    where: str                 # "new" or "repository"
    lines: tuple[str, ...]     # the block's `printshop …` and `cd …` lines, in order

    @property
    def commands(self) -> list[list[str]]:
        return [shlex.split(line, comments=True)[1:] for line in self.lines
                if line.startswith("printshop ")]


def blocks() -> list[Block]:
    """Every sh code block of README.md and docs/ with a `printshop` command in it."""
    from conftest import REPO

    found = []
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8").replace("\\\n", " ")   # continued lines
        block: list[str] | None = None
        kind, start = "", 0
        for number, line in enumerate(text.splitlines(), start=1):
            if line.startswith("```"):
                if block is None:
                    block, kind, start = [], line[3:].strip(), number
                    continue
                if kind in ("sh", "bash") and any(b.startswith("printshop ") for b in block):
                    where = "repository" if block[0].startswith(IN_REPOSITORY) else "new"
                    found.append(Block(path.name, start, where, tuple(
                        b for b in block if b.startswith(("printshop ", "cd ")))))
                block = None
                continue
            if block is not None:
                block.append(line)
    return found


BLOCKS = blocks()
DOCUMENTED = [(b.file, argv) for b in BLOCKS for argv in b.commands]


@pytest.mark.parametrize("file, argv", DOCUMENTED,
                         ids=[f"{f}: {' '.join(a)}" for f, a in DOCUMENTED])
def test_every_command_in_the_docs_parses(file, argv):
    test_every_example_parses("docs", "new", argv)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A project `printshop new` made, with the render cache of one build of it (so that
    each block's commands compose, check and write every file, but render only what no
    block rendered before: the pages are the same)."""
    project = tmp_path_factory.mktemp("docs") / "my-game"
    new_project(project, "My Game")
    assert run_cli("build", "--quiet", cwd=project).exit_code == 0
    for path in (project / "build").iterdir():
        if path.name != ".printshop-cache":
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    return project


def run_block(block: Block, root, monkeypatch, made=None) -> None:
    """The block's commands in order, as pasted: in a new project (or, for a block that
    starts with `printshop new`, in an empty folder), or in a copy of the repository's
    games; `cd` moves on; `serve` runs until stopped, so it is only parsed (the live
    preview's tests run it). Every command must end with status 0 and no traceback."""
    from conftest import REPO

    home = root / "home"
    for book in ("my-srd", "my-book"):      # the manuscripts the docs build
        (home / book).mkdir(parents=True, exist_ok=True)
        (home / book / "01-start.md").write_text("# It Begins\n\nA dark and stormy night.\n")
    monkeypatch.setenv("HOME", str(home))
    if block.where == "repository":
        cwd = root / "repository"
        shutil.copytree(REPO / "rules-src", cwd / "rules-src",
                        ignore=shutil.ignore_patterns("build", ".printshop-cache"))
        shutil.copytree(REPO / "games", cwd / "games",
                        ignore=shutil.ignore_patterns("build", ".printshop-cache"))
    elif block.commands[0][:1] == ["new"]:
        cwd = root / "empty"
        cwd.mkdir()
    else:
        cwd = root / "my-game"
        shutil.copytree(made, cwd)
    for line in block.lines:
        if line.startswith("cd "):
            cwd = cwd / shlex.split(line, comments=True)[1]
            continue
        argv = [f"{root}/tmp/{a[5:]}" if a.startswith("/tmp/") else a.replace("~", str(home))
                for a in shlex.split(line, comments=True)[1:]]
        if argv[0] == "serve":
            continue
        result = run_cli(*argv, cwd=cwd)
        assert result.exit_code == 0, \
            f"{block.file}:{block.line}: printshop {' '.join(argv)}:\n{result.output}"
        assert "Traceback" not in result.output


NEW = [b for b in BLOCKS if b.where == "new"]
REPOSITORY = [b for b in BLOCKS if b.where == "repository"]


@pytest.mark.parametrize("block", NEW, ids=[f"{b.file}:{b.line}" for b in NEW])
def test_every_command_in_the_docs_works_in_a_new_project(block, tmp_path, monkeypatch, made):
    run_block(block, tmp_path, monkeypatch, made)


@pytest.mark.slow
@pytest.mark.parametrize("block", REPOSITORY, ids=[f"{b.file}:{b.line}" for b in REPOSITORY])
def test_every_command_in_the_docs_works_in_the_repository(block, tmp_path, monkeypatch):
    """(`make test-slow`, in .ci/run: these build HAMMERCRAWL!'s guide and kits,
    minutes of work, too long for `make test`.)"""
    run_block(block, tmp_path, monkeypatch)


def test_the_docs_say_printshop_not_the_virtualenvs_path():
    from conftest import REPO

    for path in [REPO / "README.md", *(REPO / "docs").glob("*.md")]:
        assert ".venv/bin/printshop" not in path.read_text(encoding="utf-8"), path.name
    assert len(DOCUMENTED) > 40 and len(NEW) > 10
