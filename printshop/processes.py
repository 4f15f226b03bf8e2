"""Whether a process still runs: files named after the process that made them (a build's
temporary files, a worker's font folder) are left alone while it does, removed once it
has ended."""

from __future__ import annotations

import os


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:     # another user's process: running
        return True
    except (OverflowError, ValueError):
        return False
    return True
