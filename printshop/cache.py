"""The build cache: a product whose inputs did not change is not built again.

One entry per product in `OUT/.printshop-cache/products/NAME.json`, written only after the
product's files are in place, holding:

* `key`: a hash of what is known before building: the product's manifest entry, the
  manifest's other settings (title, paper …), the options that change output (`--paper`,
  card layout …, `SOURCE_DATE_EPOCH`), printshop's own code, every installed Python
  distribution (WeasyPrint, pydyf, Pillow …), Python, and the Pango, HarfBuzz and
  fontconfig libraries WeasyPrint loads;
* `files` and `listings`: every file the build read with its sha256 (or that it was absent)
  and the folder listings it depended on, as recorded by `printshop.deps`;
* `outputs`: each file written, with its sha256 (a deleted or edited output is rebuilt);
* `warnings`: replayed when the product is up to date (so `--strict` still fails);
* `extra`: what the product keeps about its outputs (the book's page map, for `serve`'s
  chapter previews: `entry_extra`).

Only content hashes decide; times never do. Checking needs no WeasyPrint, Jinja or Markdown:
a build with nothing to do imports none of them. Deleting the folder is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path

from printshop import __version__, deps
from printshop.resources import PACKAGE_DIR
from printshop.resources import TEMPLATES_DIR as BUILTIN_TEMPLATES

CACHE_DIR = ".printshop-cache"
FORMAT = 2   # 2: a warning's file kept as its inputs are (portable), not as shown
NATIVE_LIBRARIES = ("libpango-1.0.so.0", "libpangoft2-1.0.so.0", "libharfbuzz.so.0",
                    "libharfbuzz-subset.so.0", "libfontconfig.so.1")
# what in the environment changes a product's files: a date printed, WeasyPrint's patches
# switched off (render/weasy/registry.py)
KEY_ENVIRONMENT = ("SOURCE_DATE_EPOCH", "PRINTSHOP_WEASYPRINT_PATCHES")


@dataclass
class Freshness:
    name: str
    fresh: bool
    reason: str = ""            # why it must be built ("guide/03-magic.md changed")
    entry: dict | None = None   # the stored entry when fresh


def _hash_json(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_TOOLS: dict | None = None


def tool_fingerprint() -> dict:
    """printshop's code, the Python distributions installed and the native text libraries:
    found from file names and contents, without importing any of them."""
    global _TOOLS
    if _TOOLS is None:
        code = hashlib.sha256()
        for path in sorted(PACKAGE_DIR.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".yaml", ".json", ".txt", ".icc"):
                code.update(path.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0")
                code.update(path.read_bytes())
        distributions: set[str] = set()
        for entry in sys.path:  # site-packages only: not the current folder, which varies
            if os.path.basename(entry) not in ("site-packages", "dist-packages"):
                continue
            try:
                names = os.listdir(entry)
            except OSError:
                continue
            distributions.update(n for n in names if n.endswith((".dist-info", ".egg-info")))
        _TOOLS = {"printshop": __version__, "code": code.hexdigest(),
                  "python": sys.version, "distributions": sorted(distributions),
                  "native": _native_libraries(),
                  # a render job's result depends on which patches of WeasyPrint are on
                  "weasyprint_patches": os.environ.get("PRINTSHOP_WEASYPRINT_PATCHES", "")}
    return _TOOLS


def _native_libraries() -> dict:
    folders = [Path("/usr/lib") / (sysconfig.get_config_var("MULTIARCH") or ""), Path("/usr/lib"),
               Path("/usr/local/lib"), Path("/lib") / (sysconfig.get_config_var("MULTIARCH") or ""),
               Path("/opt/homebrew/lib")]
    found = {}
    for name in NATIVE_LIBRARIES:
        for folder in folders:
            candidate = folder / name
            if candidate.exists():
                real = candidate.resolve()
                found[name] = f"{real.name} {real.stat().st_size}"
                break
        else:
            found[name] = "not found"
    return found


def product_key(name: str, entry, manifest: dict, options: dict) -> str:
    return _hash_json({
        "format": FORMAT, "product": name, "entry": entry, "manifest": manifest,
        "options": options, "tools": tool_fingerprint(),
        "environment": {k: os.environ.get(k) for k in KEY_ENVIRONMENT},
    })


class Digests:
    """Files' sha256, with a stat cache in front (kept in OUT/.printshop-cache/stat.json).

    A stored digest is trusted only while the file's size, modification and change times
    and inode are the same, and only if it was hashed more than RACY_NS after the file last
    changed (git's "racily clean" rule: an edit in the same instant as the hash is caught).
    The change time cannot be set back by tools that keep modification times (`cp -p`).
    """

    RACY_NS = 2_000_000_000

    def __init__(self, path: Path):
        self.path = path
        self.dirty = False
        self.memo: dict[str, str] = {}
        try:
            self.entries = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(self.entries, dict):
                self.entries = {}
        except (OSError, ValueError):
            self.entries = {}

    def __call__(self, path: str | os.PathLike) -> str:
        key = os.fspath(path)
        if key in self.memo:
            return self.memo[key]
        try:
            st = os.stat(key)
        except OSError:
            return self.memo.setdefault(key, deps.ABSENT)
        signature = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        known = self.entries.get(key)
        if known and known[:4] == signature and \
                known[4] - max(st.st_mtime_ns, st.st_ctime_ns) > self.RACY_NS:
            digest = known[5]
        else:
            hashed_at = time.time_ns()
            digest = deps.file_digest(key)
            if digest != deps.ABSENT:
                self.entries[key] = signature + [hashed_at, digest]
                self.dirty = True
        self.memo[key] = digest
        return digest

    def save(self) -> None:
        if not self.dirty:
            return
        from printshop.output import write_atomic

        self.path.parent.mkdir(parents=True, exist_ok=True)
        live = {k: v for k, v in self.entries.items() if os.path.exists(k)}
        write_atomic(self.path, json.dumps(live, separators=(",", ":")).encode("utf-8"))
        self.dirty = False


class BuildCache:
    def __init__(self, out: Path, root: Path):
        self.out = Path(out)
        self.root = Path(root).resolve()
        self.folder = self.out / CACHE_DIR / "products"
        self.digest = Digests(self.out / CACHE_DIR / "stat.json")
        self._listings: dict[tuple, str] = {}
        self._kept: dict[Path, bytes] = {}
        self.manifest_entries: dict = {}  # the manifest's products, as written (set by the plan)

    def keep(self, path: Path, data: bytes) -> None:
        """A file of the cache to write with `save` (a failed build writes nothing)."""
        self._kept[path] = data

    def save(self) -> None:
        from printshop.output import write_atomic

        if not self.out.is_dir():
            return
        self.digest.save()
        for path, data in self._kept.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data)
        self._kept = {}

    # --- paths are stored relative to where they live, so a moved project stays cached ----
    def _store_path(self, path: str) -> str:
        p = Path(path)
        for prefix, base in (("project", self.root), ("templates", BUILTIN_TEMPLATES),
                             ("printshop", PACKAGE_DIR)):
            if p == base or base in p.parents:
                return f"{prefix}:{p.relative_to(base).as_posix()}"
        return f"abs:{path}"

    def _real_path(self, stored: str) -> str:
        prefix, _, rest = stored.partition(":")
        base = {"project": self.root, "templates": BUILTIN_TEMPLATES,
                "printshop": PACKAGE_DIR}.get(prefix)
        return str(base / rest) if base is not None else rest

    def _warning_path(self, path: str) -> str:
        """Where a warning is, as the entry keeps it: a file as the inputs are (the project's
        files relative to it), since the warning is shown again from another folder, or
        after the project moved; a name that is no file ("reference", "--seed") as it is."""
        if "/" in path or os.sep in path:
            return self._store_path(os.path.abspath(path))
        return f"name:{path}"

    def stored_warnings(self, entry: dict) -> list:
        """The warnings of an up-to-date product's last build, each at its file as seen
        from here."""
        from printshop.errors import Problem, display_path

        return [Problem(display_path(self._real_path(path)), message, line, column)
                for path, message, line, column in entry.get("warnings", [])]

    def _shown(self, stored: str) -> str:
        prefix, _, rest = stored.partition(":")
        return {"project": rest, "templates": f"printshop's templates/{rest}",
                "printshop": f"printshop/{rest}"}.get(prefix, rest)

    # --- reading --------------------------------------------------------------------------
    def entry_file(self, name: str) -> Path:
        return self.folder / f"{name}.json"

    def check(self, name: str, key: str) -> Freshness:
        try:
            entry = json.loads(self.entry_file(name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return Freshness(name, False, "not built before")
        if not isinstance(entry, dict) or entry.get("key") != key:
            return Freshness(name, False, "its settings, options or printshop changed")
        for stored, digest in entry.get("files", {}).items():
            if self.digest(self._real_path(stored)) != digest:
                verb = "was added" if digest == deps.ABSENT else (
                    "was removed" if not os.path.exists(self._real_path(stored)) else "changed")
                return Freshness(name, False, f"{self._shown(stored)} {verb}")
        for stored, digest in entry.get("listings", {}).items():
            folder, suffix, recursive = deps.parse_listing_key(stored)
            args = (self._real_path(folder), suffix, recursive)
            if args not in self._listings:
                self._listings[args] = deps.listing_digest(*args)
            if self._listings[args] != digest:
                return Freshness(name, False, f"files were added to or removed from "
                                 f"{self._shown(folder)}/")
        for product, digest in entry.get("entries", {}).items():
            if deps.entry_digest(self.manifest_entries.get(product)) != digest:
                return Freshness(name, False, f"the manifest's entry for {product} changed")
        for output, digest in entry.get("outputs", {}).items():
            if self.digest(self.out / output) != digest:
                return Freshness(name, False, f"{output} is missing or was changed")
        return Freshness(name, True, entry=entry)

    # --- writing (after the outputs are in place) ------------------------------------------
    def store(self, name: str, key: str, recorder: deps.Recorder, outputs: dict[str, bytes],
              warnings: list, extra: dict | None = None) -> None:
        from printshop.output import write_atomic

        listings = {}
        for stored_key, digest in recorder.listings.items():
            folder, suffix, recursive = deps.parse_listing_key(stored_key)
            listings[f"{self._store_path(folder)}|{suffix}|{'r' if recursive else '1'}"] = \
                digest
        entry = {
            "format": FORMAT, "key": key, "product": name,
            "files": {self._store_path(p): d for p, d in sorted(recorder.files.items())},
            "listings": dict(sorted(listings.items())),
            "entries": dict(sorted(recorder.entries.items())),
            "outputs": {o: hashlib.sha256(data).hexdigest() for o, data in
                        sorted(outputs.items())},
            "warnings": [[self._warning_path(str(w.path)), w.message, w.line, w.column]
                         for w in warnings],
            "extra": extra or {},   # what a product keeps for later (the book's page map)
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(self.entry_file(name), json.dumps(entry, indent=1).encode("utf-8"))

    def forget(self, name: str) -> None:
        self.entry_file(name).unlink(missing_ok=True)


def entry_extra(out: Path, name: str) -> dict:
    """What product `name`'s last good build kept (`Product.cache_extra`), or {}."""
    try:
        entry = json.loads((Path(out) / CACHE_DIR / "products" / f"{name}.json")
                           .read_text(encoding="utf-8"))
        return entry.get("extra") or {}
    except (OSError, ValueError, AttributeError):
        return {}



