"""Obsidian links: `[[Note]]`, `[[Note|shown text]]`, `[[Note#Heading]]`, `[[#Heading]]`,
`[[Note#^block]]`, image embeds `![[map.png]]`, and block ids (`^abc` ending a paragraph).

printshop's own cross-references use the same brackets: `[[Experience]]` names a section by
its title or id. Which one a target is gets decided by the reader, which knows every file
and heading (see links.py): a note (file name) first, then a heading.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from printshop.source.markdown.tokens import previous_block_open

_BLOCK_ID_RE = re.compile(r"(?:^|\s)\^([A-Za-z0-9-]+)\s*$")


def use(md) -> None:
    md.inline.ruler.before("link", "xref", _xref_rule)
    md.inline.ruler.before("image", "embed", _embed_rule)
    md.core.ruler.after("block", "block_ids", _block_id_rule)


def parse_target(body: str) -> dict:
    target, _, label = body.partition("|")
    target = " ".join(target.split())
    note, _, fragment = target.partition("#")
    return {"target": target, "note": note.strip(), "fragment": fragment.strip(),
            "label": " ".join(label.split())}


def _bracketed(state, start: int) -> str | None:
    src = state.src
    if not src.startswith("[[", start):
        return None
    end = src.find("]]", start + 2)
    if end < 0:
        return None
    body = src[start + 2:end]
    if not body.strip() or "\n\n" in body or "[" in body:
        return None
    return body


def _xref_rule(state, silent):
    body = _bracketed(state, state.pos)
    if body is None:
        return False
    if not silent:
        token = state.push("xref", "", 0)
        token.meta = {**parse_target(body), "written": f"[[{body}]]",
                      "line_offset": state.src[:state.pos].count("\n")}
    state.pos += len(body) + 4
    return True


def _embed_rule(state, silent):
    if not state.src.startswith("![[", state.pos):
        return False
    body = _bracketed(state, state.pos + 1)
    if body is None:
        return False
    if not silent:
        parts = parse_target(body)
        name = parts["note"]
        if re.search(r"\.(png|jpe?g|gif|webp|svg)$", name, re.I):
            token = state.push("image", "img", 0)
            alt = parts["label"] if parts["label"] and not parts["label"].isdigit() else ""
            token.attrs = {"src": name, "alt": ""}
            token.content = alt
            child = Token("text", "", 0, content=alt)
            token.children = [child]
            token.meta = {"line_offset": state.src[:state.pos].count("\n"), "embed": True}
        else:  # an embedded note prints as a reference to it
            token = state.push("xref", "", 0)
            token.meta = {**parts, "line_offset": state.src[:state.pos].count("\n")}
    state.pos += len(body) + 5
    return True


def _block_id_rule(state):
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "inline" or i == 0 or tokens[i - 1].type not in (
                "paragraph_open", "heading_open"):
            continue
        match = _BLOCK_ID_RE.search(token.content)
        if not match:
            continue
        token.content = token.content[: match.start()].rstrip()
        target = tokens[i - 1]
        if not token.content and target.type == "paragraph_open":
            # `^abc` on a line of its own names the block before it (a list, a table …)
            for t in tokens[i - 1:i + 2]:
                t.hidden = True
                t.type = "block_id_blank"
                t.children = []
            target = previous_block_open(tokens, i - 1)
        if target is not None:
            target.meta = {**(target.meta or {}), "block_id": match[1]}


