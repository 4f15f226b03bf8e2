"""The words printshop composed are the words on the pages: checked after every layout.

A layout engine that skips text leaves no box for it, so nothing that looks at boxes
(overflows, columns) can see the loss; WeasyPrint 70 lost rules text that way
(render/weasy/column_span.py). This check compares two streams after layout:

* **composed**: the text of the HTML document the job was given, in document order,
  without what is not meant to be printed: elements marked `aria-hidden="true"` or
  `hidden` (printshop's templates mark what their stylesheets hide on purpose so), and
  what is never text on a page (head, script, style, svg, math, form controls);
* **laid out**: the text of every text box on the pages, in page and box order, without
  generated content (`::before`, `::after`, markers, margin boxes), the repeats of a table
  header on later pages, and text that is there but cannot be seen: `visibility: hidden`,
  transparent, set below 2 px, or outside its page or an `overflow: hidden` ancestor.
  A table cell's text is read whole where the cell starts: a row split over two pages
  leaves some cells' ends on the second page while the cells after them end on the first.

Both are compared as letters and digits only, case-folded and NFKC-normalised: spaces,
punctuation, inserted hyphens and soft hyphens, `text-transform` and where lines or boxes
break cannot make a difference, while a letter too few or too many does. Where they differ,
the check finds the words missing, repeated or added, the source they come from (the
nearest `data-source`/`data-line` of a book's Markdown, or a `data-item` label: a card, a
sheet) and the page where they should have been.

It reads the box tree (`page._page_box`, each box's `element`): WeasyPrint's internals,
which is why it lives here, with the patches.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass

# never text on a page: their content is not laid out as text boxes
_NOT_TEXT = frozenset({"head", "title", "script", "style", "template", "svg", "math",
                       "input", "textarea", "select", "button", "option", "img", "object",
                       "iframe", "canvas", "video", "audio", "noscript"})
_GENERATED_OK = ("::first-letter", "::first-line")
# elements whose edges end a word (for quoting words: the comparison ignores spaces)
_BLOCKS = frozenset({"address", "article", "aside", "blockquote", "br", "caption", "dd",
                     "div", "dl", "dt", "figcaption", "figure", "footer", "h1", "h2", "h3",
                     "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
                     "section", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"})
_WORD = re.compile(r"\S+")
_KEEP = re.compile(r"[^\W_]+")
REPORT_WORDS = 12        # words quoted in a message
MAX_FINDINGS = 20        # findings a document reports (the rest are summarised)
_ANCHOR_SIZES = (24, 12, 6)   # how much text after a difference must agree to resume


def _norm(text: str) -> str:
    return "".join(_KEEP.findall(unicodedata.normalize("NFKC", text).casefold()))


@dataclass(frozen=True)
class Lost:
    """Words missing, repeated or added on the pages, compared with the document."""
    what: str          # "missing" or "extra"
    words: str         # the words, quoted (shortened)
    count: int         # how many words
    page: int          # where they should have been (missing) or are (extra), from 1
    source: str        # the chapter file (data-source) or "" for the job's own source
    line: int | None   # its Markdown line (data-line)
    item: str          # a card or sheet (data-item), or ""

    def describe(self, page_offset: int = 0) -> str:
        where = f" ({self.item})" if self.item else ""
        page = self.page + page_offset
        if self.what == "missing":
            return (f"{self.count} word{'s' if self.count != 1 else ''}{where} missing from "
                    f"the pages (expected on page {page}): {self.words}")
        return (f"{self.count} word{'s' if self.count != 1 else ''}{where} printed on page "
                f"{page} that the document does not have there (repeated or extra): "
                f"{self.words}")


@dataclass
class _Word:
    text: str      # as written
    norm: str      # letters and digits, case-folded
    source: str
    line: int | None
    item: str


def _hidden(element) -> bool:
    return element.get("aria-hidden") == "true" or element.get("hidden") is not None


def composed_words(root) -> list[_Word]:
    """The document's words in order, each with the source it came from."""
    words: list[_Word] = []
    runs: list[tuple[str, tuple]] = []      # (text, (source, line, item))

    def walk(element, label):
        tag = element.tag if isinstance(element.tag, str) else ""
        tag = tag.rpartition("}")[2].lower()
        if tag in _NOT_TEXT or _hidden(element) or not tag:
            return False
        source, line, item = label
        if element.get("data-source"):
            source, line = element.get("data-source"), None
        if element.get("data-line"):
            try:
                line = int(element.get("data-line"))
            except ValueError:
                pass
        if element.get("data-item"):
            item = element.get("data-item")
        label = (source, line, item)
        if tag in _BLOCKS:
            runs.append(("\n", label))
        if element.text:
            runs.append((element.text, label))
        for child in element:
            walk(child, label)
            if child.tail:
                runs.append((child.tail, label))
        if tag in _BLOCKS:
            runs.append(("\n", label))
        return True

    walk(root, ("", None, ""))
    # words run across element boundaries ("<b>HAMMER</b>CRAWL!" is one word)
    text = "".join(run for run, _ in runs)
    starts, at = [], 0
    for run, _ in runs:
        starts.append(at)
        at += len(run)
    for match in _WORD.finditer(text):
        norm = _norm(match[0])
        if not norm:
            continue
        source, line, item = runs[bisect.bisect_right(starts, match.start()) - 1][1]
        words.append(_Word(match[0], norm, source, line, item))
    return words


