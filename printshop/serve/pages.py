"""serve's HTML pages: the index, a product's preview, the form page. What they show is
filled in and kept up to date by assets/preview.js from the event stream."""

from __future__ import annotations

import html
import json


# --- pages -----------------------------------------------------------------------------------
def _shell(title: str, body: str, data: dict) -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/_assets/preview.css">
<script>window.__printshopPage = {json.dumps(data)};</script>
<script src="/_assets/preview.js" defer></script>
</head><body>
{body}
</body></html>
"""


def index_page(state: dict) -> str:
    """The products (the script fills in thumbnails, pages and warnings as they come)."""
    e = html.escape
    rows = []
    for name in state["products"]:
        files = state["outputs"].get(name) or []
        links = " ".join(f'<a href="/{e(f)}">{e(f)}</a>' for f in files)
        title = state.get("titles", {}).get(name, name)
        rows.append(f'<li class="product-card"><a class="product" href="/preview/{e(name)}">'
                    f'<span class="title">{e(title)}</span></a><span class="facts">{e(name)}'
                    f'</span> <span class="files">{links}</span></li>')
    body = (f'<header><h1>printshop preview</h1><span id="status"></span></header>'
            f'<main class="index"><ul id="products">{"".join(rows)}</ul>'
            '<p class="hint">Pages update by themselves when you save a source file. '
            'For a convention: <a href="/make">roll a pack or build a kit</a>.</p></main>')
    return _shell("printshop preview", body, {"view": "index"})


def offers(server) -> tuple[list[str], list[str], str | None]:
    """(class names, includes, why this game cannot roll characters or None)."""
    from printshop.errors import PrintshopError
    from printshop.project import Project
    from printshop.serve.forms import offers

    try:
        project = Project.load(server.service.source)
        classes, includes = offers(project)
    except PrintshopError as exc:
        return [], [], f"The game has a problem: {exc.problems[0] if exc.problems else ''}"
    why = None if classes else ("This game has no character classes (tables/classes.yaml): "
                                "there is nothing to roll.")
    return classes, includes, why


def make_page(server) -> str:
    from printshop.serve.forms import page

    classes, includes, why_not = offers(server)
    body = ('<header><a href="/">printshop</a> <h1>Roll a pack · Build a kit</h1>'
            '<span id="status"></span></header><main class="make">'
            f'{page(server.form_token, classes, includes, why_not)}</main>')
    return _shell("Roll a pack · Build a kit: printshop", body, {"view": "make"})


def preview_page(name: str, state: dict) -> str:
    body = (f'<header><a href="/">printshop</a> <h1>{html.escape(name)}</h1>'
            f'<nav id="views"></nav><span id="warnings"></span><span id="status"></span>'
            '</header><main id="preview"></main>')
    return _shell(f"{name}: printshop preview", body, {"view": "product", "product": name})
