"""The composed book read once into its parts, and its page numbers set as data.

The book's HTML (templates/guide.html.j2, or a project's own) is read once by an HTML
tokenizer (the standard library's): where the body starts and ends, where each part starts
(the front matter, the contents if a title page comes before them, then each `<section>`
of class `chapter` or `colophon` that is not inside another section), the ids in each
part, and the *places* its page references go: every `<a href="#ID">`. Everything after
that is a substitution over those places:

* `Part.document(numbers, …)`: the part as a document of its own (the book's head and body
  tag around it), each reference carrying its target's page (`data-page-ref="N"`, read by
  the stylesheets' `attr(data-page-ref)`), links to other parts pointed at invisible
  stand-ins, and an empty copy of the next part's element at its end (products/book/parts.py
  says why); with it, each reference's href and number and the digest of its text without
  the numbers (what render/weasy/resume.py finishes a kept layout from);
* `Book.numbered(numbers)`: the whole book numbered so (laid out whole when its parts
  never agree);
* `Part.source`, `Part.title_id`, `Part.title`, `Book.title_element`: what the chapter
  preview (products/book/preview.py) and the page map read.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from html import escape, unescape

PLACEHOLDER = "00"            # a page number not known yet
# parts laid out before any page is known, every number a placeholder (the contents, a
# part of its own after a title page, else in the front matter): where the stylesheets end
# leaders with the numbers, those are printed as wide as the placeholder (`printed_number`)
ON_PLACEHOLDERS = ("front", "toc")
FIGURE_SPACE = "\u2007"       # as wide as a digit in tabular figures
EXTERNAL = "ps-ext-"          # stand-in ids for targets in other parts (render/pdf/book_merge.py)
PART_CLASSES = ("chapter", "colophon")   # a part's top-level section (a right-hand start)
FLOW_CLASSES = ("chapter", "toc", "colophon")   # the flows a fit step sets tighter (fit.py)
_STAND_INS = ('<div style="position: absolute; height: 0; overflow: hidden; margin: 0; '
              'padding: 0; visibility: hidden" aria-hidden="true">')


@dataclass(frozen=True)
class Ref:
    """A page reference: the `href="#target"` attribute at [start, end) of the book."""

    start: int
    end: int
    target: str


@dataclass
class Part:
    """One part of the book: its kind ("front", "toc", "chapter", "colophon"), its slice
    [start, end) of the book's body, the ids it holds (`own`), its references (`refs`) and
    the ids they link to (`links`)."""

    book: Book = field(repr=False)
    kind: str
    start: int
    end: int
    own: set[str] = field(default_factory=set)
    refs: list[Ref] = field(default_factory=list)
    opening: int = 0          # where the part's first <section> start tag ends
    source: str | None = None     # its section's data-source (a chapter's Markdown file)
    title_id: str | None = None   # the id of its first `h1.chapter-title`
    title: str = ""               # that heading's text
    # its flows (section or nav elements of a class in FLOW_CLASSES): [start, end) of each
    # one's class attribute, where a fit step's class goes (products/book/fit.py)
    flows: list[tuple[int, int]] = field(default_factory=list)
    step: int = 0                 # its fit step: its flows get the class fit-STEP

    @staticmethod
    def classes(written: str) -> str:
        """The value of a class attribute written `class=VALUE` (quoted or not)."""
        value = written.split("=", 1)[1].strip() if "=" in written else ""
        return unescape(value[1:-1] if value[:1] in "'\"" and len(value) > 1 else value)

    @property
    def links(self) -> set[str]:
        return {ref.target for ref in self.refs}

    @property
    def body(self) -> str:
        """Its own HTML: its slice of the book's body."""
        return self.book.html[self.start:self.end]

    @property
    def size(self) -> int:
        """The length of the part as a document of its own (the book's head and tail)."""
        book = self.book
        return book.body_start + (self.end - self.start) + (len(book.html) - book.body_end)

    def document(self, numbers: Mapping[str, int | str] | None, *,
                 elsewhere: AbstractSet[str] = frozenset(), next_kind: str | None = None,
                 opening: str = "", aligned: bool = False) -> NumberedPart:
        """The part as a document of its own, each reference numbered from `numbers` (id →
        page; the placeholder where unknown). References to `elsewhere` (ids of other
        parts) point at stand-ins laid out invisibly at the part's opening, out of the
        flow (so the section's margins collapse with its first child's, as in the whole
        book); `opening`: HTML laid out there too; `next_kind`: an empty element of the
        next part's kind at its end; `aligned`: numbers ending leaders (`printed_number`)."""
        book = self.book
        html = book.html
        pieces: list[str] = []        # the text between the numbers
        piece: list[str] = [html[:book.body_start]]
        refs: list[tuple[str, str]] = []
        at = self.start
        stand_ins = "".join(f'<div id="{EXTERNAL}{escape(name)}"></div>'
                            for name in sorted(self.links & elsewhere))
        inserted = (_STAND_INS + stand_ins + "</div>" if stand_ins else "") + opening
        places: list[tuple[int, Ref | tuple[int, int] | None]] = \
            [(ref.start, ref) for ref in self.refs]
        if inserted:
            places.append((self.opening, None))
        if self.step:
            places += [(flow[0], flow) for flow in self.flows]
        for position, ref in sorted(places, key=lambda p: (p[0], p[1] is not None)):
            piece.append(html[at:position])
            if ref is None:
                piece.append(inserted)
                at = position
                continue
            if isinstance(ref, tuple):     # a flow's class attribute, a fit step added
                written = html[ref[0]:ref[1]]
                quoted = written[-1:] in ("'", '"') and "=" in written
                piece.append(written[:-1] + f" fit-{self.step}" + written[-1] if quoted
                             else f'class="{escape(self.classes(written))} fit-{self.step}"')
                at = ref[1]
                continue
            page = numbers.get(ref.target) if numbers is not None else None
            if ref.target in elsewhere:
                href = f"#{EXTERNAL}{ref.target}"
                attribute = f'href="{escape(href)}"'
            else:
                href, attribute = f"#{ref.target}", html[ref.start:ref.end]
            refs.append((href, printed_number(page, self.kind, aligned)))
            piece.append('data-page-ref="')
            pieces.append("".join(piece))
            piece = ['" ', attribute]
            at = ref.end
        piece.append(html[at:self.end])
        if next_kind:
            piece.append(f'<section class="{next_kind}"></section>')
        piece.append(html[book.body_end:])
        pieces.append("".join(piece))
        return NumberedPart(pieces, refs)


