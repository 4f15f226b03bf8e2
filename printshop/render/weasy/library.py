"""WeasyPrint imported in a render worker, its C library lookups short-cut on Linux.

Not a patch of WeasyPrint (render/weasy/registry.py lists those): no WeasyPrint code is
changed. Importing WeasyPrint (each render worker does) looks each C library up under the
names it has on Windows and macOS first: every name that fails to load asks
`ctypes.util.find_library`, which on Linux runs ldconfig and the C compiler, ~11 ms a
name and 0.19 s of the 0.5 s import. `import_weasyprint` answers those lookups "not
found" during the import on Linux, where each library is then loaded by its own soname
(libpango-1.0.so.0, the same file ldconfig would have named); if that leaves a library
out (a system that only find_library knows how to reach), WeasyPrint is imported again
the usual way.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys


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


def preload() -> None:
    """WeasyPrint's modules, most of a render worker's start: imported (and patched) once
    in the first worker, before it forks the others (render/job.py `preload`)."""
    import_weasyprint()
    import weasyprint.layout  # noqa: F401
    import weasyprint.pdf  # noqa: F401

    from printshop.render.weasy import registry

    registry.apply_all()
