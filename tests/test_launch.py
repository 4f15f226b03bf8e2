"""The `printshop` command's end (printshop/launch.py `leave`): the process ends as
`sys.exit` would (its status, a message, threads joined, exit handlers run, the output
flushed) without tearing the interpreter down."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import atexit, sys, threading, time
    from printshop.launch import leave

    atexit.register(lambda: print("handler ran", flush=False))
    def late():
        time.sleep(0.2)
        sys.stdout.write("thread finished\\n")
    threading.Thread(target=late).start()
    sys.stdout.write("buffered, not flushed")
    leave({code!r})
    print("never")
""")


def _run(code) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT.format(code=code)],
                          capture_output=True, text=True, timeout=60)


def test_it_leaves_with_the_status_after_threads_handlers_and_output():
    for code, status in ((0, 0), (None, 0), (3, 3)):
        done = _run(code)
        assert done.returncode == status
        assert done.stdout == "buffered, not flushedthread finished\nhandler ran\n"
        assert done.stderr == ""


def test_a_message_is_written_and_the_status_is_1():
    done = _run("printshop: stopped")
    assert done.returncode == 1 and done.stderr == "printshop: stopped\n"


def test_a_command_ends_with_its_status_and_its_output_whole(tmp_path):
    done = subprocess.run([sys.executable, "-m", "printshop", "build", "no-such-product",
                           "--quiet", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode not in (0, None)
    assert done.stderr.endswith("nothing was written\n")
    listed = subprocess.run([sys.executable, "-m", "printshop", "--version"],
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0 and "table-widths" in listed.stdout
    assert listed.stdout.endswith("\n")
