"""`make` and printshop on a machine without HarfBuzz's font subsetter (libharfbuzz-subset).

The library is made unloadable in a child process (tests/without_subsetter.py), so what is
tested is what a user without the package sees: `make` stops at once, naming the packages;
printshop itself still builds, with the same bytes every run, and says so once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, SMALL_DECK
from printshop import system_check

WITHOUT = str(Path(__file__).with_name("without_subsetter.py"))
PACKAGES = ("libharfbuzz-subset0", "dnf install", "brew install")


def run(*args, cwd=None, env=None, timeout=120):
    return subprocess.run([*args], cwd=cwd, env={**os.environ, **(env or {})}, text=True,
                          capture_output=True, timeout=timeout)


def test_this_machine_has_every_library():
    assert system_check.missing_libraries() == []
    assert set(system_check.versions()) == {"Pango", "HarfBuzz"}


def test_without_the_subsetter_the_check_names_the_packages_for_three_systems():
    started = time.monotonic()
    result = run(sys.executable, WITHOUT, "printshop.system_check")
    assert time.monotonic() - started < 20
    assert result.returncode == 1
    assert "libharfbuzz-subset" in result.stderr.splitlines()[0]
    for package in PACKAGES:
        assert package in result.stderr
    assert "Traceback" not in result.stderr


def test_make_stops_before_installing_or_rendering_anything(tmp_path):
    """The check runs with the system's Python before the virtualenv is made."""
    if shutil.which("make") is None:
        pytest.skip("no make")
    shutil.copy(REPO / "Makefile", tmp_path)
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    (tmp_path / "printshop").mkdir()
    shutil.copy(REPO / "printshop" / "system_check.py", tmp_path / "printshop")
    for target in ("build", "test"):
        result = run("make", target, f"PYTHON={sys.executable} {WITHOUT}", cwd=tmp_path,
                     env={"PRINTSHOP_NO_INSTALL": "1"})   # (root here would install)
        assert result.returncode != 0
        assert "libharfbuzz-subset0" in result.stderr
        assert not (tmp_path / ".venv").exists() and not (tmp_path / "build").exists()


def _tiny_project(folder: Path) -> Path:
    (folder / "decks").mkdir(parents=True)
    (folder / "decks" / "tiny.yaml").write_text(SMALL_DECK)
    (folder / "printshop.yaml").write_text(
        "title: Tiny\nproducts:\n  tiny:\n    kind: cards\n    decks: [tiny]\n")
    return folder


def test_without_the_subsetter_printshop_builds_the_same_bytes_every_run(tmp_path):
    """fontTools would stamp each font subset with the time of the build: a day apart (the
    clock moved on in the second run), the files must still be identical."""
    project = _tiny_project(tmp_path / "tiny")
    outputs = []
    for shift in ("0", "86400"):
        out = tmp_path / f"out-{shift}"
        result = run(sys.executable, WITHOUT, "printshop", "build", "--strict",
                     "--source", project, "--out", out,
                     env={"PRINTSHOP_TEST_CLOCK_SHIFT": shift})
        assert result.returncode == 0, result.stderr
        notes = [line for line in result.stderr.splitlines() if "subsetter" in line]
        assert len(notes) == 1 and "fontTools" in notes[0]
        assert "HarfBuzz-Subset" not in result.stderr  # no warning per font and document
        outputs.append((out / "tiny.pdf").read_bytes())
    assert outputs[0] == outputs[1]
    # The fallback really ran: HarfBuzz's subsets are other bytes.
    result = run(sys.executable, "-m", "printshop", "build", "--strict", "--source", project,
                 "--out", tmp_path / "harfbuzz")
    assert result.returncode == 0, result.stderr
    assert "subsetter" not in result.stderr
    assert (tmp_path / "harfbuzz" / "tiny.pdf").read_bytes() != outputs[0]


def test_without_pango_printshop_stops_at_once_naming_the_packages(tmp_path):
    """Not a traceback from deep inside WeasyPrint after the checks: one message, exit 1."""
    project = _tiny_project(tmp_path / "tiny")
    started = time.monotonic()
    result = run(sys.executable, WITHOUT, "printshop", "build", "--source", project,
                 "--out", tmp_path / "out", env={"PRINTSHOP_TEST_BLOCK": "pangoft2"})
    assert time.monotonic() - started < 20
    assert result.returncode == 1
    assert result.stderr.splitlines()[0].endswith("missing here: PangoFT2.")
    for package in ("libpangoft2-1.0-0", *PACKAGES):
        assert package in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_make_test_names_the_programs_and_fonts_it_lacks(tmp_path):
    """Without poppler-utils on the PATH, `make test`'s check stops at once and says what to
    install on each system (the tests would otherwise fail on a missing pdftotext)."""
    result = run(sys.executable, str(REPO / "printshop" / "system_check.py"), "test",
                 env={"PATH": str(tmp_path)})
    assert result.returncode == 1
    assert "poppler-utils" in result.stderr.splitlines()[0]
    assert "sudo apt-get install poppler-utils" in result.stderr
    assert "brew install poppler" in result.stderr and "Traceback" not in result.stderr
    # `make build` needs none of it
    build = run(sys.executable, str(REPO / "printshop" / "system_check.py"), "build",
                env={"PATH": str(tmp_path)})
    assert build.returncode == 0


