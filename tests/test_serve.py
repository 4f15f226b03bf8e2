"""`printshop serve`: the server over HTTP, and the preview pages in a real browser (Debian's
chromium driven by Playwright, never a downloaded one)."""

from __future__ import annotations

import http.client
import json
import shutil
import time
from pathlib import Path

import pytest

from printshop import system_check
from printshop.serve import Preview
from test_cache import make_project

CHROMIUM = system_check.CHROMIUM   # `make test` stops first if it is missing
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
LONG_CHAPTER = "# Lore\n\n" + "\n\n".join(
    f"Paragraph {n} of the lore, long enough to make the page scroll a good way down."
    for n in range(1, 120)) + "\n"


def wait_until(predicate, timeout: float = 90, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("serve") / "project")
    (project / "guide" / "03-lore.md").write_text(LONG_CHAPTER)
    running = Preview(project, project / "build", port=0, jobs=1, log=lambda _: None).start()
    try:
        wait_until(lambda: _settled(running, {"book.html", "book.pdf", "deck-a.pdf",
                                              "deck-b.pdf"}), what="the first build")
        yield running
    finally:
        running.stop()


def _settled(preview, files) -> dict | None:
    state = preview.service.snapshot()
    ok = not state["building"] and files <= set(state["files"]) and not state["problems"]
    return state if ok else None


def get(preview, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    host, port = preview.server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


# --- over HTTP ------------------------------------------------------------------------------
def test_binds_to_this_machine_only_by_default(preview):
    assert preview.server.server_address[0] == "127.0.0.1"


def test_serves_every_built_file_at_its_build_name(preview):
    out = preview.service.out
    for name in ("book.pdf", "book.html", "deck-a.pdf"):
        status, headers, body = get(preview, f"/{name}")
        assert status == 200 and body == (out / name).read_bytes()
        assert headers["Cache-Control"] == "no-cache"
    status, _, body = get(preview, "/")
    assert status == 200
    for name in ("/preview/book", "/preview/deck-a", "/preview/deck-b", "/book.pdf"):
        assert f'href="{name}"'.encode() in body


@pytest.mark.parametrize("path", ["/../../etc/passwd", "/..%2f..%2fetc/passwd", "/%2e%2e/x",
                                  "/.printshop-cache/products/book.json", "/printshop.yaml",
                                  "/guide/01-welcome.md", "/../printshop.yaml", "/_assets/x",
                                  "/preview/nope", "/_pages/book.html/1.png", "//etc/passwd"])
def test_serves_nothing_but_the_output(preview, path):
    assert get(preview, path)[0] == 404


def test_pdf_pages_as_images(preview):
    status, _, body = get(preview, "/_pages/book.pdf/index.json")
    pages = json.loads(body)["pages"]
    assert status == 200 and len(pages) >= 2 and pages[0] == [765, 990]  # Letter at 90 dpi
    status, headers, image = get(preview, "/_pages/book.pdf/1.png")
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert image.startswith(b"\x89PNG")
    assert get(preview, f"/_pages/book.pdf/{len(pages) + 1}.png")[0] == 404


def test_events_stream_the_build_state(preview):
    host, port = preview.server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.request("GET", "/_events")
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    assert response.readline() == b"event: state\n"
    state = json.loads(response.readline().removeprefix(b"data: "))
    connection.close()
    assert state["outputs"]["book"] == ["book.html", "book.manifest.json", "book.pdf"]
    assert state["problems"] == []


# --- the book stays on this machine (DNS rebinding, other sites' pages) --------------------
PRIVATE = ["/", "/book.pdf", "/book.html", "/preview/book", "/_events",
           "/_pages/book.pdf/index.json", "/_pages/book.pdf/1.png", "/_assets/preview.js"]


@pytest.mark.parametrize("path", PRIVATE)
@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example",
                                  "localhost.evil.example:{port}", "", "[::2]:{port}"])
def test_a_request_for_another_host_name_is_refused(preview, path, host):
    """`curl -H "Host: evil.example" http://127.0.0.1:8000/book.pdf`: what a page of
    evil.example sends once its name points at 127.0.0.1."""
    port = preview.server.server_address[1]
    status, headers, body = get(preview, path, {"Host": host.format(port=port)})
    assert status == 403 and body.startswith(b"forbidden: this server answers only")
    assert b"%PDF" not in body and b"Lore" not in body and b"event: state" not in body
    assert not [h for h in headers if h.lower().startswith("access-control-")]


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LocalHost:{port}",
                                  "[::1]:{port}", "127.0.0.1"])
