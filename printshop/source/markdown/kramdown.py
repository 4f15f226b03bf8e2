"""kramdown (Jekyll) debris, read for what it means:

* `## Heading {#id}` and an attribute line under a block, `{: #id .class }`: the id is the
  heading's (or paragraph's), classes are kept, `.no_toc` leaves the heading out of the
  contents;
* `{:toc}` (usually as the item of a list, `1. TOC` / `{:toc}`): this file's own table of
  contents, printed as a list of links;
* `{::options … /}`, `{::comment} … {:/comment}` and inline `{: … }` spans: dropped.
"""

from __future__ import annotations

import re

from printshop.source.markdown.tokens import previous_block_open

_HEADING_ID_RE = re.compile(r"\s*\{#([^\s}]+)\}\s*$")
_IAL_LINE_RE = re.compile(r"^\{:(?!:)\s*([^}]*)\}\s*$")
_EXTENSION_RE = re.compile(r"\{::(options|nomarkdown)[^}]*/\}|\{::comment\}.*?\{:/comment\}|"
                           r"\{:/?(nomarkdown)?\}", re.S)
_INLINE_IAL_RE = re.compile(r"\{:(?!:)[^}\n]*\}")


def use(md) -> None:
    md.core.ruler.after("block", "kramdown_attributes", _attribute_rule)
    md.add_render_rule("toc", _render_toc)


def parse_attributes(text: str) -> dict:
    """`#id .a .b key="v"` → {"id": ..., "classes": [...], "toc": bool}."""
    text = text.strip()
    return {"id": (re.findall(r"(?:^|\s)#([^\s.#]+)", text) or [None])[0],
            "classes": re.findall(r"(?:^|\s)\.([\w-]+)", text),
            "toc": text == "toc"}


def _attribute_rule(state):
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "inline":
            continue
        opening = tokens[i - 1] if i else None
        if opening is not None and opening.type == "heading_open":
            match = _HEADING_ID_RE.search(token.content)
            if match:
                token.content = token.content[: match.start()]
                opening.meta = {**(opening.meta or {}), "chosen_id": match[1]}
        token.content = _EXTENSION_RE.sub("", token.content)
        lines = token.content.split("\n")
        attrs = None
        if lines and _IAL_LINE_RE.match(lines[-1].strip()):
            attrs = parse_attributes(_IAL_LINE_RE.match(lines[-1].strip())[1])
            lines = lines[:-1]
        token.content = _INLINE_IAL_RE.sub("", "\n".join(lines)).rstrip()
        if attrs is None:
            continue
        if attrs["toc"]:
            _make_toc(tokens, i)
            continue
        target = opening
        if not token.content.strip() and opening is not None and opening.type == "paragraph_open":
            # an attribute line on its own applies to the block before it
            for t in tokens[i - 1:i + 2]:
                t.hidden = True
                t.type = "kramdown_blank"
                t.children = []
            target = previous_block_open(tokens, i - 1)
        if target is not None:
            _apply(target, attrs)


def _apply(token, attrs) -> None:
    if attrs["id"]:
        if token.type == "heading_open":
            token.meta = {**(token.meta or {}), "chosen_id": attrs["id"]}
        else:
            token.attrSet("id", attrs["id"])
    classes = [c for c in attrs["classes"] if c != "no_toc"]
    if "no_toc" in attrs["classes"]:
        token.meta = {**(token.meta or {}), "no_toc": True}
    if classes:
        existing = token.attrGet("class")
        token.attrSet("class", " ".join(filter(None, [existing, *classes])))


def _make_toc(tokens, index) -> None:
    """Replace the list (or paragraph) holding `{:toc}` with a contents token."""
    start = index - 1
    # climb to the outermost list around the marker, if any
    j = start
    while j > 0 and tokens[j - 1].type in ("list_item_open", "bullet_list_open",
                                           "ordered_list_open"):
        j -= 1
    start = j
    opening = tokens[start]
    closing_type = opening.type.replace("_open", "_close")
    end = index + 1
    depth = 0
    for k in range(start + 1, len(tokens)):
        if tokens[k].type == opening.type:
            depth += 1
        elif tokens[k].type == closing_type:
            if depth == 0:
                end = k
                break
            depth -= 1
    for t in tokens[start:end + 1]:
        t.hidden = True
        t.type = "kramdown_blank"
        t.children = []
    opening.type = "toc"
    opening.hidden = False


def _render_toc(self, tokens, idx, options, env):
    headings = [h for h in env.get("file_headings", []) if 2 <= h.level <= 3 and not h.no_toc]
    if not headings:
        return ""
    items = "".join(f'<li class="toc-level-{h.level}"><a href="#{h.id}">{_esc(h.title)}</a></li>'
                    for h in headings)
    return f'<nav class="file-toc"><ul>{items}</ul></nav>\n'


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
