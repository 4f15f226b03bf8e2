from markdown_it import MarkdownIt

from printshop.source.markdown import kramdown


def parse(text):
    md = MarkdownIt("commonmark")
    kramdown.use(md)
    return md, md.parse(text)


def test_no_toc_marks_the_heading_and_never_prints():
    md, tokens = parse("# Title\n{: .no_toc }\n\nText.\n")
    heading = tokens[0]
    assert heading.meta.get("no_toc")
    assert "no_toc" not in md.renderer.render(tokens, md.options, {})


def test_attribute_line_sets_the_heading_id_and_classes():
    _, tokens = parse("## Light\n{: #light-spell .spell }\n")
    assert tokens[0].meta["chosen_id"] == "light-spell"
    assert tokens[0].attrGet("class") == "spell"


def test_heading_id_in_braces():
    _, tokens = parse("## Leveling Up {#levelling}\n")
    assert tokens[0].meta["chosen_id"] == "levelling" and tokens[1].content == "Leveling Up"


def test_paragraph_attribute_line_is_applied_not_printed():
    md, tokens = parse("A lead paragraph.\n{: .fs-6 .fw-300 }\n")
    html = md.renderer.render(tokens, md.options, {})
    assert html == '<p class="fs-6 fw-300">A lead paragraph.</p>\n'


def test_toc_list_becomes_the_files_contents():
    from printshop.source.markdown.links import Heading

    md, tokens = parse("## Table of contents\n{: .no_toc .text-delta }\n\n1. TOC\n{:toc}\n\n"
                       "## Arcane Eye\n")
    headings = [Heading("table-of-contents", "Table of contents", 2, None, 1, no_toc=True),
                Heading("arcane-eye", "Arcane Eye", 2, None, 7)]
    html = md.renderer.render(tokens, md.options, {"file_headings": headings})
    assert '<nav class="file-toc"><ul><li class="toc-level-2"><a href="#arcane-eye">' in html
    assert "TOC" not in html and "{:toc}" not in html and "<ol>" not in html


def test_extensions_and_inline_attributes_are_dropped():
    md, tokens = parse("{::options parse_block_html=\"true\" /}\n\nSome *text*{: .x} here.\n")
    html = md.renderer.render(tokens, md.options, {})
    assert "{:" not in html and "<em>text</em> here" in html