def test_its_own_names_are_answered(preview, host):
    port = preview.server.server_address[1]
    status, headers, body = get(preview, "/book.pdf", {"Host": host.format(port=port)})
    assert status == 200 and body == (preview.service.out / "book.pdf").read_bytes()


@pytest.mark.parametrize("origin", ["https://evil.example", "http://evil.example:{port}",
                                    "null", "http://localhost:1", "https://127.0.0.1:{port}"])
@pytest.mark.parametrize("path", ["/book.pdf", "/_events", "/"])
def test_a_request_from_another_sites_page_is_refused(preview, origin, path):
    port = preview.server.server_address[1]
    status, headers, body = get(preview, path, {"Origin": origin.format(port=port)})
    assert status == 403 and b"other sites" in body
    assert not [h for h in headers if h.lower().startswith("access-control-")]


def test_its_own_pages_origin_is_answered_without_cors_headers(preview):
    port = preview.server.server_address[1]
    for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
        status, headers, _ = get(preview, "/_pages/book.pdf/index.json", {"Origin": origin})
        assert status == 200
        assert not [h for h in headers if h.lower().startswith("access-control-")]
        assert headers["Cross-Origin-Resource-Policy"] == "same-origin"


def test_a_wildcard_address_answers_to_numbers_and_this_machines_names():
    import socket

    from printshop.serve.http import own_host_names

    class Server:       # PreviewServer's checks without a socket
        from printshop.serve.http import PreviewServer
        own_host = PreviewServer.own_host
        own_origin = PreviewServer.own_origin
        server_address = ("0.0.0.0", 8000)
        hosts = own_host_names("0.0.0.0")

    lan = Server()
    for good in ("192.168.1.7:8000", "10.0.0.2", "[fe80::1]:8000", "localhost:8000",
                 f"{socket.gethostname()}:8000"):
        assert lan.own_host(good), good
    for bad in ("evil.example:8000", "192.168.1.7.nip.io:8000", ""):
        assert not lan.own_host(bad), bad
    assert lan.own_origin("http://192.168.1.7:8000")
    assert not lan.own_origin("http://192.168.1.7:8001")
    named = own_host_names("desk.example")
    assert "desk.example" in named and "*" not in named


# --- in a browser -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_preview(browser, preview, product: str, view: str = ""):
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.goto(f"{preview.url}preview/{product}{view}")
    page.wait_for_function("document.body.dataset.version !== undefined", timeout=30_000)
    return page


def frame_text(page) -> str:
    return page.evaluate("document.querySelector('#preview iframe.current')"
                         ".contentDocument.body.innerText")


def test_the_preview_shows_the_html_edition(browser, preview):
    page = open_preview(browser, preview, "book")
    try:
        text = frame_text(page)
        assert "Read the omens" in text and "Paragraph 100 of the lore" in text
        assert page.locator("#views a").all_inner_texts() == ["HTML edition", "book.pdf"]
        assert page.locator("#printshop-overlay").count() == 0
    finally:
        page.close()


def test_a_saved_chapter_appears_in_place_at_the_same_scroll_position(browser, preview):
    page = open_preview(browser, preview, "book")
    try:
        page.evaluate("document.querySelector('#preview iframe.current')"
                      ".contentWindow.scrollTo(0, 1500)")
        before = page.evaluate("window.__printshop.swaps")
        chapter = preview.service.source / "guide" / "03-lore.md"
        chapter.write_text(LONG_CHAPTER.replace("Paragraph 3 of", "Paragraph three of"))
        page.wait_for_function(f"window.__printshop.swaps > {before}", timeout=60_000)
        assert "Paragraph three of the lore" in frame_text(page)
        scrolled = page.evaluate("document.querySelector('#preview iframe.current')"
                                 ".contentWindow.scrollY")
        assert scrolled == pytest.approx(1500, abs=2)
        assert page.evaluate("document.querySelectorAll('#preview iframe').length") == 1
    finally:
        page.close()