def laid_out_text(document) -> tuple[str, list[int], list[int], list[str]]:
    """(letters and digits of every visible text box in order, where each box's text
    starts in it, its page number, its text as laid out)."""
    from weasyprint.formatting_structure import boxes

    # A table row split over two pages leaves some of its cells' text on the second while
    # the cells after them end on the first: each cell's text is read whole, where the
    # cell starts (a bucket of its own in the text, filled from every page it is on)
    top: list = []
    cells: dict[tuple[int, str], list] = {}
    seen_headers: set[int] = set()

    def visit(box, clip, number, into):
        if isinstance(box, boxes.MarginBox):
            return
        tag = box.element_tag or ""
        if "::" in tag and not tag.endswith(_GENERATED_OK):
            return
        element = box.element
        if element is not None and element.tag in _NOT_TEXT:
            return
        if element is not None and _hidden(element) and not isinstance(box, boxes.TextBox):
            return
        if isinstance(box, boxes.TableRowGroupBox) and (box.is_header or box.is_footer):
            key = id(element)
            if key in seen_headers:      # a table header repeated on a later page
                return
            seen_headers.add(key)
        if box.style["transform"]:
            clip = None     # drawn turned or moved: where it lands is not checked
        if isinstance(box, boxes.TextBox):
            if _visible(box, clip):
                norm = _norm(box.text)
                if norm:
                    into.append((norm, number, box.text))
            return
        if isinstance(box, boxes.TableCellBox):
            key = (id(element), tag)
            if key not in cells:
                cells[key] = []
                into.append(cells[key])
            into = cells[key]
        if clip is not None and box.style["overflow"] != "visible" and \
                not isinstance(box, boxes.PageBox):
            clip = _intersect(clip, (box.padding_box_x(), box.padding_box_y(),
                                     box.padding_box_x() + box.padding_width(),
                                     box.padding_box_y() + box.padding_height()))
        for child in getattr(box, "children", ()):
            visit(child, clip, number, into)

    for number, page in enumerate(document.pages, start=1):
        page_box = page._page_box
        visit(page_box, (0, 0, page_box.margin_width(), page_box.margin_height()), number,
              top)
    chunks: list[str] = []
    starts: list[int] = []
    pages: list[int] = []
    texts: list[str] = []
    length = 0
    pending = [iter(top)]
    while pending:
        item = next(pending[-1], None)
        if item is None:
            pending.pop()
        elif isinstance(item, list):
            pending.append(iter(item))
        else:
            norm, number, text = item
            chunks.append(norm)
            starts.append(length)
            pages.append(number)
            texts.append(text)
            length += len(norm)
    return "".join(chunks), starts, pages, texts


def _intersect(a, b):
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _visible(box, clip) -> bool:
    style = box.style
    if style["visibility"] != "visible" or style["font_size"] < 2:
        return False
    colour = style["color"]
    if getattr(colour, "alpha", 1) == 0:
        return False
    if clip is None:
        return True
    # the middle of the line inside the clip, and the text's width inside it (a pixel of
    # rounding either way)
    top, bottom = box.position_y, box.position_y + box.height
    quarter = (bottom - top) / 4
    left, right = box.position_x, box.position_x + box.width
    return (top + quarter >= clip[1] - 1 and bottom - quarter <= clip[3] + 1 and
            left >= clip[0] - 1 and right <= clip[2] + 1)