def printed_number(page: int | str | None, kind: str, aligned: bool = False) -> str:
    """A page number as a part of `kind` prints it (the placeholder where unknown). The
    contents is laid out on placeholders before any page is known; where its numbers end
    leaders (`aligned`: products/book/pages.py `aligned_numbers`), they are printed as wide
    as the placeholders (a figure space before a shorter one: the book sets them in tabular
    figures), so they take the room the placeholders took and the contents' layout is
    finished with them (render/weasy/resume.py) instead of being laid out again whole; the
    leaders end in one column."""
    text = str(page or PLACEHOLDER)
    if aligned and kind in ON_PLACEHOLDERS and len(text) < len(PLACEHOLDER):
        return FIGURE_SPACE * (len(PLACEHOLDER) - len(text)) + text
    return text


@dataclass
class NumberedPart:
    """A part's document as the pieces of text between its numbers, and its references as
    (href, number), one between each two pieces."""

    pieces: list[str]
    refs: list[tuple[str, str]]

    @property
    def html(self) -> str:
        out = [self.pieces[0]]
        for (_, number), piece in zip(self.refs, self.pieces[1:]):
            out += [number, piece]
        return "".join(out)

    @property
    def text(self) -> str:
        """The digest of the document without its numbers: equal for two documents that
        differ in their numbers only."""
        return hashlib.sha256("\0".join(self.pieces).encode()).hexdigest()


