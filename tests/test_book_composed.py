"""The composed book read once into its parts (products/book/composed.py): what an HTML
parser finds in it, whatever the attributes' order or quotes, and its page numbers set at
the places found, nothing else of the text changed."""

from __future__ import annotations

import dataclasses
from html.parser import HTMLParser

from printshop.products.book.composed import EXTERNAL, PLACEHOLDER, parse, printed_number

# a book as a project's own template and raw HTML could make it: attributes in any order
# and quotes, ">" inside a quoted value, a part's markup inside a comment and a script
# (no part there), a section inside a chapter (no part either), upper-case tags
BOOK = """<!DOCTYPE html>
<html lang="en"><head><title>The <section class="chapter"> Book</title>
<script>if (a < b) document.write('<section class="chapter" id="no">');</script></head>
<body class="book" id="body">
<section class="title-page"><p id="top" class="book-title">Hammer &amp; Tongs</p></section>
<nav class="toc"><a href="#one" class="toc">One</a> <A CLASS='x' HREF='#two'>Two</A>
<a href="https://example.org/#one">out</a> <a href="#">top</a></nav>
<!-- <section class="chapter" id="commented"> -->
<section data-source="a.md" class="chapter intro"><h1 id="one" class="chapter-title">One
 <em>&amp; Only</em></h1>
<p title="a > b">See <a data-kind='ref' href="#two">Two</a> and <a href="#in-one">here</a>.</p>
<section class="chapter" id="nested"><h2 id="in-one">Inside</h2></section></section>
<SECTION CLASS="chapter" data-source="b.md"><h1 class="chapter-title" id="two">Two</h1>
<a href='#colophon'>end</a></SECTION>
<section class="colophon" id="colophon"><p>c</p></section>
</body></html>"""


class _Judge(HTMLParser):
    """The standard library's tokenizer, reading what composed.parse must find: the
    contents (a top-level nav or section of class toc) after the title page, and each
    top-level chapter or colophon section, start a part; each part's ids and links."""

    def __init__(self):
        super().__init__()
        self.parts, self.depth, self.body = [["front", set(), set()]], 0, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.body = True
            return
        if not self.body:
            return
        if tag in ("nav", "section") and self.depth == 0 and \
                "toc" in (attrs.get("class") or "").split() and len(self.parts) == 1 and \
                self.parts[0][1]:
            self.parts.append(["toc", set(), set()])
        if tag == "section":
            classes = (attrs.get("class") or "").split()
            if self.depth == 0 and ("chapter" in classes or "colophon" in classes):
                self.parts.append(["chapter" if "chapter" in classes else "colophon",
                                   set(), set()])
            self.depth += 1
        if attrs.get("id"):
            self.parts[-1][1].add(attrs["id"])
        href = attrs.get("href") or ""
        if tag == "a" and href.startswith("#") and len(href) > 1:
            self.parts[-1][2].add(href[1:])

    def handle_endtag(self, tag):
        if tag == "section":
            self.depth -= 1


def test_the_parts_ids_and_links_are_what_an_html_parser_reads():
    judge = _Judge()
    judge.feed(BOOK)
    book = parse(BOOK)
    assert [[p.kind, p.own, p.links] for p in book.parts] == judge.parts
    assert [p.kind for p in book.parts] == ["front", "toc", "chapter", "chapter", "colophon"]
    one = book.parts[2]
    assert (one.source, one.title_id, one.title) == ("a.md", "one", "One\n & Only")
    assert "nested" in one.own and "in-one" in one.own
    assert book.title_without_ids() == '<p class="book-title">Hammer &amp; Tongs</p>'
    # the parts and the text between them are the book, cut where the parts start
    assert "".join(p.body for p in book.parts) == \
        BOOK[BOOK.index(">", BOOK.index("<body")) + 1:BOOK.index("</body>")]
    assert parse("<html><body><p>no parts</p></body></html>") is None


def test_numbering_sets_the_numbers_at_their_places_and_nothing_else():
    book = parse(BOOK)
    numbered = book.numbered({"one": 3, "two": 12, "in-one": 4}, aligned=True)
    # the contents prints its numbers as wide as the placeholder (a figure space before)
    assert '<a data-page-ref="\u20073" href="#one" class="toc">' in numbered
    assert "<A CLASS='x' data-page-ref=\"12\" HREF='#two'>" in numbered
    assert "<a data-kind='ref' data-page-ref=\"12\" href=\"#two\">" in numbered
    assert '<a data-page-ref="4" href="#in-one">' in numbered       # a chapter's: as it is
    assert "<a data-page-ref=\"00\" href='#colophon'>" in numbered     # not known yet
    for number in ('data-page-ref="\u20073" ', 'data-page-ref="12" ', 'data-page-ref="00" ',
                   'data-page-ref="4" '):
        numbered = numbered.replace(number, "")
    assert numbered == BOOK


