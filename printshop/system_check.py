"""Are the system libraries WeasyPrint loads here? Install them, or say what to install.

WeasyPrint is pure Python but loads Pango, HarfBuzz (and its font subsetter), Fontconfig and
GObject from the system. Without the subsetter it falls back to fontTools: slower, a warning
per font and per document. `make` runs this file with the system's Python before it creates
the virtualenv, so it uses the standard library only and answers in milliseconds.

With `--install` (what `make` and `make test` pass), on Debian or Ubuntu, what is missing is
installed with apt-get when that can be done without asking anyone: as root, or where
`sudo -n` needs no password. It says what it installs and why first. Anywhere else (or
with PRINTSHOP_NO_INSTALL=1) it stops at once with the one command to run.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Library:
    label: str
    names: tuple[str, ...]  # as WeasyPrint tries them: find_library name, then file names
    minimum: tuple[int, int, int] | None = None
    debian: str = ""        # the Debian and Ubuntu package that brings it


# The libraries weasyprint/text/ffi.py opens, with the same names.
LIBRARIES = (
    Library("GObject", ("gobject-2.0", "libgobject-2.0.so.0", "libgobject-2.0.0.dylib"),
            debian="libpango-1.0-0"),
    Library("Pango >= 1.44", ("pango-1.0", "libpango-1.0.so.0", "libpango-1.0.dylib"),
            (1, 44, 0), "libpango-1.0-0"),
    Library("PangoFT2", ("pangoft2-1.0", "libpangoft2-1.0.so.0", "libpangoft2-1.0.dylib"),
            debian="libpangoft2-1.0-0"),
    Library("HarfBuzz", ("harfbuzz", "libharfbuzz.so.0", "libharfbuzz.0.dylib"),
            debian="libpango-1.0-0"),
    Library("the HarfBuzz font subsetter >= 4.1 (libharfbuzz-subset)",
            ("harfbuzz-subset", "libharfbuzz-subset.so.0", "libharfbuzz-subset.0.dylib"),
            (4, 1, 0), "libharfbuzz-subset0"),
    Library("Fontconfig", ("fontconfig", "libfontconfig.so.1", "libfontconfig.1.dylib"),
            debian="libpangoft2-1.0-0"),
)
# why WeasyPrint needs each Debian package (what `make` says as it installs them)
WHY = {"libpango-1.0-0": "Pango, with HarfBuzz and GObject: WeasyPrint lays out text with them",
       "libpangoft2-1.0-0": "Pango's FreeType backend, with Fontconfig: WeasyPrint's fonts",
       "libharfbuzz-subset0": "HarfBuzz's font subsetter: a PDF embeds only the glyphs it uses"}

SUBSETTER = LIBRARIES[4]

INSTALL = (
    ("Debian/Ubuntu", "sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 "
                      "libharfbuzz-subset0"),
    ("Fedora", "sudo dnf install pango harfbuzz"),
    ("macOS", "brew install pango harfbuzz"),
)


def _load(library: Library):
    # the file names first: find_library runs ldconfig (and on some systems the C
    # compiler), 3 ms a name and 22 ms of every command's start for the six libraries
    for name in library.names[1:]:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    found = ctypes.util.find_library(library.names[0])
    if found:
        try:
            return ctypes.CDLL(found)
        except OSError:
            pass
    return None


def _version_ok(library: Library, handle) -> bool:
    """Pango and HarfBuzz say their version; other libraries only need to load."""
    if library.minimum is None:
        return True
    major, minor, micro = library.minimum
    if library.names[0] == "pango-1.0":
        return handle.pango_version() >= major * 10000 + minor * 100 + micro
    # The subsetter is used only with a HarfBuzz of 4.1 or newer (WeasyPrint checks this).
    harfbuzz = _load(next(lib for lib in LIBRARIES if lib.names[0] == "harfbuzz"))
    return harfbuzz is not None and bool(harfbuzz.hb_version_atleast(major, minor, micro))


def missing_libraries() -> list[str]:
    """Labels of the libraries that cannot be loaded (or are too old)."""
    missing = []
    for library in LIBRARIES:
        handle = _load(library)
        if handle is None or not _version_ok(library, handle):
            missing.append(library.label)
    return missing


def versions() -> dict[str, str]:
    """Pango's and HarfBuzz's versions as the loaded libraries say them."""
    found = {}
    pango = _load(LIBRARIES[1])
    if pango is not None:
        pango.pango_version_string.restype = ctypes.c_char_p
        found["Pango"] = pango.pango_version_string().decode()
    harfbuzz = _load(LIBRARIES[3])
    if harfbuzz is not None:
        harfbuzz.hb_version_string.restype = ctypes.c_char_p
        found["HarfBuzz"] = harfbuzz.hb_version_string().decode()
    return found


def install_message(missing: list[str], then: str = "then try again") -> str:
    lines = [f"printshop: WeasyPrint needs system libraries that are missing here: "
             f"{', '.join(missing)}.",
             f"Install them, {then}:"]
    width = max(len(system) for system, _ in INSTALL) + 1
    lines += [f"  {system + ':':<{width}} {command}" for system, command in INSTALL]
    if sys.platform == "darwin":  # Homebrew's lib folder is not searched by default
        lines.append("If Homebrew has installed them already: export "
                     "DYLD_FALLBACK_LIBRARY_PATH=\"$(brew --prefix)/lib\"")
    return "\n".join(lines)


# --- what `make test` and `make look` need besides the libraries ----------------------------

@dataclass(frozen=True)
class Tool:
    label: str
    found: object                     # () -> bool
    packages: tuple[str, str, str]    # Debian/Ubuntu, Fedora, macOS (Homebrew)


def _on_path(*commands: str):
    return lambda: all(shutil.which(command) for command in commands)


# The files the tests look for (tests/test_guide_manuscripts.py, tests/test_serve.py).
CHROMIUM = "/usr/bin/chromium"
CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
THAI_FONT = "/usr/share/fonts/truetype/tlwg/Loma.ttf"

# `python3 -m venv` without ensurepip (Debian's python3 without python3-venv) makes no pip
VENV = Tool("python3-venv (make creates the virtualenv .venv/ with it)",
            lambda: _has_module("ensurepip"), ("python3-venv", "python3", "python"))


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


POPPLER = Tool("pdftotext and pdftoppm (poppler-utils): the tests read the built PDFs",
               _on_path("pdftotext", "pdftoppm"),
               ("poppler-utils", "poppler-utils", "poppler"))
TEST_TOOLS = (
    POPPLER,
    Tool(f"Chromium at {CHROMIUM} (the live preview's browser tests)",
         lambda: os.path.exists(CHROMIUM), ("chromium", "chromium", "cask:chromium")),
    Tool("Noto Sans CJK (Japanese and Korean manuscripts)",
         lambda: os.path.exists(CJK_FONT),
         ("fonts-noto-cjk", "google-noto-sans-cjk-fonts", "cask:font-noto-sans-cjk")),
    Tool("TLWG Thai fonts (Thai manuscripts)", lambda: os.path.exists(THAI_FONT),
         ("fonts-thai-tlwg", "thai-scalable-fonts-common", "cask:font-loma")),
)
NEEDS = {"build": (VENV,), "test": (VENV, *TEST_TOOLS), "look": (POPPLER,)}


def missing_tools(tools) -> list[Tool]:
    return [tool for tool in tools if not tool.found()]


def tools_message(missing: list[Tool], target: str) -> str:
    lines = [f"printshop: `make {target}` needs what is missing here: "
             f"{'; '.join(tool.label for tool in missing)}.", "Install it, then try again:"]
    width = max(len(system) for system, _ in INSTALL) + 1
    for n, (system, command) in enumerate(INSTALL):
        install = command.split(" install ")[0] + " install"
        names = [t.packages[n] for t in missing]
        plain = [name for name in names if not name.startswith("cask:")]
        casks = [name.removeprefix("cask:") for name in names if name.startswith("cask:")]
        commands = ([f"{install} {' '.join(plain)}"] if plain else []) + \
            ([f"{install} --cask {' '.join(casks)}"] if casks else [])
        lines.append(f"  {system + ':':<{width}} {' && '.join(commands)}")
    return "\n".join(lines)


# --- installing what is missing, on Debian and Ubuntu -----------------------------------------

def debian_like(os_release: str = "/etc/os-release") -> bool:
    """Debian, Ubuntu or a system built on them (ID or ID_LIKE says so)."""
    try:
        with open(os_release, encoding="utf-8") as file:
            fields = dict(line.rstrip("\n").split("=", 1) for line in file if "=" in line)
    except OSError:
        return False
    names = f"{fields.get('ID', '')} {fields.get('ID_LIKE', '')}".replace('"', "").split()
    return bool({"debian", "ubuntu"} & set(names)) and shutil.which("apt-get") is not None


def installer() -> list[str] | None:
    """How to run apt-get here without asking anyone: as root, or through a sudo that needs
    no password (`sudo -n`); None if neither, or PRINTSHOP_NO_INSTALL=1."""
    if os.environ.get("PRINTSHOP_NO_INSTALL", "") not in ("", "0"):
        return None
    apt = ["env", "DEBIAN_FRONTEND=noninteractive"]   # (sudo resets the environment)
    if os.geteuid() == 0:
        return apt
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], stdin=subprocess.DEVNULL,
                                               capture_output=True).returncode == 0:
        return ["sudo", "-n", *apt]
    return None


def needed_packages(missing: list[str], tools: list[Tool]) -> list[tuple[str, str]]:
    """(Debian package, why) for what is missing, each package once."""
    packages = [library.debian for library in LIBRARIES if library.label in missing]
    needed = {package: WHY[package] for package in packages}
    needed.update((tool.packages[0], tool.label) for tool in tools)
    return list(needed.items())


def _make(target: str) -> str:
    return "make" if target == "build" else f"make {target}"


def install(packages: list[tuple[str, str]], prefix: list[str], target: str) -> bool:
    """apt-get update, then install `packages`, saying what and why first."""
    print(f"printshop: `{_make(target)}` installs the system packages it needs:",
          file=sys.stderr)
    for package, why in packages:
        print(f"  {package}: {why}", file=sys.stderr)
    names = [package for package, _ in packages]
    for command in (["apt-get", "update", "-q"],
                    ["apt-get", "install", "-y", "-q", "--no-install-recommends", *names]):
        shown = ["sudo", "-n", *command] if prefix[0] == "sudo" else command
        print(f"+ {' '.join(shown)}", file=sys.stderr, flush=True)
        if subprocess.run([*prefix, *command], stdin=subprocess.DEVNULL).returncode != 0:
            return False
    return True


def one_command(missing: list[str], tools: list[Tool], target: str) -> str:
    """What is missing, and the one command that installs it on Debian and Ubuntu."""
    needed = needed_packages(missing, tools)
    apt = f"apt-get install -y {' '.join(package for package, _ in needed)}"
    if os.environ.get("PRINTSHOP_NO_INSTALL", "") not in ("", "0"):
        reason = "PRINTSHOP_NO_INSTALL is set"
    elif shutil.which("sudo"):
        reason = "it is not root, and sudo asks for a password"
    else:
        reason = "it is not root"
    command = f"sudo {apt}" if shutil.which("sudo") else f"su -c '{apt}'"
    return "\n".join(
        [f"printshop: `{_make(target)}` needs system packages that are missing here:"] +
        [f"  {package}: {why}" for package, why in needed] +
        [f"It cannot install them itself ({reason}). Run this, then `{_make(target)}` again:",
         f"  {command}"])


def main(argv: list[str] | None = None) -> int:
    """`system_check.py [build|test|look] [--install]`: the libraries every target needs, and
    the programs and fonts `make test` or `make look` need too; with --install, installed
    where that needs nobody's password (Debian and Ubuntu)."""
    argv = sys.argv[1:] if argv is None else argv
    may_install = "--install" in argv
    argv = [arg for arg in argv if arg != "--install"]
    target = argv[0] if argv else "build"
    # everything missing is named in one go, not one package per attempt
    missing = missing_libraries()
    tools = missing_tools(NEEDS.get(target, ()))
    if (missing or tools) and may_install and debian_like():
        prefix = installer()
        if prefix is None:
            print(one_command(missing, tools, target), file=sys.stderr)
            return 1
        if install(needed_packages(missing, tools), prefix, target):
            missing = missing_libraries()
            tools = missing_tools(NEEDS.get(target, ()))
        else:
            print("printshop: apt-get failed (above); nothing else was done.", file=sys.stderr)
            return 1
    if missing:
        print(install_message(missing), file=sys.stderr)
    if tools:
        print(tools_message(tools, target), file=sys.stderr)
    if missing or tools:
        return 1
    found = ", ".join(f"{name} {version}" for name, version in versions().items())
    print(f"printshop: system libraries OK ({found}, with HarfBuzz's font subsetter)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