@dataclass
class Book:
    """The composed book: its HTML, where its body's content starts and ends, its parts
    in order (None from `parse` if it is not made of such parts), every reference."""

    html: str
    body_start: int = 0       # after the <body> start tag
    body_end: int = 0         # at the </body> end tag
    parts: list[Part] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    title_element: tuple[int, int] | None = None     # [start, end) of p.book-title
    title_ids: list[tuple[int, int]] = field(default_factory=list)   # its id="…"s

    @property
    def ids(self) -> set[str]:
        return set().union(*(part.own for part in self.parts))

    @property
    def targets(self) -> set[str]:
        return {ref.target for ref in self.refs}

    def numbered(self, numbers: dict, steps: list[int] | None = None,
                 aligned: bool = False) -> str:
        """The whole book, each reference carrying its target's page (as its part prints
        it: `printed_number`); with `steps` (a fit step for each part, products/book/fit.py),
        each part's flows set at its step."""
        places: list[tuple[int, Ref | tuple[int, int, int]]] = \
            [(ref.start, ref) for ref in self.refs]
        for part, step in zip(self.parts, steps or []):
            places += [(flow[0], (flow[0], flow[1], step)) for flow in part.flows if step]
        kinds = {ref.start: part.kind for part in self.parts for ref in part.refs}
        pieces, at = [], 0
        for position, place in sorted(places, key=lambda p: p[0]):
            pieces.append(self.html[at:position])
            if isinstance(place, tuple):    # a flow's class attribute, a fit step added
                start, end, step = place
                written = self.html[start:end]
                quoted = written[-1:] in ("'", '"') and "=" in written
                pieces.append(written[:-1] + f" fit-{step}" + written[-1] if quoted
                              else f'class="{escape(Part.classes(written))} fit-{step}"')
                at = end
                continue
            page = printed_number(numbers.get(place.target), kinds.get(place.start, ""),
                                  aligned)
            pieces += [f'data-page-ref="{page}" ',
                       self.html[place.start:place.end]]
            at = place.end
        pieces.append(self.html[at:])
        return "".join(pieces)

    def title_without_ids(self) -> str | None:
        """The book's title element (`p.book-title`) without its ids (to set its running
        head again in a chapter laid out alone), or None."""
        if self.title_element is None or self.title_element[1] <= self.title_element[0]:
            return None
        start, end = self.title_element
        pieces, at = [], start
        for id_start, id_end in self.title_ids:
            pieces.append(self.html[at:id_start])
            at = id_end
        pieces.append(self.html[at:end])
        return "".join(pieces)


def parse(html: str) -> Book | None:
    """The book read into its parts; None if it has no body, or no part after the front
    matter (then it is laid out whole)."""
    reader = _Reader(html)
    take = reader.take
    for token in tokens(html):
        take(*token)
    book = reader.book
    if reader.body_start is None or reader.body_end is None or len(book.parts) < 2:
        return None
    book.body_start, book.body_end = reader.body_start, reader.body_end
    book.parts[0].start = book.body_start
    for part, after in zip(book.parts, book.parts[1:] + [None]):
        part.end = after.start if after is not None else book.body_end
        part.opening = part.opening or book.body_start
    return book


# An HTML tokenizer's view of the text, enough for a book: comments, doctypes and the
# content of raw-text elements skipped; start tags with their attributes (a quoted value
# may hold ">"), end tags, and the text between them.
_MARKUP = re.compile(r"""<!--.*?(?:-->|\Z)|<[!?][^>]*(?:>|\Z)
                         |</([a-zA-Z][^\t\n\f\r\x20/>]*)[^>]*(?:>|\Z)
                         |<([a-zA-Z][^\t\n\f\r\x20/>]*)((?:[^>"']+|"[^"]*"|'[^']*')*)>""",
                     re.S | re.X)
_ATTRIBUTE = re.compile(r"""([^\s/>"'=][^\s/>=]*|=[^\s/>=]*)
                            (?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""", re.X)
_RAW_TEXT = ("script", "style", "textarea", "title")
_READ = ("body", "section", "nav", "a", "h1", "p")
_ID = re.compile(r"(?<![^\s\"'/])id\s*=", re.I)


def tokens(html: str):
    """The HTML's tags in order: ("start", tag, offset, end, {name: (value, start, end)},
    self-closing) and ("end", tag, offset, end); names lower-cased, values as the document
    means them (character references resolved), [start, end) where `name="value"` is
    written. The text is what lies between them."""
    at = 0
    search, attribute_spans, has_id = _MARKUP.search, _ATTRIBUTE.finditer, _ID.search
    while (found := search(html, at)) is not None:
        at = found.end()
        if found[1]:
            yield ("end", found[1].lower(), found.start(), at)
        elif found[2]:
            tag, attributes, base, text = found[2].lower(), {}, found.start(3), found[3]
            # (the book reads every id, and the attributes of a few tags)
            for attribute in attribute_spans(text) if tag in _READ or has_id(text) else ():
                name, value = attribute[1].lower(), attribute[2] or ""
                if value[:1] in ("'", '"'):
                    value = value[1:-1]
                if name not in attributes:
                    attributes[name] = (unescape(value) if "&" in value else value,
                                        base + attribute.start(), base + attribute.end())
            yield ("start", tag, found.start(), at, attributes, text.rstrip().endswith("/"))
            if tag in _RAW_TEXT:     # its text is no markup: on to its end tag
                close = re.compile(rf"</{tag}[\t\n\f\r\x20/>]", re.I).search(html, at)
                at = close.start() if close is not None else len(html)


