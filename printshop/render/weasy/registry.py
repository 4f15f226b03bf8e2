"""The one door to WeasyPrint's internals: every change printshop makes to WeasyPrint.

Each `Patch` names what it replaces (`targets`: a dotted name and the digest of that
object's source in the WeasyPrint it was written against), why it exists and what it
gains. A patch is installed only when every target's source still has its digest;
otherwise it is **skipped**: WeasyPrint's own code runs (slower, never wrong), and
`printshop --version` says which patch was skipped and why. Patches of two kinds:

* `fix`: WeasyPrint does something wrong (it loses text); skipping one brings the bug
  back, which the build's word check (render/weasy/words.py) then reports;
* `speed`: the same pages, made faster.

A patch changes WeasyPrint either by code of its own (`install`) or by lines of a
function's source replaced (`SourceEdit`): the edits of every active patch to one function
are applied to its module's source together, and the result compiled once, so that
patches of the same function compose.

`PRINTSHOP_WEASYPRINT_PATCHES=off` turns every patch off for a run; a comma list of names
(`PRINTSHOP_WEASYPRINT_PATCHES=column-balance,line-splits`) turns only those off.

Nothing here imports WeasyPrint until `apply_all` or `report` is called.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
from dataclasses import dataclass, field
from typing import Callable, Literal

ENV = "PRINTSHOP_WEASYPRINT_PATCHES"


@dataclass(frozen=True)
class SourceEdit:
    """Lines of a function's source replaced: each `old` text is found exactly once in its
    module's source (after the edits of the patches registered before this one)."""
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
    gain: str
    install: Callable[[], None] | None = None
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
    return hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()[:16]


def _original(dotted: str):
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
            found = digest_of(_original(dotted))
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
    if _REGISTRY.applied is not None:
        return list(_REGISTRY.applied.values())
    decided = _decide(switched_off()[0])
    active = [p for p in _load_all().values() if decided[p.name].state == "active"]
    by_function: dict[str, list[tuple[Patch, SourceEdit]]] = {}
    for patch in active:
        for edit in patch.edits:
            by_function.setdefault(edit.function, []).append((patch, edit))
    for function, edits in by_function.items():
        failed = _install_edits(function, edits)
        if failed:      # a text not found once: those patches are left out
            for name in failed:
                decided[name] = Status(name, decided[name].kind, "skipped",
                                       f"its lines are not found once in {function}")
            active = [p for p in active if p.name not in failed]
            _install_edits(function, [(p, e) for p, e in edits if p.name not in failed])
    for patch in active:
        if patch.install is not None:
            patch.install()
    _REGISTRY.applied = decided
    return list(decided.values())


def edited_function(function: str, patch_names: set[str] | frozenset[str]):
    """`function` compiled with the edits of the named patches only (for tests comparing
    a patch with WeasyPrint's own code); WeasyPrint's own function for an empty set."""
    if not patch_names:
        return _original(function)
    edits = [(p, e) for p in _load_all().values() if p.name in patch_names
             for e in p.edits if e.function == function]
    namespace, failed = _compiled(function, edits)
    if failed:
        raise ValueError(f"{sorted(failed)}: lines not found in {function}")
    return namespace[function.rpartition(".")[2]]


def _compiled(function: str, edits) -> tuple[dict, set[str]]:
    module_name, _, attribute = function.rpartition(".")
    module = importlib.import_module(module_name)
    source = inspect.getsource(module)
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
    namespace = dict(vars(module))
    namespace[attribute] = _original(function)    # until the exec below replaces it
    namespace.update(extra)
    exec(compile(source, module.__file__, "exec"), namespace)
    return namespace, failed


def _install_edits(function: str, edits) -> set[str]:
    namespace, failed = _compiled(function, edits)
    if failed:
        return failed
    module_name, _, attribute = function.rpartition(".")
    made = namespace[attribute]
    setattr(importlib.import_module(module_name), attribute, made)
    for other in {name for _, edit in edits for name in edit.rebind}:
        setattr(importlib.import_module(other.rpartition(".")[0]), attribute, made)
    return set()
