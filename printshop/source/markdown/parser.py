"""The markdown-it parser the reader (reader.py) reads chapters with, and how printshop's own
tokens print: cross-references, links left unlinked, icons, missing pictures, and the source
line every top-level block carries (a box that overflows is reported at its chapter line).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin

from printshop.source.icons import use_icons
from printshop.source.markdown import callouts, containers, kramdown, rawhtml, widetables, wikilinks
from printshop.source.markdown.links import Heading


def build_parser(html: str = "escaped") -> MarkdownIt:
    # HTML is always *parsed* (so comments can be dropped, as every Markdown viewer hides
    # them); the mode decides whether it prints as text, sanitized or as it is.
    md = MarkdownIt("commonmark", {"html": True, "typographer": True})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.use(footnote_plugin)
    md.use(deflist_plugin)
    containers.use(md, rawhtml.escape)
    callouts.use(md, rawhtml.escape)
    kramdown.use(md)
    wikilinks.use(md)
    rawhtml.use(md, html)
    widetables.use(md)
    use_icons(md)
    # Links are checked (and reported) by the reader, not silently dropped by the parser.
    md.validateLink = lambda url: True  # type: ignore[method-assign]  # (as its docs say)
    md.add_render_rule("xref", _render_xref)
    md.add_render_rule("link_open", _render_link_open)
    md.add_render_rule("link_close", _render_link_close)
    md.add_render_rule("missing_image", _render_missing_image)
    md.add_render_rule("icon", _render_icon)
    for kind in ("paragraph_open", "table_open", "bullet_list_open", "ordered_list_open",
                 "blockquote_open", "heading_open", "fence", "code_block", "hr", "dl_open"):
        # (the HTML renderer's rules: the protocol markdown-it types it by has none)
        md.add_render_rule(kind, _with_line(md.renderer.rules.get(kind)))  # type: ignore[attr-defined]
    return md


def build_inline_parser() -> MarkdownIt:
    """For table cells and one-line texts from YAML: emphasis and code, nothing that fetches."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": True})
    md.enable(["replacements", "smartquotes"])
    md.disable(["image", "link", "autolink", "html_inline"])
    return md


# --- renderers -----------------------------------------------------------------------------

def _with_line(rule):
    """Top-level blocks carry their source line (`data-line`): a box that overflows the page
    is reported at the chapter file and line."""
    def render(self, tokens, idx, options, env):
        token = tokens[idx]
        if token.map and token.level == 0 and env.get("lines"):
            token.attrSet("data-line", str(token.map[0] + 1))
        block_id = (token.meta or {}).get("block_id")
        if block_id and env.get("block_ids") and not token.attrGet("id"):
            token.attrSet("id", env["block_ids"].get(block_id, ""))
        if rule is not None:
            return rule(tokens, idx, options, env)
        return self.renderToken(tokens, idx, options, env)
    return render


def _render_link_open(self, tokens, idx, options, env):
    token = tokens[idx]
    if (token.meta or {}).get("unlinked"):
        for close in tokens[idx + 1:]:
            if close.type == "link_close" and close.level == token.level:
                close.meta = {"unlinked": True}
                break
        return ""
    return self.renderToken(tokens, idx, options, env)


def _render_link_close(self, tokens, idx, options, env):
    if (tokens[idx].meta or {}).get("unlinked"):
        return ""
    return self.renderToken(tokens, idx, options, env)


def _render_xref(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    target = meta.get("resolved")
    shown = meta["fragment"] if meta["fragment"] and not meta["fragment"].startswith("^") \
        else meta["note"] or meta["target"]
    if isinstance(target, Heading):
        label = meta["label"] or (target.title if not meta["fragment"] else shown)
        return f'<a class="xref" href="#{target.id}">{rawhtml.escape(label)}</a>'
    if isinstance(target, str):
        return f'<a class="xref" href="#{target}">{rawhtml.escape(meta["label"] or shown)}</a>'
    return rawhtml.escape(meta["label"] or shown)


def _render_icon(self, tokens, idx, options, env):
    """`:icon[NAME]`, checked by the reader (an unknown one warned about there)."""
    meta = tokens[idx].meta
    icons = env.get("icons")
    icon = meta.get("icon")
    if icons is None or icon is None:
        return f'<span class="missing-icon">[{rawhtml.escape(meta["name"])}?]</span>'
    colour = meta["attrs"].get("colour") or meta["attrs"].get("color")
    colours = env.get("colours")
    try:
        colour = colours(colour) if colour and colours else colour
    except Exception:  # noqa: BLE001 - an unknown colour: the ink (warned when read)
        colour = None
    html = str(icons.html(icon, colour or env.get("ink", "#000000"),
                          meta["attrs"].get("size", "1.15em")))
    # printshop's own markup: not the author's raw HTML, which the allow-list cleans (it
    # would drop a bundled icon's <svg> with its content, and a project icon's source)
    keep = env.get("keep_from_cleaning")
    return keep(html) if keep else html


def _render_missing_image(self, tokens, idx, options, env):
    src = tokens[idx].meta["src"]
    return (f'<span class="missing-image" role="img">Missing image: '
            f'<code>{rawhtml.escape(src)}</code></span>')