class _Reader:
    """What the book needs of its tokens: the body, the parts, ids, references, titles."""

    def __init__(self, html: str):
        self.book = Book(html)
        self.book.parts.append(Part(self.book, "front", 0, 0))
        self.body_start: int | None = None
        self.body_end: int | None = None
        self.sections = 0          # <section>s open
        self.title_depth = 0       # inside the part's first h1.chapter-title
        self.title_text: list[str] = []
        self.titled: Part | None = None    # the last part whose title was read
        self.book_title = False    # inside p.book-title
        self.after = 0             # where the last tag ended

    def take(self, kind: str, *token) -> None:
        if self.title_depth:        # the text before this tag: a chapter title's
            self.title_text.append(self.book.html[self.after:token[1]])
        self.after = token[2]
        if kind == "start":
            self.start(*token)
        else:
            self.end(*token)

    def start(self, tag: str, offset: int, end: int, attributes: dict, empty: bool) -> None:
        book, part = self.book, self.book.parts[-1]
        if self.body_start is None:
            if tag == "body":
                self.body_start = end
            return
        if not attributes and tag not in ("section", "h1"):
            return

        def value(name):
            found = attributes.get(name)
            return found[0] if found is not None else None

        classes = (value("class") or "").split()
        if tag in ("section", "nav") and "class" in attributes and \
                any(c in classes for c in FLOW_CLASSES):
            flow = attributes["class"][1:]
        else:
            flow = None
        if tag in ("section", "nav") and self.sections == 0 and "toc" in classes and \
                len(book.parts) == 1 and part.opening:
            # the contents after a title page: a part of its own, so that the title page
            # (a cover picture, often megabytes) is laid out and written once, not with
            # every try of the contents' columns and numbers
            part = Part(book, "toc", offset, offset)
            book.parts.append(part)
            part.opening = end
        if tag == "section":
            kind = next((c for c in PART_CLASSES if c in classes), None)
            if self.sections == 0 and kind is not None:
                part = Part(book, kind, offset, offset, source=value("data-source"))
                book.parts.append(part)
            if not part.opening:
                part.opening = end
            if not empty:
                self.sections += 1
        if flow is not None:
            part.flows.append(flow)
        name = value("id")
        if name:
            part.own.add(name)
        href = value("href") or ""
        if tag == "a" and href.startswith("#") and len(href) > 1:
            ref = Ref(attributes["href"][1], attributes["href"][2], href[1:])
            part.refs.append(ref)
            book.refs.append(ref)
        if tag == "h1":
            if self.title_depth:
                self.title_depth += 1
            elif "chapter-title" in classes and self.titled is not part:
                self.titled, part.title_id = part, name or None
                self.title_depth, self.title_text = 1, []
        if tag == "p" and "book-title" in classes and book.title_element is None:
            book.title_element = (offset, offset)
            self.book_title = True
        if self.book_title and "id" in attributes:
            # (and the space before it: the element is copied without its ids)
            _, start, end = attributes["id"]
            start -= book.html[start - 1].isspace()
            book.title_ids.append((start, end))

    def end(self, tag: str, offset: int, end: int) -> None:
        if tag == "body":
            self.body_end = offset
        elif tag == "section" and self.sections:
            self.sections -= 1
        elif tag == "h1" and self.title_depth:
            self.title_depth -= 1
            if not self.title_depth:
                self.book.parts[-1].title = unescape("".join(self.title_text)).strip()
        elif tag == "p" and self.book_title and self.book.title_element is not None:
            self.book_title = False
            start, _ = self.book.title_element
            self.book.title_element = (start, offset + len("</p>"))


def strip_first_heading(html: str) -> str:
    """A chapter's body without its title: the chapter template prints the title itself
    (full width, above the columns)."""
    end = html.find("</h1>")
    return html[end + len("</h1>"):].lstrip("\n") if html.startswith("<h1") and end >= 0 \
        else html