def test_the_whole_book_carries_each_parts_fit_step_as_the_part_alone_does():
    # (laid out whole where WeasyPrint cannot carry running heads into a part: the fit
    # steps the parts settled must hold there too)
    book = parse(BOOK)
    steps = [0, 0, 2, 1, 0]
    assert len(book.parts) == len(steps)
    numbered = book.numbered({"one": 3}, steps, aligned=True)
    assert '<section data-source="a.md" class="chapter intro fit-2">' in numbered
    assert '<SECTION CLASS="chapter fit-1" data-source="b.md">' in numbered
    assert '<a data-page-ref="\u20073" href="#one" class="toc">' in numbered
    # as in the part laid out alone, and nothing else changed
    alone = dataclasses.replace(book.parts[2], step=2)
    assert 'class="chapter intro fit-2"' in alone.document({}).html
    assert numbered.replace(" fit-2", "").replace(" fit-1", "") == \
        book.numbered({"one": 3}, aligned=True)


def test_a_part_alone_points_links_to_other_parts_at_stand_ins_the_join_points_back():
    book = parse(BOOK)
    one = book.parts[2]
    made = one.document({"two": 7}, elsewhere=book.ids - one.own, next_kind="chapter")
    html = made.html
    assert html.startswith(BOOK[:BOOK.index("<section")])           # the book's head
    assert f'data-page-ref="7" href="#{EXTERNAL}two"' in html
    assert 'data-page-ref="00" href="#in-one"' in html                # its own
    # the stand-ins inside its section, out of the flow; the next part's empty element
    opening = '<section data-source="a.md" class="chapter intro">'
    assert html.index(f'<div id="{EXTERNAL}two"></div>') > html.index(opening)
    assert html.endswith('<section class="chapter"></section></body></html>')
    assert made.refs == [(f"#{EXTERNAL}two", "7"), ("#in-one", "00")]
    # other numbers: the same text (what a kept layout is finished from), other HTML
    again = one.document({"two": 123, "in-one": 5}, elsewhere=book.ids - one.own,
                         next_kind="chapter")
    assert again.text == made.text and again.html != html
    assert again.refs == [(f"#{EXTERNAL}two", "123"), ("#in-one", "5")]
    other = one.document({"two": 7}, elsewhere=book.ids - one.own, next_kind="colophon")
    assert other.text != made.text


def test_the_contents_after_a_title_page_are_a_part_of_their_own():
    # the title page (with its cover picture) is laid out once, not with every try of the
    # contents; the blank page between them comes from the contents' empty element
    book = parse(BOOK)
    front, contents = book.parts[:2]
    title = front.document({}, elsewhere=book.ids - front.own, next_kind=contents.kind).html
    assert '<section class="title-page">' in title and "<nav" not in title
    assert title.endswith('<section class="toc"></section></body></html>')
    made = contents.document({"one": 3}, elsewhere=book.ids - contents.own,
                             next_kind="chapter").html
    body = made[made.index("<body"):]
    assert body.index('<nav class="toc">') < body.index(f'<div id="{EXTERNAL}one">') < \
        body.index('data-page-ref="3"')           # the stand-ins inside the nav
    assert "title-page" not in made
    # contents without a title page before them stay the front matter
    alone = parse(BOOK.replace('<section class="title-page"><p id="top" class="book-title">'
                               'Hammer &amp; Tongs</p></section>', ""))
    assert [p.kind for p in alone.parts] == ["front", "chapter", "chapter", "colophon"]


def test_the_contents_prints_its_numbers_as_wide_as_the_placeholders_took():
    book = parse(BOOK)
    contents = book.parts[1]
    assert contents.kind == "toc"
    numbered = contents.document({"one": 3, "two": 12}, aligned=True)
    assert dict(numbered.refs) == {"#one": "\u20073", "#two": "12"}
    assert printed_number(None, "toc", True) == PLACEHOLDER == "00"
    assert printed_number(7, "front", True) == "\u20077"
    assert printed_number(123, "toc", True) == "123"
    assert printed_number(7, "chapter", True) == "7"
    # as the whole book prints them; and where no leader ends with them, as they are
    assert 'data-page-ref="\u20073" href="#one"' in book.numbered({"one": 3}, aligned=True)
    assert dict(contents.document({"one": 3}).refs)["#one"] == "3"
    assert 'data-page-ref="3" href="#one"' in book.numbered({"one": 3})
