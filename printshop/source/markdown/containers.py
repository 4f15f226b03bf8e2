"""`:::name Title … :::` containers (pandoc fenced divs, Docusaurus admonitions, printshop's
boxes) and `::name[argument]{key="value"}` directives on a line of their own.

Every container becomes a labelled box: printshop's own kinds (note, sidebar, optional,
example), the common admonitions (tip, warning …) with their usual label, and any other
name as a box labelled with that name made readable, never as literal colons.

A container that is never closed would run to the end of the file, and every one opened
after it would nest inside it (mkdocstrings' `::: module.Class.method` lines, which are not
containers, made eleven pages of nested boxes in MkDocs' own documentation): `prescan`
prints such an opening line as text, with a warning at it.
"""

from __future__ import annotations

import re

from mdit_py_plugins.container import container_plugin

from printshop.source.markdown.slugs import readable_name

_DIRECTIVE_RE = re.compile(
    r"^::([a-z][a-z0-9-]*)\[([^\]\n]*)\](?:\{([^}\n]*)\})?[ \t]*$")
_ATTR_RE = re.compile(r'([a-z][a-z0-9_-]*)=(?:"([^"]*)"|([^\s"}]+))')   # key="v" or key=v
_INFO_RE = re.compile(r"^\s*(?:\{([^}]*)\}|([\w-]+))?\s*(?:\[([^\]]*)\])?\s*(?:\{[^}]*\})?\s*(.*)$")
LABELS = {"optional": "Optional rule", "example": "Example", "tip": "Tip", "info": "Info",
          "warning": "Warning", "caution": "Caution", "danger": "Danger",
          "important": "Important", "note": None, "sidebar": None}


_FENCE_RE = re.compile(r"^ {0,3}(:{3,})[ \t]*(.*)$")
_CODE_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def prescan(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with each container opener that is never closed escaped (printed as it
    is), and a (line, message) for each. Fences are matched as the container plugin does:
    a line of colons and nothing else closes the innermost open container whose fence is
    no longer; outside any, it opens one; code blocks are passed over."""
    lines = text.split("\n")
    open_fences: list[tuple[int, int]] = []     # (line index, colons)
    code: str | None = None
    for index, line in enumerate(lines):
        fence = _CODE_FENCE_RE.match(line)
        if code is not None:
            if fence and fence[1][0] == code[0] and len(fence[1]) >= len(code):
                code = None
            continue
        if fence:
            code = fence[1]
            continue
        match = _FENCE_RE.match(line)
        if not match:
            continue
        colons, rest = len(match[1]), match[2].strip()
        if not rest and open_fences and colons >= open_fences[-1][1]:
            open_fences.pop()
        else:
            open_fences.append((index, colons))
    for index, _ in open_fences:
        lines[index] = lines[index].replace(":", "\\:", 1)
    if not open_fences:
        return text, []
    first = open_fences[0][0] + 1
    if len(open_fences) == 1:
        return "\n".join(lines), [(first, "':::' opens a box that is never closed (add a "
                                   "':::' line where it ends): printed as text so the rest "
                                   "of the chapter is not boxed in it")]
    also = ", ".join(str(index + 1) for index, _ in open_fences[1:])
    return "\n".join(lines), [(first, f"{len(open_fences)} ':::' lines open boxes that are "
                               "never closed (add a ':::' line where each ends): printed as "
                               f"text so the rest of the chapter is not boxed in them (also "
                               f"line{'s' if len(open_fences) > 2 else ''} {also})")]


def container_info(info: str) -> tuple[str, str]:
    """(kind, title) of `note Title`, `tip[Title]`, `{.warning}`, `{#id .class}`."""
    match = _INFO_RE.match(info.strip())
    braces, word, bracket, rest = match.groups() if match else (None, None, None, info)
    kind = word or ""
    if braces:
        classes = re.findall(r"\.([\w-]+)", braces)
        kind = classes[0] if classes else ""
    title = (bracket or rest or "").strip()
    return kind.lower(), title


def use(md, escape) -> None:
    md.use(container_plugin, name="box", validate=lambda params, markup: True,
           render=lambda self, tokens, idx, options, env: _render(tokens, idx, escape))
    md.block.ruler.before("paragraph", "directive", _directive_rule,
                          {"alt": ["paragraph", "reference", "blockquote", "list"]})
    md.add_render_rule("directive", _render_directive)


def _render(tokens, idx, escape) -> str:
    token = tokens[idx]
    if token.nesting == -1:
        return "</aside>\n" if (token.meta or {}).get("aside") else "</div>\n"
    kind, title = container_info(token.info)
    css_kind = re.sub(r"[^a-z0-9-]", "", kind) or "box"
    label = LABELS.get(kind, readable_name(kind) if kind else None)
    if kind == "optional":
        heading = f'<p class="box-label">{label}{": " + escape(title) if title else ""}</p>\n'
    elif title:
        heading = f'<p class="box-title">{escape(title)}</p>\n'
    elif label:
        heading = f'<p class="box-label">{escape(label)}</p>\n'
    else:
        heading = ""
    tag = "aside" if kind == "sidebar" else "div"
    depth = 0
    for close in tokens[idx + 1:]:  # the matching close renders with the same tag
        if close.type == token.type:
            depth += 1
        elif close.type == token.type.replace("_open", "_close"):
            if depth == 0:
                close.meta = {"aside": tag == "aside"}
                break
            depth -= 1
    line = f' data-line="{token.map[0] + 1}"' if token.map else ""
    return f'<{tag} class="box {css_kind}"{line}>\n{heading}'


# the first start tag (its attributes end before `>`; the line goes last, so that the tag
# starts as the template wrote it)
_FIRST_TAG = re.compile(r"^(\s*<[a-zA-Z][\w-]*(?:\s[^<>]*?)?)(?=/?>)")


def _directive_rule(state, start_line, end_line, silent):
    pos = state.bMarks[start_line] + state.tShift[start_line]
    maximum = state.eMarks[start_line]
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    line = state.src[pos:maximum]
    if not line.startswith("::") or line.startswith(":::"):
        return False
    match = _DIRECTIVE_RE.match(line)
    if not match:
        return False
    if silent:
        return True
    token = state.push("directive", "", 0)
    token.map = [start_line, start_line + 1]
    token.meta = {"name": match[1], "argument": match[2].strip(),
                  "attrs": {key: quoted or bare for key, quoted, bare
                            in _ATTR_RE.findall(match[3] or "")}}
    token.content = line
    state.line = start_line + 1
    return True


def _render_directive(self, tokens, idx, options, env):
    renderer = env.get("directive_renderer")
    meta = tokens[idx].meta
    if renderer is None:
        return ""
    token = tokens[idx]
    line = token.map[0] + 1 if token.map and env.get("lines") else None
    env["directive_line"] = line
    return with_line(renderer(meta["name"], meta["argument"], meta["attrs"]), line) + "\n"


def with_line(html: str, line: int | None) -> str:
    """A directive's HTML with its source line on its first element (a table's figure), as
    top-level blocks have theirs: a message about its words or boxes names that line."""
    if line is None:
        return html
    return _FIRST_TAG.sub(rf'\1 data-line="{line}"', html, count=1)