def test_a_broken_yaml_file_shows_an_overlay_until_it_is_fixed(browser, preview):
    page = open_preview(browser, preview, "book")
    table = preview.service.source / "tables" / "omens.yaml"
    good = table.read_text()
    try:
        table.write_text(good + "rows: [\n")
        overlay = page.locator("#printshop-overlay")
        overlay.wait_for(timeout=60_000)
        text = overlay.inner_text()
        assert "omens.yaml:8:7: error: this [ is never closed" in text
        assert "Read the omens" in frame_text(page)  # the last good page stays under it
        table.write_text(good)
        overlay.wait_for(state="detached", timeout=60_000)
    finally:
        table.write_text(good)
        page.close()


def test_pdf_pages_update_in_place(browser, preview):
    wait_until(lambda: _settled(preview, {"deck-a.pdf"}), what="a quiet build")
    page = open_preview(browser, preview, "deck-a")
    try:
        page.wait_for_function("[...document.querySelectorAll('.pages img')]"
                               ".every(i => i.complete && i.naturalWidth > 0)", timeout=30_000)
        first = page.get_attribute("#page-1", "src")
        deck = preview.service.source / "decks" / "alpha.yaml"
        deck.write_text(deck.read_text().replace("Second Card", "Other Card"))
        page.wait_for_function(f"document.querySelector('#page-1').getAttribute('src')"
                               f" !== {json.dumps(first)}", timeout=60_000)
        assert page.locator(".pages img").count() == 2
    finally:
        page.close()


def test_a_saved_chapter_shows_alone_first_then_the_whole_book(browser, preview):
    wait_until(lambda: _settled(preview, {"book.pdf"}), what="a quiet build")
    page = open_preview(browser, preview, "book", "#book.pdf")
    try:
        page.wait_for_function("document.querySelectorAll('.pages img').length > 2",
                               timeout=30_000)
        whole = page.locator(".pages img").count()
        before = preview.service.snapshot()["files"]["book.pdf"]
        chapter = preview.service.source / "guide" / "03-lore.md"
        chapter.write_text(LONG_CHAPTER.replace("Paragraph 7 of", "Paragraph seven of"))
        # the chapter's pages alone first, in place of its pages in the book, said so
        page.wait_for_function("window.__printshop.notes.length > 0", timeout=60_000)
        note = page.evaluate("window.__printshop.notes[0]")
        assert note.startswith("Chapter 3 only (“Lore”, pages ") and "rendering" in note
        page.wait_for_function("window.__printshop.alone.length > 0", timeout=30_000)
        assert page.evaluate("window.__printshop.alone[0]") >= 2   # its pages, outlined
        # then the whole book replaces it
        page.wait_for_function(f"window.__printshop.state.files['book.pdf'] !== "
                               f"{json.dumps(before)} && !document.querySelector("
                               "'#chapter-note')", timeout=90_000)
        page.wait_for_function("!document.querySelector('.pages img.chapter-alone')",
                               timeout=30_000)
        assert page.locator(".pages img").count() == whole
        assert preview.service.snapshot()["previews"] == {}
    finally:
        page.close()


def test_the_index_lists_each_product_with_title_first_page_and_pages(browser, preview):
    from conftest import pdf_reader

    wait_until(lambda: _settled(preview, {"book.pdf", "deck-a.pdf"}), what="a quiet build")
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    try:
        page.goto(preview.url)
        page.wait_for_function("document.querySelectorAll('#products .thumb img').length == 3"
                               " && [...document.querySelectorAll('#products .thumb img')]"
                               ".every(i => i.complete && i.naturalWidth > 0)",
                               timeout=30_000)
        cards = page.locator("#products li.product-card")
        assert cards.locator(".title").all_inner_texts() == ["Tiny Game", "Deck a", "Deck b"]
        out = preview.service.out
        for n, name in enumerate(("book", "deck-a", "deck-b")):
            pages = len(pdf_reader(out / f"{name}.pdf").pages)
            assert cards.nth(n).locator(".facts").inner_text() == \
                f"{name} · {pages} page{'s' if pages != 1 else ''}"
        width = page.evaluate("document.querySelector('#products .thumb img').naturalWidth")
        assert width == 184   # Letter at 22 dpi: a thumbnail, not the page
    finally:
        page.close()