def find_lost(document) -> list[Lost]:
    """Words of the document not on its pages, or on them more often than in it."""
    if not document.pages:
        return []
    # the root box is made for the <html> element, which holds the whole document
    root = document.pages[0]._page_box.children[0].element
    if root is None:
        return []
    words = composed_words(root)
    composed = "".join(w.norm for w in words)
    laid_out, starts, pages, texts = laid_out_text(document)
    if composed == laid_out:
        return []
    return _Differences(words, composed, laid_out, starts, pages, texts).find()


class _Differences:
    """The two texts walked side by side; where they part, the shorter of two ways to meet
    again is taken: text missing from the pages, or text on the pages the document lacks
    there (repeated or extra)."""

    def __init__(self, words, composed, laid_out, starts, pages, texts):
        self.words, self.composed, self.laid_out = words, composed, laid_out
        self.starts, self.pages, self.texts = starts, pages, texts
        self.word_starts, at = [], 0
        for word in words:
            self.word_starts.append(at)
            at += len(word.norm)

    def find(self) -> list[Lost]:
        composed, laid_out = self.composed, self.laid_out
        found: list[Lost] = []
        a = b = 0
        while len(found) < MAX_FINDINGS:
            step = _common_prefix(composed, a, laid_out, b)
            a, b = a + step, b + step
            if a >= len(composed) and b >= len(laid_out):
                break
            if a >= len(composed):
                found.append(self._extra(b, len(laid_out)))
                break
            if b >= len(laid_out):
                found.append(self._missing(a, len(composed), b))
                break
            # the nearest place where some text after the difference agrees again (a long
            # stretch first; a short one where two differences lie close together)
            for size in _ANCHOR_SIZES:
                resume_a = composed.find(laid_out[b:b + size], a + 1)
                resume_b = laid_out.find(composed[a:a + size], b + 1)
                if resume_a >= 0 or resume_b >= 0:
                    break
            if resume_a < 0 and resume_b < 0:       # nothing after this agrees
                found.append(self._missing(a, len(composed), b))
                found.append(self._extra(b, len(laid_out)))
                break
            if resume_b < 0 or (0 <= resume_a and resume_a - a <= resume_b - b):
                found.append(self._missing(a, resume_a, b))
                a = resume_a
            else:
                found.append(self._extra(b, resume_b))
                b = resume_b
        return found

    def _page_at(self, position: int) -> int:
        if not self.pages:
            return 1
        index = bisect.bisect_right(self.starts, max(position, 0)) - 1
        return self.pages[max(index, 0)]

    def _missing(self, start: int, end: int, at: int) -> Lost:
        first = bisect.bisect_right(self.word_starts, start) - 1
        last = bisect.bisect_left(self.word_starts, end)
        lost = self.words[max(first, 0):max(last, first + 1)]
        head = lost[0]
        # where they should have been: the page of the text before them
        return Lost("missing", _quote([w.text for w in lost]), len(lost),
                    self._page_at(at - 1), head.source, head.line, head.item)

    def _extra(self, start: int, end: int) -> Lost:
        first = bisect.bisect_right(self.starts, start) - 1
        last = bisect.bisect_left(self.starts, end)
        shown = " ".join(self.texts[max(first, 0):max(last, first + 1)]).split()
        # the document's word where the pages went their own way names the source
        index = bisect.bisect_right(self.word_starts, self._composed_at(start)) - 1
        near = self.words[min(max(index, 0), len(self.words) - 1)] if self.words else \
            _Word("", "", "", None, "")
        return Lost("extra", _quote(shown), len(shown), self._page_at(start),
                    near.source, near.line, near.item)

    def _composed_at(self, laid_out_position: int) -> int:
        # (a laid-out position before the texts parted maps to itself)
        return min(laid_out_position, len(self.composed))


def _common_prefix(a: str, i: int, b: str, j: int) -> int:
    """How many characters a[i:] and b[j:] share at their start (slices compared in C)."""
    size = min(len(a) - i, len(b) - j)
    if a[i:i + size] == b[j:j + size]:
        return size
    low, high = 0, size         # a[i:i+low] == b[j:j+low]; they differ within high
    while high - low > 1:
        middle = (low + high) // 2
        if a[i:i + middle] == b[j:j + middle]:
            low = middle
        else:
            high = middle
    return low


def _quote(words: list[str]) -> str:
    shown = " ".join(words[:REPORT_WORDS])
    return f"“{shown}{' …' if len(words) > REPORT_WORDS else ''}”"
