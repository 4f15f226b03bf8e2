"""Obsidian callouts (and GitHub alerts): `> [!note] Title`, folded with `-` or `+`.

The blockquote becomes a labelled box of that kind. A folded callout prints open (paper
cannot fold); the screen edition shows it as `<details>`, closed for `-`.
"""

from __future__ import annotations

import re

_CALLOUT_RE = re.compile(r"^\[!([\w-]+)\]([+-]?)[ \t]*(.*)$")


def use(md, escape) -> None:
    md.core.ruler.after("block", "callouts", _callout_rule)
    md.add_render_rule("callout_open", lambda self, t, i, o, env: _open(t[i], escape, env))
    md.add_render_rule("callout_close", lambda self, t, i, o, env: _close(t[i], env))


def _callout_rule(state):
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "blockquote_open" or i + 2 >= len(tokens):
            continue
        if tokens[i + 1].type != "paragraph_open" or tokens[i + 2].type != "inline":
            continue
        inline = tokens[i + 2]
        first, _, rest = inline.content.partition("\n")
        match = _CALLOUT_RE.match(first.strip())
        if not match:
            continue
        kind, fold, title = match[1].lower(), match[2], match[3].strip()
        token.type = "callout_open"
        token.meta = {**(token.meta or {}), "kind": kind, "fold": fold,
                      "title": title or kind.replace("-", " ").capitalize()}
        depth = 0
        for close in tokens[i + 1:]:
            if close.type == "blockquote_open":
                depth += 1
            elif close.type == "blockquote_close":
                if depth == 0:
                    close.type = "callout_close"
                    close.meta = {"fold": fold}
                    break
                depth -= 1
        if rest.strip():
            inline.content = rest
            if inline.map:
                inline.map = [inline.map[0] + 1, inline.map[1]]
        else:  # the paragraph held only the callout's first line
            for t in tokens[i + 1:i + 4]:
                t.hidden = True
                t.type = "callout_blank"
                t.content = ""
                t.children = []


def _open(token, escape, env) -> str:
    meta = token.meta
    kind = re.sub(r"[^a-z0-9-]", "", meta["kind"])
    line = f' data-line="{token.map[0] + 1}"' if token.map else ""
    title = escape(meta["title"])
    if meta["fold"] and env.get("edition") == "screen":
        opened = " open" if meta["fold"] == "+" else ""
        return (f'<details class="box callout callout-{kind}"{opened}{line}>\n'
                f'<summary class="box-title">{title}</summary>\n')
    return f'<div class="box callout callout-{kind}"{line}>\n<p class="box-title">{title}</p>\n'


def _close(token, env) -> str:
    if token.meta.get("fold") and env.get("edition") == "screen":
        return "</details>\n"
    return "</div>\n"