def test_warnings_show_in_the_browser_until_they_are_fixed(browser, preview):
    """A dangling link is a warning: the terminal says it, and so do the pages (a badge on
    the index's product and on its own page, the list on click), not 'up to date'."""
    wait_until(lambda: _settled(preview, {"book.pdf"}), what="a quiet build")
    chapter = preview.service.source / "guide" / "03-lore.md"
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    try:
        chapter.write_text(LONG_CHAPTER + "\nSee [[The Lost Vault]].\n")
        page.goto(preview.url)
        badge = page.locator("#product-book .badge")
        badge.wait_for(timeout=60_000)
        assert badge.inner_text() == "1 warning"
        assert page.locator("#product-deck-a .badge").count() == 0
        page.wait_for_function("document.querySelector('#status').textContent == "
                               "'up to date, 1 warning'", timeout=60_000)
        listed = page.locator("#warnings-book")
        assert listed.is_hidden()
        badge.click()
        assert listed.is_visible()
        line = listed.inner_text()
        assert "03-lore.md:" in line and ": warning: cross-reference [[The Lost Vault]]" in line
        product = open_preview(browser, preview, "book")
        try:
            product.locator("#warnings .badge").click()
            assert "[[The Lost Vault]]" in product.locator("#warning-list").inner_text()
            chapter.write_text(LONG_CHAPTER)
            product.locator("#warnings .badge").wait_for(state="detached", timeout=60_000)
            assert product.locator("#status").inner_text() in ("up to date", "building…")
        finally:
            product.close()
    finally:
        chapter.write_text(LONG_CHAPTER)
        page.close()


def test_the_terminal_says_each_problem_once_while_it_lasts(tmp_path):
    from printshop.errors import Problem
    from printshop.serve.service import BuildService

    said = []
    service = BuildService(tmp_path, tmp_path / "build", log=said.append)
    problem = Problem("tables/omens.yaml", "this [ is never closed", 8, 7)
    for _ in range(3):   # the HTML edition, the whole product, another product
        service._say([problem], [])
    assert said == ["tables/omens.yaml:8:7: error: this [ is never closed"]
    service._forget_fixed()      # fixed (no product has it now): said again if it returns
    service._say([problem], [])
    assert len(said) == 2


def test_a_chapter_preview_is_served_only_while_there_is_one(preview):
    wait_until(lambda: _settled(preview, {"book.pdf"}), what="a quiet build")
    assert get(preview, "/_pages/_preview/book.pdf/index.json")[0] == 404
    assert get(preview, "/_pages/_preview/../book.pdf/1.png")[0] == 404


def test_the_server_stops(tmp_path):
    project = make_project(tmp_path / "project")
    shutil.rmtree(project / "decks")
    (project / "printshop.yaml").write_text("title: T\nproducts:\n  book: {kind: guide}\n")
    running = Preview(project, project / "build", port=0, log=lambda _: None).start()
    host, port = running.server.server_address[:2]
    running.stop()
    with pytest.raises(OSError):
        http.client.HTTPConnection(host, port, timeout=2).request("GET", "/")


def test_serve_help_has_examples():
    from conftest import run_cli

    result = run_cli("serve", "--help")
    assert result.exit_code == 0
    assert "printshop serve rules            # only the book" in result.output
    assert "--host" in result.output and "127.0.0.1" in result.output
    assert "alone first" in result.output and "/preview/rules#rules.pdf" in result.output
    assert "/make" in result.output and "Host" in result.output


@pytest.mark.parametrize("signals", [1, 200])
def test_serve_stops_on_sigterm_even_when_more_arrive(tmp_path, signals):
    """SIGTERM stops serve as Ctrl-C does (exit 0), however many arrive. A process manager
    and a wrapper (`timeout`, a shell) may each pass one on: one arriving while the handler
    of the one before held a lock hung serve for ever (seen once; the window is
    microseconds wide, so this sends many, a little apart), and one arriving while it
    stopped ended it at once (-SIGTERM), before it had stopped its workers itself."""
    import os
    import signal
    import subprocess
    import sys

    project = make_project(tmp_path / "project")
    shutil.rmtree(project / "decks")
    (project / "printshop.yaml").write_text("title: T\nproducts:\n  book: {kind: guide}\n")
    process = subprocess.Popen(
        [sys.executable, "-m", "printshop", "serve", "--port", "0", "-j", "1",
         "--source", str(project)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)
    try:
        for line in process.stdout:     # the preview is up, and the first build is done
            if "built in" in line or "up to date" in line:
                break
        for _ in range(signals):
            if process.poll() is not None:
                break
            os.kill(process.pid, signal.SIGTERM)
            time.sleep(0.0005)
        assert process.wait(timeout=40) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
