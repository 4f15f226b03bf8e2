"""The one door to WeasyPrint's internals: every change printshop makes to WeasyPrint.

Each `Patch` names what it replaces (`targets`: a dotted name and the digest of that
object's source in the WeasyPrint it was written against), why it exists and what it
gains. A patch is installed only when every target's source still has its digest;
otherwise it is **skipped**: WeasyPrint's own code runs (slower, never wrong), and
`printshop --version` says which patch was skipped and why. Patches of two kinds:

* `fix`: WeasyPrint does something wrong (it loses text, leaks files, stamps the time of
  the build into a font); skipping one brings the bug back;
* `speed`: the same pages, made faster.

A patch changes WeasyPrint by code of its own (`install`, which returns the attributes it
sets: the registry sets them, and can set them back), by lines of a function's source
replaced (`SourceEdit`: the edits of every active patch to one function are applied to
its source together and the result compiled once, so that patches of the same function
compose), or by neither: code of printshop's asks `active(name)` before it reaches in
(the hyphenation cache, the fonts' folder).

The registry is the one record of what is installed: nothing else marks a function as
patched. `PRINTSHOP_WEASYPRINT_PATCHES=off` turns every patch off for a run; a comma list
of names (`PRINTSHOP_WEASYPRINT_PATCHES=column-balance,line-splits`) turns only those off.

Not a patch, and so not here: `render/weasy/library.py`'s `import_weasyprint` answers
`ctypes.util.find_library` "not found" while WeasyPrint is imported on Linux (WeasyPrint
then loads each library by its soname, as it does when the lookup fails); it changes no
WeasyPrint code and falls back to WeasyPrint's own import when that leaves a library out.

Nothing here imports WeasyPrint until `apply_all`, `report` or `active` is called.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import inspect
import linecache
import os
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Literal

ENV = "PRINTSHOP_WEASYPRINT_PATCHES"

# what an `install` returns: (object, attribute, new value) for each attribute it sets
Setting = tuple[object, str, object]


@dataclass(frozen=True)
class SourceEdit:
    """Lines of a function's source replaced: each `old` text is found exactly once in the
    function's source (after the edits of the patches registered before this one)."""
    function: str                          # e.g. "weasyprint.layout.column.columns_layout"
    edits: tuple[tuple[str, str], ...]
    # what the edited source refers to beyond its module's own names (made when applied)
    names: Callable[[], dict] | None = None
    # other modules that hold the function under its name (`from .column import …`)
    rebind: tuple[str, ...] = ()


@dataclass(frozen=True)
class Patch:
    name: str
    kind: Literal["fix", "speed"]
    targets: dict[str, str]                # dotted name → sha256 (16 hex) of its source
    why: str
    gain: str     # a speed patch's: its share of its product's cold-build CPU, measured by
    #               bench/patches.py (each patch off, then all on; bench/BASELINE.md)
    install: Callable[[], Iterable[Setting]] | None = None
    edits: tuple[SourceEdit, ...] = ()
    requires: tuple[str, ...] = ()         # patches this one is written on top of


@dataclass
class Status:
    name: str
    kind: str
    state: Literal["active", "skipped", "off"]
    reason: str = ""


@dataclass
class _Registry:
    patches: dict[str, Patch] = field(default_factory=dict)
    applied: dict[str, Status] | None = None      # set once `apply_all` ran
    originals: dict[str, object] = field(default_factory=dict)   # dotted → WeasyPrint's
    # what was set, in order, to be set back: (object, attribute, value before, had it)
    undo: list[tuple[object, str, object, bool]] = field(default_factory=list)


_REGISTRY = _Registry()


def register(patch: Patch) -> Patch:
    if patch.name in _REGISTRY.patches and _REGISTRY.patches[patch.name] is not patch:
        raise ValueError(f"two WeasyPrint patches are named {patch.name!r}")
    _REGISTRY.patches[patch.name] = patch
    return patch


def _load_all() -> dict[str, Patch]:
    """Every patch module registers its patches when imported."""
    importlib.import_module("printshop.render.weasy.patches")
    return _REGISTRY.patches


def names() -> list[str]:
    return sorted(_load_all())


def patches() -> list[Patch]:
    """Every registered patch, in the order they are applied."""
    return list(_load_all().values())


