"""Raw HTML in a manuscript: `escaped` (printed as text), `sanitized` (an allow-list, by
nh3) or `trusted` (passed through; the project's own templates-level HTML).

Sanitized keeps structure (paragraphs, emphasis, lists, tables, details/summary, br,
sup/sub, div/span with classes, images and links checked like Markdown's own) and drops
scripts, styles, event handlers, frames, forms and <base>. The allow-list is applied by nh3
(html5ever's parser), once per chapter, so a <div> opened in one block may hold the
Markdown blocks up to its </div>.

An unclosed tag must never swallow the rest of a chapter: inline tags left open are closed
where their block ends, and an unclosed comment or <script>/<style>/<pre>/<textarea>
(which Markdown would otherwise run to the end of the file) is printed as text, with a
warning.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

MODES = ("escaped", "sanitized", "trusted")

# Tags that may hold several Markdown blocks; every other tag closes with its block.
CONTAINERS = {"div", "details", "section", "article", "aside", "blockquote", "figure",
              "table", "thead", "tbody", "tfoot", "tr", "td", "th", "ul", "ol", "li", "dl",
              "dt", "dd", "center", "main", "header", "footer", "nav", "summary", "caption",
              "colgroup", "html", "body"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr", "param", "keygen"}

ALLOWED_TAGS = {
    "a", "abbr", "aside", "b", "bdi", "bdo", "blockquote", "br", "caption", "cite", "code",
    "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption",
    "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li",
    "mark", "nav", "ol", "p", "pre", "q", "rp", "rt", "ruby", "s", "samp", "section",
    "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot",
    "th", "thead", "tr", "u", "ul", "var", "wbr", "center",
}
ALLOWED_ATTRIBUTES = {
    "*": {"id", "class", "title", "lang", "dir", "data-line"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan", "align", "style"},
    "th": {"colspan", "rowspan", "align", "style", "scope"},
    "ol": {"start", "type", "reversed"},
    "li": {"value"},
    "details": {"open"},
    "col": {"span"},
    "colgroup": {"span"},
}
# Removed with their content (everything else not allowed keeps its text).
DROPPED_WITH_CONTENT = {"script", "style", "noscript", "iframe", "frame", "frameset",
                        "object", "embed", "template", "title", "textarea", "select",
                        "math", "svg", "head"}

_RAW_TEXT_OPEN = re.compile(r"^[ ]{0,3}<(script|pre|style|textarea)(?=[\s>]|$)", re.I)


def prescan(text: str) -> tuple[str, list[tuple[int, str]]]:
    """Neutralise openers that Markdown would run to the end of the file if never closed."""
    lines = text.split("\n")
    warnings = []
    lower = text.lower()
    offset = 0
    for number, line in enumerate(lines):
        stripped = line.lstrip()
        after = lower[offset + len(line) - len(stripped):]
        if stripped.startswith("<!--") and "-->" not in after[4:]:
            warnings.append((number + 1, "HTML comment '<!--' is never closed: printed as "
                             "text so the rest of the chapter is not hidden"))
            lines[number] = line.replace("<!--", "&lt;!--", 1)
        else:
            match = _RAW_TEXT_OPEN.match(line)
            if match and f"</{match[1].lower()}>" not in after:
                warnings.append((number + 1, f"<{match[1]}> is never closed: printed as text "
                                 "so the rest of the chapter is not swallowed"))
                lines[number] = line.replace("<", "&lt;", 1)
        offset += len(line) + 1
    return "\n".join(lines), warnings


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID and tag not in CONTAINERS:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in self.open:
            while self.open:  # misnested: closing an outer tag closes the inner ones
                if self.open.pop() == tag:
                    break


def unclosed(html: str) -> list[str]:
    parser = _Tags()
    try:
        parser.feed(html)
        parser.close()
    except AssertionError:
        # Python's parser asserts on some declarations it does not know ("<![i]"); what it
        # read up to there stands (the sanitizer escapes the rest)
        pass
    return parser.open


def closers(tags: list[str]) -> str:
    return "".join(f"</{t}>" for t in reversed(tags))


def balance_rule(state):
    """Close inline tags where their block ends (core rule, after inline parsing)."""
    from markdown_it.token import Token

    for token in state.tokens:
        if token.type == "html_block":
            left = unclosed(token.content)
            if left:
                token.content = token.content.rstrip("\n") + closers(left) + "\n"
        elif token.type == "inline" and token.children:
            raw = "".join(c.content for c in token.children if c.type == "html_inline")
            if not raw:
                continue
            left = unclosed(raw)
            if left:
                token.children.append(Token("html_inline", "", 0, content=closers(left)))


def escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def render_as_text(self, tokens, idx, options, env):
    content = tokens[idx].content
    if content.strip().startswith("<!--") and content.strip().endswith("-->"):
        return ""
    text = escape(content)
    return f'<p class="raw-html">{text}</p>\n' if tokens[idx].type == "html_block" else text


def render_raw(self, tokens, idx, options, env):
    token = tokens[idx]
    if token.type == "html_block" and token.map and token.level == 0 and env.get("lines"):
        # raw HTML cannot carry the source line itself (a <div> may close blocks later): an
        # empty marker before it does, so a box that overflows is reported at its line
        return f'<span class="line-mark" data-line="{token.map[0] + 1}"></span>' + \
            token.content
    return token.content


def use(md, mode: str) -> None:
    md.core.ruler.push("balance_html", balance_rule)
    rule = render_as_text if mode == "escaped" else render_raw
    md.add_render_rule("html_block", rule)
    md.add_render_rule("html_inline", rule)


_STYLE_KEEP = re.compile(r"^\s*text-align\s*:\s*(left|right|center|justify)\s*;?\s*$", re.I)


def sanitize(html: str, check_url=None) -> str:
    """The allow-list. `check_url(tag, attribute, value) -> str | None` decides what an
    image source or link target becomes (None drops the attribute)."""
    import nh3

    def attribute_filter(tag, attribute, value):
        if attribute == "style":
            return value if _STYLE_KEEP.match(value) else None
        if check_url and ((tag == "img" and attribute == "src") or
                          (tag == "a" and attribute == "href")):
            return check_url(tag, attribute, value)
        return value

    return nh3.clean(html, tags=ALLOWED_TAGS, clean_content_tags=DROPPED_WITH_CONTENT,
                     attributes=ALLOWED_ATTRIBUTES, attribute_filter=attribute_filter,
                     strip_comments=True, link_rel=None,
                     url_schemes={"http", "https", "mailto", "file"})