def test_every_thing_the_tests_need_is_named_with_its_package(monkeypatch, capsys):
    monkeypatch.setattr(system_check.shutil, "which", lambda name: None)
    monkeypatch.setattr(system_check.os.path, "exists", lambda path: False)
    assert system_check.main(["test"]) == 1
    message = capsys.readouterr().err
    debian = next(line for line in message.splitlines() if "apt-get" in line)
    for package in ("poppler-utils", "chromium", "fonts-noto-cjk", "fonts-thai-tlwg"):
        assert package in debian
    assert system_check.main(["look"]) == 1
    assert "fonts-noto-cjk" not in capsys.readouterr().err   # `make look` needs poppler only


def test_missing_libraries_and_missing_tools_are_named_together(monkeypatch, capsys):
    # a newcomer's machine may lack both: one run of `make test` names all of it
    monkeypatch.setattr(system_check, "missing_libraries", lambda: ["PangoFT2"])
    monkeypatch.setattr(system_check.os.path, "exists", lambda path: False)
    assert system_check.main(["test"]) == 1
    message = capsys.readouterr().err
    assert "PangoFT2" in message and "libpangoft2-1.0-0" in message
    assert "chromium" in message and "fonts-noto-cjk" in message


FAKE_APT = """\
import os, sys
folder = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(folder, "apt.log"), "a") as log:
    log.write(" ".join(["apt-get", *sys.argv[1:]]) + "\\n")
if sys.argv[1] == "install":    # "installs" poppler-utils: its two programs appear
    for name in ("pdftotext", "pdftoppm"):
        with open(os.path.join(folder, name), "w") as program:
            program.write("#!/bin/sh\\n")
        os.chmod(os.path.join(folder, name), 0o755)
"""


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0 or not system_check.debian_like(),
                    reason="installs as root on Debian or Ubuntu")
def test_as_root_on_debian_make_installs_what_is_missing_saying_what_and_why(tmp_path):
    """`make look` without poppler-utils, as root: apt-get (a stand-in here, first on the
    PATH) updates and installs it, and the check then passes."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "apt-get").write_text(f"#!{sys.executable}\n{FAKE_APT}")
    (bin_folder / "apt-get").chmod(0o755)
    (bin_folder / "env").symlink_to(shutil.which("env"))
    result = run(sys.executable, str(REPO / "printshop" / "system_check.py"), "look",
                 "--install", env={"PATH": str(bin_folder)})
    assert result.returncode == 0, result.stderr
    assert (bin_folder / "apt.log").read_text().splitlines() == [
        "apt-get update -q", "apt-get install -y -q --no-install-recommends poppler-utils"]
    said = result.stderr.splitlines()
    assert said[0] == "printshop: `make look` installs the system packages it needs:"
    assert said[1].startswith("  poppler-utils: ") and "read the built PDFs" in said[1]
    assert "system libraries OK" in result.stdout


def test_without_root_or_a_sudo_without_password_it_stops_with_the_one_command(monkeypatch,
                                                                               capsys):
    monkeypatch.setattr(system_check, "debian_like", lambda: True)
    monkeypatch.setattr(system_check, "missing_libraries", lambda: ["PangoFT2"])
    monkeypatch.setattr(system_check.os, "geteuid", lambda: 1000)
    ran = []
    monkeypatch.setattr(system_check.subprocess, "run",
                        lambda command, **_: ran.append(command) or
                        subprocess.CompletedProcess(command, 1))   # sudo wants a password
    monkeypatch.setattr(system_check.shutil, "which",
                        lambda name: f"/usr/bin/{name}" if name != "pdftotext" else None)
    assert system_check.main(["look", "--install"]) == 1
    assert ran == [["sudo", "-n", "true"]]     # asked sudo, installed nothing
    said = capsys.readouterr().err.splitlines()
    assert said[0] == "printshop: `make look` needs system packages that are missing here:"
    assert said[-2].startswith("It cannot install them itself (it is not root, and sudo asks")
    assert said[-1] == "  sudo apt-get install -y libpangoft2-1.0-0 poppler-utils"
    monkeypatch.setattr(system_check.shutil, "which", lambda name: None)   # no sudo at all
    monkeypatch.setenv("PRINTSHOP_NO_INSTALL", "1")
    assert system_check.main(["look", "--install"]) == 1
    said = capsys.readouterr().err.splitlines()
    assert "PRINTSHOP_NO_INSTALL is set" in said[-2]
    assert said[-1] == "  su -c 'apt-get install -y libpangoft2-1.0-0 poppler-utils'"