def switched_off(environ=None) -> tuple[set[str], list[str]]:
    """(patches turned off by the environment, names in it that are not patches)."""
    value = (os.environ if environ is None else environ).get(ENV, "").strip()
    known = _load_all()
    if value.lower() in ("", "on"):
        return set(), []
    if value.lower() in ("off", "none", "0"):
        return set(known), []
    wanted = {part.strip() for part in value.split(",") if part.strip()}
    return wanted & set(known), sorted(wanted - set(known))


def resolve(dotted: str):
    """The object a dotted name ("weasyprint.layout.column.columns_layout",
    "weasyprint.text.line_break.Layout.setup") stands for: the longest importable module
    prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            obj = getattr(obj, attribute)
        return obj
    raise ImportError(dotted)


def digest_of(obj) -> str:
    return hashlib.sha256(source_of(obj).encode()).hexdigest()[:16]


def source_of(obj) -> str:
    """`inspect.getsource(obj)`, kept in the user's cache by the bytes of the file it is in
    and where in it: finding the sources of every patch's targets tokenized WeasyPrint's
    modules, 55 ms of the first worker's start before it forks the others (the Event
    Deck's whole build is 1.4 s). Another file, or the same file changed, is read afresh."""
    from printshop import user_cache

    try:
        data = Path(inspect.getsourcefile(obj) or "").read_bytes()
    except (TypeError, OSError):
        return inspect.getsource(obj)
    code = getattr(inspect.unwrap(obj), "__code__", None)
    where = (getattr(obj, "__module__", None) or getattr(obj, "__name__", ""),
             getattr(obj, "__qualname__", ""), code.co_firstlineno if code else 0,
             type(obj).__name__, sys.version_info[:2])
    made = user_cache.made_from("source-1", data + b"\0" + repr(where).encode(),
                                lambda: inspect.getsource(obj).encode())
    return made.decode()


def original(dotted: str):
    """WeasyPrint's own object, even after a patch replaced it."""
    if dotted not in _REGISTRY.originals:
        _REGISTRY.originals[dotted] = resolve(dotted)
    return _REGISTRY.originals[dotted]


def _check(patch: Patch, decided: dict[str, Status]) -> str:
    """Why `patch` cannot be installed here ("" if it can)."""
    for name in patch.requires:
        if decided.get(name) is None or decided[name].state != "active":
            return f"needs {name}, which is not active"
    for dotted, digest in patch.targets.items():
        try:
            found = digest_of(original(dotted))
        except (ImportError, AttributeError, OSError, TypeError):
            return f"{dotted} is not in this WeasyPrint"
        if found != digest:
            return f"{dotted} differs from the source it was written against"
    return ""


def _decide(off: set[str]) -> dict[str, Status]:
    decided: dict[str, Status] = {}
    for patch in _load_all().values():       # registration order: requirements first
        if patch.name in off:
            decided[patch.name] = Status(patch.name, patch.kind, "off", f"{ENV}")
            continue
        reason = _check(patch, decided)
        decided[patch.name] = Status(patch.name, patch.kind,
                                     "skipped" if reason else "active", reason)
    return decided


def report() -> list[Status]:
    """What `apply_all` does (or did) in this process, without installing anything."""
    if _REGISTRY.applied is not None:
        return list(_REGISTRY.applied.values())
    return list(_decide(switched_off()[0]).values())


def apply_all() -> list[Status]:
    """Installs every patch that is not switched off and whose targets are as written
    against; once per process."""
    if _REGISTRY.applied is None:
        _apply(switched_off()[0])
    assert _REGISTRY.applied is not None    # (set by _apply)
    return list(_REGISTRY.applied.values())


def active(name: str) -> bool:
    """Whether the patch `name` is installed in this process (`apply_all` first)."""
    applied = {status.name: status for status in apply_all()}
    status = applied.get(name)
    if status is None:
        raise KeyError(f"no WeasyPrint patch is named {name!r}")
    return status.state == "active"


