"""A pytest plugin for WeasyPrint's own test suite (tools/weasyprint_suite.py loads it with
`-p weasyprint_suite_plugin`): WeasyPrint patched as a printshop render worker patches it,
and every test's outcome written to $PRINTSHOP_SUITE_OUTCOMES as JSON.

The patches are those `registry.apply_all` installs, as `PRINTSHOP_WEASYPRINT_PATCHES`
says (the run without them sets it to `off`: everything else is the same in both runs).
A worker also loads the hyphenation patterns before its first job, and so does this.

WeasyPrint's suite draws PDFs to PNG with Ghostscript (.ci/run installs it). Where `gs` is
not installed its pages are drawn with poppler's pdftoppm (a printshop test dependency)
at the same resolution, without antialiasing: poppler smooths scaled images and blends
gradients otherwise, so about 450 drawing tests then fail with and without the patches
alike and judge nothing.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tempfile

_outcomes: dict[str, str] = {}


def pytest_configure(config):
    from printshop.render.weasy import hyphenation, library, registry

    library.preload()              # WeasyPrint imported, every patch not switched off
    hyphenation.load("en")
    config.printshop_statuses = registry.report()


def pytest_report_header(config):
    statuses = config.printshop_statuses
    active = [s.name for s in statuses if s.state == "active"]
    return [f"printshop: {len(active)} of {len(statuses)} WeasyPrint patches active: "
            + (", ".join(active) or "none")]


def pytest_collection_modifyitems(session, config, items):
    # (WeasyPrint's conftest, imported by now, sets Document.write_png)
    if shutil.which("gs") is None:
        from weasyprint.document import Document

        Document.write_png = _write_png_with_poppler


def _write_png_with_poppler(document, target=None, resolution=96, antialiasing=1,
                            zoom=4 / 30, split_images=False):
    """WeasyPrint's conftest `document_write_png`, with pdftoppm in place of gs."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        pdf = os.path.join(folder, "document.pdf")
        document.write_pdf(pdf, zoom=zoom)
        aa = "yes" if antialiasing > 1 else "no"
        subprocess.run(["pdftoppm", "-png", "-r", str(resolution / zoom), "-aa", aa,
                        "-aaVector", aa, pdf, os.path.join(folder, "page")], check=True)
        pages = sorted(name for name in os.listdir(folder) if name.endswith(".png"))
        images = [open(os.path.join(folder, name), "rb").read() for name in pages]
    if split_images:
        return images
    if len(images) == 1:
        png = images[0]
    else:
        opened = [Image.open(io.BytesIO(image)).convert("RGBA") for image in images]
        width = max(image.width for image in opened)
        output = Image.new("RGBA", (width, sum(image.height for image in opened)))
        top = 0
        for image in opened:
            output.paste(image, (int((width - image.width) / 2), top))
            top += image.height
        buffer = io.BytesIO()
        output.save(buffer, format="png")
        png = buffer.getvalue()
    if target is None:
        return png
    if hasattr(target, "write"):
        target.write(png)
    else:
        with open(target, "wb") as file:
            file.write(png)


def pytest_runtest_logreport(report):
    if report.when == "setup" and report.skipped:
        _outcomes[report.nodeid] = "skipped"
    elif report.failed:
        if _outcomes.get(report.nodeid) not in ("failed", "error"):
            _outcomes[report.nodeid] = "error" if report.when != "call" else "failed"
    elif report.when == "call":
        if hasattr(report, "wasxfail"):
            _outcomes[report.nodeid] = "xfailed" if report.skipped else "xpassed"
        else:
            _outcomes[report.nodeid] = "skipped" if report.skipped else "passed"


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("PRINTSHOP_SUITE_OUTCOMES")
    if path:
        with open(path, "w", encoding="utf-8") as file:
            json.dump(dict(sorted(_outcomes.items())), file, indent=0)
