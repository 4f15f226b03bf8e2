"""The English hyphenation patterns, read from a cache instead of parsed every start.

Every product's templates are in English and hyphenate, so the first render worker loads
pyphen's English patterns before it forks the others (render/job.py `preload`). Parsing
the dictionary is a Python loop over its 4,900 lines, 0.06 s of every rendering command's
start before its first page could render. The patterns it makes are written once, as JSON
(a data format: nothing in it runs when read), to the user's cache folder
(`$XDG_CACHE_HOME/printshop`, else `~/.cache/printshop`), named by the dictionary's
content and pyphen's version; later starts read them in a fifth of the time. A cache
that cannot be read or written is passed over: the dictionary is parsed, as before.

The patterns are put where pyphen keeps them (`pyphen.hdcache`, in a `HyphDict` made
without its own parse): the patch `hyphenation-cache` of render/weasy/registry.py, used
only on the pyphen it was written against.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from printshop import user_cache
from printshop.render.weasy import registry
from printshop.render.weasy.registry import Patch

PATCH = Patch(
    name="hyphenation-cache",
    kind="speed",
    # the attributes a HyphDict's own parse sets, which `load` sets from the cache
    targets={"pyphen.HyphDict.__init__": "ded3bdcdf58f9d38"},
    why="pyphen parses its English dictionary (4,900 lines, a Python loop) at every "
        "worker's start",
    gain="3.4 % of the Event Deck's cold-build CPU",
)


def load(lang: str = "en") -> None:
    """pyphen's patterns for `lang` in its own cache (`pyphen.hdcache`), as
    `pyphen.Pyphen(lang=lang)` leaves them."""
    import pyphen

    if not registry.active(PATCH.name):
        pyphen.Pyphen(lang=lang)     # parsed, as pyphen does
        return
    path = pyphen.LANGUAGES.get(pyphen.language_fallback(lang))
    if path is None or path in pyphen.hdcache:
        return
    try:
        text = Path(path).read_bytes()
    except OSError:
        return
    key = hashlib.sha256(text + getattr(pyphen, "VERSION", "").encode()).hexdigest()[:20]
    cached = user_cache.folder(f"hyphenation-{key}.json")
    patterns = _read(cached)
    if patterns is not None:
        made = pyphen.HyphDict.__new__(pyphen.HyphDict)
        made.patterns, made.cache = patterns, {}
        made.maxlen = max(len(key) for key in patterns)
        pyphen.hdcache[path] = made
        return
    parsed = pyphen.Pyphen(lang=lang).hd
    _write(cached, parsed.patterns)


def _read(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        patterns = {str(key): (int(start), tuple(int(v) for v in values))
                    for key, (start, values) in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    return patterns or None


def _write(path: Path, patterns: dict) -> None:
    # patterns with pyphen's non-standard alternatives (DataInt) do not round-trip
    if not all(type(v) is int for _, values in patterns.values() for v in values):
        return
    data = json.dumps({key: [start, list(values)] for key, (start, values) in patterns.items()})
    user_cache.write_atomically(path, data.encode("utf-8"))