@contextlib.contextmanager
def switched(off: Iterable[str], replaced: Iterable[Patch] = ()):
    """For tests: the patches as a process would have them with `off` switched off too
    (the equivalence of a patch with WeasyPrint's own code), and the `replaced` patches in
    place of those of their names (a target's digest changed: what another WeasyPrint
    does); as before afterwards."""
    off, replaced = set(off), list(replaced)
    unknown = (off | {p.name for p in replaced}) - set(_load_all())
    if unknown:
        raise KeyError(f"no WeasyPrint patch is named {sorted(unknown)}")
    apply_all()
    _undo_all()
    kept = dict(_REGISTRY.patches)
    try:
        _REGISTRY.patches.update({p.name: p for p in replaced})
        yield _apply(off | switched_off()[0])
    finally:
        _undo_all()
        _REGISTRY.patches.clear()
        _REGISTRY.patches.update(kept)
        _apply(switched_off()[0])


def _apply(off: set[str]) -> dict[str, Status]:
    decided = _decide(off)
    active_patches = [p for p in _load_all().values() if decided[p.name].state == "active"]
    by_function: dict[str, list[tuple[Patch, SourceEdit]]] = {}
    for patch in active_patches:
        for edit in patch.edits:
            by_function.setdefault(edit.function, []).append((patch, edit))
    for function, edits in by_function.items():
        made, failed = _compiled(function, edits)
        if failed:      # a text not found once: those patches are left out
            for name in failed:
                decided[name] = Status(name, decided[name].kind, "skipped",
                                       f"its lines are not found once in {function}")
            active_patches = [p for p in active_patches if p.name not in failed]
            made, _ = _compiled(function, [(p, e) for p, e in edits if p.name not in failed])
        _install_function(function, made, {name for _, e in edits for name in e.rebind})
    for patch in active_patches:
        if patch.install is not None:
            for owner, attribute, value in patch.install():
                _set(owner, attribute, value)
    _REGISTRY.applied = decided
    return decided


def _set(owner, attribute: str, value) -> None:
    had = attribute in vars(owner)
    _REGISTRY.undo.append((owner, attribute, vars(owner).get(attribute), had))
    setattr(owner, attribute, value)


def _undo_all() -> None:
    while _REGISTRY.undo:
        owner, attribute, value, had = _REGISTRY.undo.pop()
        if had:
            setattr(owner, attribute, value)
        else:
            delattr(owner, attribute)
    _REGISTRY.applied = None


def edited_function(function: str, patch_names: set[str] | frozenset[str]):
    """`function` compiled with the edits of the named patches only (for tests comparing
    a patch with WeasyPrint's own code); WeasyPrint's own function for an empty set."""
    if not patch_names:
        return original(function)
    edits = [(p, e) for p in _load_all().values() if p.name in patch_names
             for e in p.edits if e.function == function]
    made, failed = _compiled(function, edits)
    if failed:
        raise ValueError(f"{sorted(failed)}: lines not found in {function}")
    return made


def _compiled(function: str, edits) -> tuple[object, set[str]]:
    """WeasyPrint's `function` with `edits` made to its source, compiled where it was
    defined: its module's names are its globals (so that it calls what is installed in
    the module when it runs), the edits' own `names` are closed over."""
    own = original(function)
    source = textwrap.dedent(source_of(own))
    failed: set[str] = set()
    extra: dict = {}
    for patch, edit in edits:
        for old, new in edit.edits:
            if source.count(old) != 1:
                failed.add(patch.name)
                break
            source = source.replace(old, new)
        if edit.names is not None:
            extra.update(edit.names())
    # def _printshop_make(<extra names>):
    #     <the function>
    #     return <the function>
    attribute = function.rpartition(".")[2]
    wrapper = (f"def _printshop_make({', '.join(extra)}):\n"
               + textwrap.indent(source, "    ") + f"    return {attribute}\n")
    # a traceback through it shows its own lines, under a name that says what it is
    patched = ", ".join(sorted({patch.name for patch, _ in edits} - failed))
    filename = f"{inspect.getsourcefile(own)} ({own.__qualname__} patched: {patched})"
    linecache.cache[filename] = (len(wrapper), None, wrapper.splitlines(True), filename)
    module = inspect.getmodule(own)
    scope: dict = {}
    exec(compile(wrapper, filename, "exec"), vars(module), scope)
    made = scope["_printshop_make"](**extra)
    made.__qualname__ = own.__qualname__
    return made, failed


def _install_function(function: str, made, rebind: set[str]) -> None:
    owner = resolve(function.rpartition(".")[0])
    attribute = function.rpartition(".")[2]
    _set(owner, attribute, made)
    for other in sorted(rebind):
        _set(resolve(other.rpartition(".")[0]), attribute, made)
