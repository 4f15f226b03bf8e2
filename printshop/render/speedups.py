"""Fixes for slow paths in the libraries WeasyPrint 70 uses, applied in render workers.

tinyhtml5 2.1.0 caches one compiled regular expression per set of stop characters in
`inputstream.characters_until_regex`, but stores it under the wrong key (its chained
assignment rebinds `characters` to the new regex before the key is made), so the cache
never hits: every text run of every page builds and compiles its regex again, about 2 ms a
character sheet. A dict that builds the missing entry under the right key makes the
library's own lookup hit; the regexes are the same, so the parse is the same.

Importing WeasyPrint (each render worker does) looks each C library up under the names it
has on Windows and macOS first: every name that fails to load asks `ctypes.util.
find_library`, which on Linux runs ldconfig and the C compiler, ~11 ms a name and 0.19 s
of the 0.5 s import. `import_weasyprint` answers those lookups "not found" during the
import on Linux, where each library is then loaded by its own soname (libpango-1.0.so.0,
the same file ldconfig would have named); if that leaves a library out (a system that
only find_library knows how to reach), WeasyPrint is imported again the usual way.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import sys


class _StopCharacterRegexes(dict):
    def __missing__(self, key):
        characters, opposite = key
        pattern = "".join(f"\\x{ord(c):02x}" for c in characters)
        regex = self[key] = re.compile(f"[{'' if opposite else '^'}{pattern}]+")
        return regex


def apply() -> None:
    try:
        from tinyhtml5 import inputstream
    except ImportError:      # another WeasyPrint, another parser: nothing to fix
        return
    if isinstance(getattr(inputstream, "characters_until_regex", None), dict) and \
            not isinstance(inputstream.characters_until_regex, _StopCharacterRegexes):
        inputstream.characters_until_regex = _StopCharacterRegexes()


def import_weasyprint() -> None:
    """Import WeasyPrint, its library lookups short-cut on Linux (see above)."""
    if "weasyprint" in sys.modules or not sys.platform.startswith("linux"):
        importlib.import_module("weasyprint")
        return
    import ctypes.util

    real = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        # WeasyPrint prints its installation help before it gives up: not for this try
        with contextlib.redirect_stdout(io.StringIO()):
            from weasyprint.text import ffi
        complete = ffi.harfbuzz_subset is not None
    except OSError:
        complete = False
    finally:
        ctypes.util.find_library = real
    if not complete:
        for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[name]
    importlib.import_module("weasyprint")
