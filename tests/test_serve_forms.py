"""serve's form page: "Roll a pack" and "Build a kit" in a real browser (Debian's chromium
driven by Playwright), and every request another page could forge or this page would not
send, refused over HTTP."""

from __future__ import annotations

import http.client
import json
import shutil
from pathlib import Path
from urllib.parse import urlencode

import pytest

from conftest import RULES_SRC, pdf_text
from printshop.serve import Preview
from printshop.serve.made_here import inside
from test_serve import CHROMIUM, CHROMIUM_ARGS, wait_until

MANIFEST = """title: HAMMERCRAWL!
paper: letter
products:
  reference:
    kind: reference
    files:
      reference: [player-reference]
"""


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    """The game with one small product, served (its build is quick)."""
    project = tmp_path_factory.mktemp("desk") / "game"
    shutil.copytree(RULES_SRC, project)
    (project / "printshop.yaml").write_text(MANIFEST)
    running = Preview(project, project / "build", port=0, jobs=1, log=lambda _: None).start()
    try:
        wait_until(lambda: "reference.pdf" in running.service.snapshot()["files"],
                   what="the first build")
        yield running
    finally:
        running.stop()


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


def post(desk, path: str, fields: dict | str, headers: dict | None = None):
    host, port = desk.server.server_address[:2]
    body = fields if isinstance(fields, str) else urlencode(fields, doseq=True)
    sent = {"Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"http://127.0.0.1:{port}", **(headers or {})}
    sent = {k: v for k, v in sent.items() if v is not None}
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request("POST", path, body=body.encode(), headers=sent)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def wait_for_job(page, number: int):
    page.wait_for_selector(f"#job-{number}.done, #job-{number}.failed", timeout=120_000)
    return page.locator(f"#job-{number}")


# --- in a browser -----------------------------------------------------------------------------
def test_roll_a_pack_from_the_browser(browser, desk):
    page = browser.new_page()
    try:
        page.goto(desk.url)
        page.click("text=roll a pack or build a kit")
        page.wait_for_selector("#pack")
        assert page.locator("h2").all_inner_texts()[:2] == ["Roll a pack", "Build a kit"]
        page.fill("#pack input[name=count]", "2")
        page.fill("#pack input[name=seed]", "desk-one")
        page.fill("#pack input[name=classes]", "thief")
        page.click("#pack button")
        job = wait_for_job(page, 1)
        assert "Pack of characters: ready" in job.inner_text(), job.inner_text()
        link = job.locator("a")
        assert link.all_inner_texts() == ["characters-desk-one.pdf"]
        with page.expect_download() as download:
            link.click()
        saved = Path(download.value.path()).read_bytes()
    finally:
        page.close()
    made = desk.service.out / "characters-desk-one.pdf"
    assert saved == made.read_bytes()
    text = pdf_text(made)
    assert "desk-one #1" in text and "desk-one #2" in text and "Thief" in text


def test_build_a_kit_from_the_browser(browser, desk):
    wait_until(lambda: not any(j["status"] in ("queued", "running")
                               for j in desk.service.snapshot()["jobs"]), what="a free desk")
    page = browser.new_page()
    try:
        page.goto(desk.url + "make")
        page.fill("#kit input[name=tables]", "2")
        page.fill("#kit input[name=seats]", "1")
        page.fill("#kit input[name=per_seat]", "1")
        page.fill("#kit input[name=seed]", "desk-kit")
        page.check("#kit input[value=reference]")
        page.click("#kit button")
        number = max(j["id"] for j in desk.service.snapshot()["jobs"])
        job = wait_for_job(page, number)
        shown = job.inner_text()
        assert "Convention kit: ready" in shown, shown
        assert job.locator("a").all_inner_texts() == [
            "kit-desk-kit.pdf", "kit-desk-kit/table-01.pdf", "kit-desk-kit/table-02.pdf",
            "kit-desk-kit/kit.json", "kit-desk-kit/manifest-entry.yaml"]
        assert "table 1: kit-desk-kit/table-01.pdf (1 seat, character #1" in shown
    finally:
        page.close()
    out = desk.service.out
    listing = json.loads((out / "kit-desk-kit" / "kit.json").read_text())
    assert [e["table"] for e in listing["envelopes"]] == [1, 2]
    second = pdf_text(out / "kit-desk-kit" / "table-02.pdf")
    assert "desk-kit #2" in second and "Table 2 · Seat 1" in second
    assert "include: [reference]" in (out / "kit-desk-kit" / "manifest-entry.yaml").read_text()


# --- what is refused ---------------------------------------------------------------------------
def token(desk) -> str:
    return desk.server.form_token


@pytest.mark.parametrize("headers, why", [
    ({"Origin": "https://evil.example"}, "other sites"),
    ({"Origin": None}, "own page only"),
    ({"Host": "evil.example"}, "its own address"),
    ({"Origin": "null"}, "other sites"),
])
def test_a_forged_post_is_refused(desk, headers, why):
    before = desk.service.snapshot()["jobs"]
    status, body = post(desk, "/make/pack", {"token": token(desk), "count": "1"}, headers)
    assert status == 403 and why in body
    assert desk.service.snapshot()["jobs"] == before


@pytest.mark.parametrize("fields, message", [
    ({"count": "1"}, "token is missing"),
    ({"token": "guess", "count": "1"}, "token is missing or out of date"),
])
def test_a_post_without_the_pages_token_is_refused(desk, fields, message):
    status, body = post(desk, "/make/pack", fields)
    assert status == 403 and message in body


@pytest.mark.parametrize("path, fields, message", [
    ("/make/pack", {"count": "1", "out": "/etc"}, "unexpected field 'out'"),
    ("/make/pack", {"count": "501"}, "count: a whole number from 1 to 500, not 501"),
    ("/make/pack", {"count": "0"}, "from 1 to 500, not 0"),
    ("/make/pack", {"count": "1", "seed": "../../x"}, "seed: up to 32 letters"),
    ("/make/pack", {"count": ["1", "2"]}, "field 'count' given 2 times"),
    ("/make/kit", {"tables": "50", "seats": "12", "per_seat": "10"}, "6000 characters"),
    ("/make/kit", {"tables": "51"}, "tables: a whole number from 1 to 50"),
    ("/make/kit", {"tables": "1", "include": "printshop.yaml"}, "'printshop.yaml' is not "
     "offered"),
    ("/make/kit", {"tables": "1", "paper": "a3"}, "paper: letter or a4"),
])
def test_only_the_forms_own_fields_within_bounds(desk, path, fields, message):
    status, body = post(desk, path, {"token": token(desk), **fields})
    assert status == 400 and message in body, body


def test_only_form_posts_to_the_two_forms(desk):
    assert post(desk, "/make/other", {"token": token(desk)})[0] == 404
    status, _ = post(desk, "/make/pack", "{}", {"Content-Type": "application/json"})
    assert status == 400
    status, _ = post(desk, "/make/pack", "x=" + "a" * 20_000)
    assert status == 400


def test_made_files_stay_inside_the_output_folder(tmp_path):
    assert inside(tmp_path, "kit-a/table-01.pdf") == tmp_path / "kit-a" / "table-01.pdf"
    for name in ("../x.pdf", "/etc/passwd", "kit/../../x"):
        with pytest.raises(RuntimeError):
            inside(tmp_path, name)


def test_one_job_at_a_time(desk):
    service = desk.service
    with service.changed:      # as if a job were running
        service.state.jobs.append({"id": 99, "kind": "pack", "status": "running",
                                   "files": [], "lines": [], "problems": []})
    try:
        status, body = post(desk, "/make/pack", {"token": token(desk), "count": "1"})
        assert status == 409 and "busy" in body
    finally:
        with service.changed:
            service.state.jobs = [j for j in service.state.jobs if j["id"] != 99]
