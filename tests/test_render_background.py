"""render/background.py's `import_while_waiting`: the parent's imports for after a render
(pikepdf, which joins the PDFs) are made on a thread once the workers have their tasks, not
before, and a fork waits for them (no child starts with a module's import lock held)."""

from __future__ import annotations

import os
import sys
import threading
import time
from types import SimpleNamespace

from printshop.render import background


def _pool(serial: bool = False):
    event = threading.Event()
    return SimpleNamespace(serial=serial, waiting=lambda: event), event


def test_the_modules_are_imported_once_the_workers_have_their_tasks(tmp_path, monkeypatch):
    (tmp_path / "slow_to_import.py").write_text("import time\ntime.sleep(0.3)\nDONE = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "slow_to_import", raising=False)
    pool, workers_busy = _pool()
    background.import_while_waiting(pool, ("slow_to_import",))
    time.sleep(0.1)
    assert "slow_to_import" not in sys.modules     # the caller still hands out tasks
    workers_busy.set()
    time.sleep(0.1)
    # a fork now waits for the import: the child has the module whole, no lock held
    started = time.monotonic()
    background._before_fork()
    assert time.monotonic() - started > 0.05
    assert sys.modules["slow_to_import"].DONE
    pid = os.fork()
    if pid == 0:
        import slow_to_import  # noqa: F401  (would hang on a lock held by no thread)

        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert status == 0


def test_nothing_is_done_serially_or_when_already_imported(monkeypatch):
    started = []
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self))
    pool, _ = _pool(serial=True)
    background.import_while_waiting(pool, ("not_a_module_anywhere",))
    pool, _ = _pool()
    background.import_while_waiting(pool, ("os", "sys"))
    assert started == []
