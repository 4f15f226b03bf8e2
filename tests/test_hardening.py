"""Hostile and broken input at render level: nothing leaks, nothing hangs, nothing half-written.

Every build here goes through the real command line in a small project, so the whole
contract is checked: exit 2, one readable line per problem, no traceback, the output
folder exactly as before.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO, folder_snapshot, run_cli

SECRET = b"TOP-SECRET-7f3a9c"


def project(tmp_path, markdown="# One\n\nHello.\n", raw_html=False, css=None, template=None,
            name="proj"):
    root = tmp_path / name
    (root / "templates" / "css").mkdir(parents=True)
    (root / "printshop.yaml").write_text(
        f"title: Tiny\nraw_html: {'true' if raw_html else 'false'}\nproducts:\n  book:\n"
        "    kind: guide\n    chapters: .\n    print_every_table: false\n", encoding="utf-8")
    (root / "one.md").write_text(markdown, encoding="utf-8")
    if css is not None:
        (root / "templates" / "css" / "book.css").write_text(
            (REPO / "templates" / "css" / "book.css").read_text() + "\n" + css)
    if template is not None:
        (root / "templates" / "guide.html.j2").write_text(template)
    (tmp_path / "secret.txt").write_bytes(SECRET)
    return root


def fails(root, out, *args, code=2):
    out.mkdir(exist_ok=True)
    (out / "old.pdf").write_bytes(b"%PDF old")
    before = folder_snapshot(out)
    result = run_cli("build", "--source", root, "--out", out, "--uncompressed", *args)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert folder_snapshot(out) == before
    return result.output


def no_secret_anywhere(*folders):
    for folder in folders:
        for path in Path(folder).rglob("*"):
            if path.is_file() and path.name != "secret.txt":
                assert SECRET not in path.read_bytes(), f"secret leaked into {path}"


@pytest.mark.parametrize("html", [
    '<img src="../secret.txt">',
    '<img src="file:///{secret}">',
    '<link rel="attachment" href="../secret.txt">',
    '<base href="file:///{parent}/"><img src="secret.txt">',
    '<img src="%2e%2e/secret.txt">',
])
def test_raw_html_cannot_read_files_outside_even_when_allowed(tmp_path, html):
    html = html.format(secret=str(tmp_path / "secret.txt").lstrip("/"),
                       parent=str(tmp_path).lstrip("/"))
    root = project(tmp_path, f"# One\n\n{html}\n", raw_html=True)
    output = fails(root, tmp_path / "out")
    assert "refused to load" in output and ("outside the project" in output or
                                            "not found" in output)
    no_secret_anywhere(tmp_path / "out", root)


def test_css_import_and_font_face_from_outside_are_refused(tmp_path):
    root = project(tmp_path, css=f'@import url({(tmp_path / "secret.txt").as_uri()});\n'
                   f'@font-face {{ font-family: Leak; src: url(../../../secret.txt); }}\n')
    output = fails(root, tmp_path / "out")
    assert output.count("book.css:") >= 2 and "outside the project" in output
    no_secret_anywhere(tmp_path / "out", root)


@pytest.fixture
def listener():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.setblocking(False)
    yield server
    server.close()


def connections(server) -> int:
    count = 0
    while True:
        try:
            conn, _ = server.accept()
            conn.close()
            count += 1
        except BlockingIOError:
            return count


def test_network_urls_are_refused_before_any_connection(tmp_path, listener):
    port = listener.getsockname()[1]
    url = f"http://127.0.0.1:{port}/x.png"
    cases = [
        project(tmp_path, f"# A\n\n![x]({url})\n", name="md"),
        project(tmp_path, f'# A\n\n<img src="{url}">\n', raw_html=True, name="html"),
        project(tmp_path, css=f"@import url({url});\n", name="css"),
        project(tmp_path, template=f'<html><body><img src="{url}"><h1>x</h1></body></html>',
                name="tpl"),
    ]
    for root in cases:  # strict: a refused Markdown image is otherwise a placeholder box
        output = fails(root, tmp_path / f"out-{root.name}", "--strict")
        assert "network" in output or "refused" in output, output
    time.sleep(0.2)
    assert connections(listener) == 0


def test_deep_nesting_is_reported_not_crashed(tmp_path):
    nested = "<div>" * 200 + "deep" + "</div>" * 200
    root = project(tmp_path, f"# One\n\n{nested}\n", raw_html=True)
    output = fails(root, tmp_path / "out")
    assert "nesting too deep in" in output


def test_css_that_never_finishes_is_stopped_by_the_time_limit(tmp_path):
    lines = [":root { --a0: x x x x x x x x x x; }"]
    for i in range(1, 30):
        ref = f"var(--a{i - 1})"
        lines.append(f":root {{ --a{i}: {' '.join([ref] * 10)}; }}")
    lines.append("p { font-family: var(--a29); }")
    root = project(tmp_path, css="\n".join(lines))
    started = time.monotonic()
    output = fails(root, tmp_path / "out", "--timeout", "3")
    assert "render timed out after 3 s in" in output
    assert time.monotonic() - started < 30


def test_image_naming_a_fifo_is_refused_at_once(tmp_path):
    root = project(tmp_path, "# One\n\n![pipe](pipe.png)\n")
    os.mkfifo(root / "pipe.png")
    started = time.monotonic()
    output = fails(root, tmp_path / "out", "--strict")
    assert "not a regular file" in output and time.monotonic() - started < 10


def test_decompression_bomb_image_is_refused_before_decoding(tmp_path):
    from test_render_fetcher import tiny_png

    root = project(tmp_path, "# One\n\n![bomb](bomb.png)\n")
    (root / "bomb.png").write_bytes(tiny_png(20000, 20000))
    output = fails(root, tmp_path / "out", "--strict")
    assert "one.md:3:9: error: image 'bomb.png': bomb.png is 20000×20000 pixels" in output


def test_killing_the_render_process_leaves_yesterdays_output(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "foreign-manuscript.pdf").write_bytes(b"%PDF yesterday")
    before = folder_snapshot(out)
    process = subprocess.Popen(
        [sys.executable, "-m", "printshop", "build", "--source",
         str(FIXTURES / "foreign-manuscript"), "--out", str(out), "-j", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    def children() -> set[int]:
        listed = Path(f"/proc/{process.pid}/task/{process.pid}/children")
        return {int(i) for i in listed.read_text().split()} if listed.exists() else set()

    # killed while it renders (a worker killed while idle is replaced, and the build goes
    # on): the build says when it hands the book's first pass to its one worker
    said = []
    for line in process.stderr:
        said.append(line)
        if "finding the page of every reference" in line:
            break
    assert said and "finding the page" in said[-1], "".join(said)
    # the render worker; short-lived children (the library look-ups of the system check
    # fork and exec) are gone by the next look
    first = children()
    time.sleep(0.2)
    lasting = first & children()
    assert lasting, "the build has no render process"
    child = min(lasting)
    os.kill(child, signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=60)
    stderr = "".join(said) + stderr
    assert process.returncode == 2, stderr
    assert "render process died" in stderr and "Traceback" not in stderr
    assert folder_snapshot(out) == before


@pytest.mark.parametrize("folder", ["with spaces", "näme-ünïcode", "100% done"])
def test_project_paths_with_spaces_accents_and_percent_build(tmp_path, folder):
    root = project(tmp_path / folder, "# One\n\n![pic](pic.png)\n")
    from test_render_fetcher import tiny_png

    (root / "pic.png").write_bytes(tiny_png(4, 4))
    result = run_cli("build", "--source", root, "--out", tmp_path / folder / "out", "--strict")
    assert result.exit_code == 0, result.output
    assert (tmp_path / folder / "out" / "book.pdf").stat().st_size > 1000
    html = (tmp_path / folder / "out" / "book.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in html and "file:" not in html


def test_css_mistakes_are_warnings_naming_the_file_and_fail_strict(tmp_path):
    """WeasyPrint logs only line:col for a bad declaration; the user gets the file too, and
    a font-family no bundled font provides (WeasyPrint is silent) is reported as well."""
    root = project(tmp_path, css="h1 { colour: red; }\np { margin: 1xx; }\n"
                                 "em { font-family: Comic Sans MS; }\n")
    lines = (root / "templates" / "css" / "book.css").read_text().splitlines()
    colour_line = lines.index("h1 { colour: red; }") + 1
    out = tmp_path / "out"
    result = run_cli("build", "--source", root, "--out", out)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if ": warning: " in line]
    assert len(warnings) == 3, result.output
    assert any(f"book.css:{colour_line}:" in w and "colour" in w for w in warnings), warnings
    assert any(f"book.css:{colour_line + 1}:" in w and "1xx" in w for w in warnings), warnings
    assert any(f"book.css:{colour_line + 2}:" in w and "Comic Sans MS" in w for w in warnings)
    output = fails(root, tmp_path / "strict-out", "--strict")
    assert "colour" in output and "Traceback" not in output
