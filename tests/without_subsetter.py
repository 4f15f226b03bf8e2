"""Run a module as if libharfbuzz-subset were not installed (for tests, in a child process).

    python tests/without_subsetter.py MODULE|SCRIPT.py [ARGS...]

Every way a library gets opened here (ctypes, cffi) refuses names containing
"harfbuzz-subset" (or PRINTSHOP_TEST_BLOCK), so printshop.system_check and WeasyPrint see
what a machine without the package sees. PRINTSHOP_TEST_CLOCK_SHIFT (seconds) moves the
clock, to prove that output does not depend on when it is made.
"""

import ctypes
import ctypes.util
import os
import runpy
import sys
import time

import cffi

# Another library may be blocked instead: PRINTSHOP_TEST_BLOCK=pangoft2.
BLOCKED = os.environ.get("PRINTSHOP_TEST_BLOCK", "harfbuzz-subset")


def _refuse(name):
    if name and BLOCKED in str(name):
        raise OSError(f"cannot load library '{name}': blocked by tests/without_subsetter.py")


_cdll_init = ctypes.CDLL.__init__
_find_library = ctypes.util.find_library
_ffi_dlopen = cffi.FFI.dlopen


def cdll_init(self, name, *args, **kwargs):
    _refuse(name)
    _cdll_init(self, name, *args, **kwargs)


def find_library(name):
    return None if BLOCKED in name else _find_library(name)


def ffi_dlopen(self, name, *args, **kwargs):
    _refuse(name)
    return _ffi_dlopen(self, name, *args, **kwargs)


ctypes.CDLL.__init__ = cdll_init
ctypes.util.find_library = find_library
cffi.FFI.dlopen = ffi_dlopen

shift = float(os.environ.get("PRINTSHOP_TEST_CLOCK_SHIFT", "0"))
if shift:
    _time = time.time
    time.time = lambda: _time() + shift

target, sys.argv = sys.argv[1], sys.argv[1:]
if target.endswith(".py"):
    runpy.run_path(target, run_name="__main__")
else:
    runpy.run_module(target, run_name="__main__", alter_sys=True)
