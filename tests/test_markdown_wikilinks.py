from markdown_it import MarkdownIt

from printshop.source.markdown import wikilinks


def parse(text):
    md = MarkdownIt("commonmark")
    wikilinks.use(md)
    return md.parse(text)


def children(text):
    return [c for t in parse(text) if t.type == "inline" for c in t.children]


def test_targets():
    assert wikilinks.parse_target("Note#Heading|shown") == {
        "target": "Note#Heading", "note": "Note", "fragment": "Heading", "label": "shown"}
    assert wikilinks.parse_target("#Rounds")["note"] == ""
    assert wikilinks.parse_target("Saving\nThrows")["target"] == "Saving Throws"


def test_wikilinks_become_cross_references_with_their_line():
    xrefs = [c for c in children("a\n[[Magic|spells]] and [[Combat#Rounds]]\n")
             if c.type == "xref"]
    assert [(x.meta["note"], x.meta["fragment"], x.meta["label"], x.meta["line_offset"])
            for x in xrefs] == [("Magic", "", "spells", 1), ("Combat", "Rounds", "", 1)]


def test_image_embeds_become_images_and_note_embeds_references():
    kids = children("![[maps/sword.png|a sword]] ![[Magic]]\n")
    image = next(c for c in kids if c.type == "image")
    assert image.attrGet("src") == "maps/sword.png" and image.content == "a sword"
    assert any(c.type == "xref" and c.meta["note"] == "Magic" for c in kids)


def test_block_ids_are_taken_off_the_text():
    tokens = parse("Say the words. ^focus\n\n- a\n- b\n\n^list-id\n")
    assert tokens[0].meta["block_id"] == "focus" and tokens[1].content == "Say the words."
    lists = [t for t in tokens if t.type == "bullet_list_open"]
    assert lists[0].meta["block_id"] == "list-id"
    assert not any(t.type == "inline" and "^list-id" in t.content for t in tokens)
