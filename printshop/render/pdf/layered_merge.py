"""Joining parts whose pages are drawn in layers (render/pdf/layers.py): a pack's chunks.

Every part carries the forms and stamps its pages draw, under names made from their content
(`/PsX<digest>_<page>`), so a chunk stands alone (and can be cached alone). The join copies
each such XObject into the merged file once, however many parts draw it, and links fonts
equal in every byte to one copy: the pack's file, and the memory of joining it, grow with
its sheets' own text only, which lets the workers render small chunks (less memory each)
without a bigger file.

A pack of up to ONE_STAGE parts (200 sheets and fewer) is joined as its parts come in, while
the workers render the rest: the last part's join and the save are all that is left when
the workers are done. Bigger packs are joined in groups after the workers are gone: pikepdf
holds every part it copies from until it saves (~1.7 MB a 10-sheet chunk). The groups are
then joined by pdfium (`merge_many_pdfs`: in less memory, measured).
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Sequence
from pathlib import Path

from printshop.render.pdf.merge import _ID_RE, PikeJoin

LAYERED_GROUP = 25   # parts joined at once (a 1,000-sheet pack: ~4 groups)


def one_stage() -> int:
    """Parts joined in one go: a few over one group are not worth a second stage (for a
    200-sheet pack's 27 parts it cost 0.13 s more, and each group keeps its own copy of
    every form and stamp)."""
    return LAYERED_GROUP + LAYERED_GROUP // 4


def merge_layered_pdfs(parts: Sequence[bytes] | _OnDisk, title: str | None = None,
                       outline: list[tuple[str, int]] | None = None) -> bytes:
    """The parts in order, as one PDF: `outline` adds bookmarks (title, 0-based page)."""
    if len(parts) > one_stage():
        groups = []
        for first in range(0, len(parts), LAYERED_GROUP):
            with LayeredJoin() as join:
                for part in parts[first:first + LAYERED_GROUP]:
                    join.add(part)
                groups.append(join.finish(identify=False))
        return merge_many_pdfs(groups, title=title, outline=outline)
    with LayeredJoin() as join:
        for part in parts:
            join.add(part)
        return join.finish(title, outline)


def merge_many_pdfs(parts: list[bytes], title: str | None = None,
                    outline: list[tuple[str, int]] | None = None) -> bytes:
    """Parts that were each joined already (a big pack's groups), in order, as one PDF.

    The one join that is not pikepdf's, for a measured reason (bench/BASELINE.md, "Every
    join pikepdf's?"): pikepdf holds every object of every group, and their copies, until
    it saves. Joining the five groups of a 1,000-character pack (1,010 pages, 19,000
    objects, 11 MB) took the process from 120 MB to a peak of 260 MB RSS with pikepdf
    (LayeredJoin, 2.4 s of CPU) and to 182 MB with pdfium (1.7 s), which joins the pages
    in C; the pack's whole process tree peaked at 297 MB of PSS with pikepdf, over the
    250 MB goal, and at 205 MB with pdfium. pdfium writes no title or bookmarks: they are
    appended as a PDF incremental update, serialised by pikepdf. Reproducible: pdfium's
    clock is off while it works, and the random file identifier it writes is replaced by
    one made from the parts."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    digest = hashlib.md5(b"".join(hashlib.md5(p).digest() for p in parts)).hexdigest().upper()
    pdfium_c.FPDF_SetSandBoxPolicy(pdfium_c.FPDF_POLICY_MACHINETIME_ACCESS, False)
    merged = pdfium.PdfDocument.new()
    try:
        for part in parts:
            source = pdfium.PdfDocument(part)
            try:
                merged.import_pages(source)
            finally:
                source.close()
        buffer = io.BytesIO()
        merged.save(buffer)
    finally:
        merged.close()
        pdfium_c.FPDF_SetSandBoxPolicy(pdfium_c.FPDF_POLICY_MACHINETIME_ACCESS, True)
    # (the file is the biggest thing held at the end of a big pack: no more copies of it
    # alive at once than needed)
    pdf = buffer.getvalue()
    del buffer
    pdf = _ID_RE.sub(lambda _: b"/ID[<" + digest.encode() + b"><" + digest.encode() + b">]",
                     pdf)
    return pdf + _title_and_outline_update(pdf, title, outline or [], digest)


_STARTXREF_RE = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")


def _previous_xref(pdf: bytes) -> int:
    """Where the PDF's last cross-reference section starts (its `startxref`)."""
    found = _STARTXREF_RE.search(pdf)
    if found is None:
        raise ValueError("not a PDF: no startxref at its end")
    return int(found[1])


def _title_and_outline_update(pdf: bytes, title: str | None,
                              outline: list[tuple[str, int]], digest: str) -> bytes:
    """An incremental update to append to `pdf`: a new catalog with /Outlines, the
    bookmarks (title, 0-based page; each to the whole page), a new /Info with the title."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        pages = [page.obj.objgen[0] for page in document.pages]
        root = document.trailer.Root
        root_number = root.objgen[0]
        catalog = {str(key): root[key].unparse() for key in root.keys() if key != "/Outlines"}
        info = document.trailer.get("/Info")
        info_number = info.objgen[0] if info is not None and info.is_indirect else None
        size = int(document.trailer.Size)

    def text(value: str) -> bytes:
        return pikepdf.String(value).unparse()

    objects: dict[int, bytes] = {}
    next_number = size
    if outline:
        parent, next_number = next_number, next_number + 1
        numbers = list(range(next_number, next_number + len(outline)))
        next_number += len(outline)
        for n, ((label, page), number) in enumerate(zip(outline, numbers)):
            item = b"<< /Title %s /Parent %d 0 R /Dest [ %d 0 R /Fit ]" % (
                text(label), parent, pages[page])
            if n:
                item += b" /Prev %d 0 R" % numbers[n - 1]
            if n + 1 < len(numbers):
                item += b" /Next %d 0 R" % numbers[n + 1]
            objects[number] = item + b" >>"
        objects[parent] = b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (
            numbers[0], numbers[-1], len(numbers))
        catalog["/Outlines"] = b"%d 0 R" % parent
        objects[root_number] = b"<< " + b" ".join(
            key.encode() + b" " + value for key, value in catalog.items()) + b" >>"
    if info_number is None:
        info_number, next_number = next_number, next_number + 1
    objects[info_number] = b"<< /Title %s >>" % text(title) if title else b"<< >>"

    out = bytearray(b"" if pdf.endswith(b"\n") else b"\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(pdf) + len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref_at = len(pdf) + len(out)
    out += b"xref\n"
    run: list[int] = []
    for following in [*sorted(offsets), None]:
        if run and (following is None or following != run[-1] + 1):
            out += b"%d %d\n" % (run[0], len(run))
            for n in run:
                out += b"%010d 00000 n\r\n" % offsets[n]
            run = []
        if following is not None:
            run.append(following)
    out += (b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /Prev %d /ID [ <%s> <%s> ] >>\n"
            b"startxref\n%d\n%%%%EOF\n" % (
                max(size, next_number), root_number, info_number,
                _previous_xref(pdf), digest.encode(), digest.encode(), xref_at))
    return bytes(out)


class LayeredJoin:
    """Parts added one after another; `finish` gives the file (reproducible bytes: its
    identifier made from the parts)."""

    def __enter__(self):
        self._pike = PikeJoin().__enter__()
        self._shared: dict[str, object] = {}   # XObject name → its one copy
        self._fonts = _FontSharing()
        self._digests: list[bytes] = []
        return self

    @property
    def merged(self):
        return self._pike.merged

    def add(self, part: bytes):
        """Copy `part`'s pages in; the part, opened (it stays open until `finish`)."""
        from printshop.render.pdf.layers import SHARED_PREFIX

        merged = self._pike.merged
        self._digests.append(hashlib.md5(part).digest())
        source = self._pike.open(part)
        for page in source.pages:
            xobjects = page.obj.get("/Resources", {}).get("/XObject")
            known = []
            if xobjects is not None:
                for name in list(xobjects.keys()):
                    if name.startswith(SHARED_PREFIX) and name in self._shared:
                        known.append(name)
                        del xobjects[name]   # not copied again: linked below
            merged.pages.append(page)
            if xobjects is not None:
                copied = merged.pages[-1].obj.Resources.XObject
                for name in copied.keys():
                    if name.startswith(SHARED_PREFIX):
                        self._shared.setdefault(name, copied[name])
                for name in known:
                    copied[name] = self._shared[name]
            self._fonts.visit(merged.pages[-1].obj.get("/Resources"))
        return source

    def finish(self, title: str | None = None,
               outline: list[tuple[str, int]] | None = None, identify: bool = True,
               bookmarks: list | None = None) -> bytes:
        """The joined file; `title` and `outline` are set before saving (merge_many_pdfs
        must append them to its saved file, and reading it again cost a 200-sheet pack
        0.1 s), after `bookmarks` (pikepdf OutlineItems) if given. `identify`: the file
        identifier made from the parts (a group joined again by merge_many_pdfs gets its
        identifier there)."""
        import pikepdf

        merged = self._pike.merged
        if outline or bookmarks:
            with merged.open_outline() as made:
                made.root.extend(bookmarks or [])
                made.root.extend(pikepdf.OutlineItem(label, page)
                                 for label, page in outline or [])
        if title:
            merged.docinfo["/Title"] = title
        pdf = self._pike.save()
        if not identify:
            return pdf
        digest = hashlib.md5(b"".join(self._digests)).hexdigest().upper().encode()
        return _ID_RE.sub(lambda _: b"/ID[<" + digest + b"><" + digest + b">]", pdf)

    def __exit__(self, *exc):
        self._pike.__exit__(*exc)


class _FontSharing:
    """Every chunk that draws a stamp copies that stamps PDF's fonts, so a merged pack held
    the same font subset once a chunk that first drew one of its stamps. Fonts equal in
    every byte are linked to the first copy, page by page (the others are not written)."""

    def __init__(self):
        self.digests: dict[tuple, bytes] = {}
        self.canonical: dict[bytes, object] = {}
        self.seen: set[tuple] = set()

    def visit(self, resources) -> None:
        import pikepdf

        if not isinstance(resources, pikepdf.Dictionary):
            return
        fonts = resources.get("/Font")
        if isinstance(fonts, pikepdf.Dictionary):
            for name in list(fonts.keys()):
                font = fonts[name]
                if font.is_indirect:
                    fonts[name] = self.canonical.setdefault(_digest(font, self.digests), font)
        xobjects = resources.get("/XObject")
        if isinstance(xobjects, pikepdf.Dictionary):
            for name in list(xobjects.keys()):
                xobject = xobjects[name]
                if xobject.is_indirect and xobject.objgen not in self.seen:
                    self.seen.add(xobject.objgen)
                    self.visit(xobject.get("/Resources"))


def _digest(obj, digests: dict) -> bytes:
    """A digest of an object's content, references followed (an object's number is not
    part of it)."""
    import pikepdf

    if not isinstance(obj, pikepdf.Object):   # a number or a boolean, as Python has it
        return hashlib.sha256(f"{type(obj).__name__}:{obj!r}".encode()).digest()
    if obj.is_indirect:
        if obj.objgen in digests:
            return digests[obj.objgen]
        digests[obj.objgen] = b"cycle"
    h = hashlib.sha256()
    if isinstance(obj, pikepdf.Stream):
        h.update(b"stream" + _digest(obj.stream_dict, digests) + obj.read_raw_bytes())
    elif isinstance(obj, pikepdf.Dictionary):
        for key in sorted(obj.keys()):
            h.update(b"/" + key.encode() + _digest(obj[key], digests))
    elif isinstance(obj, pikepdf.Array):
        text = obj.unparse()
        if b" R" in text:    # it refers to other objects: their content, not their numbers
            h.update(b"[")
            for item in obj:
                h.update(_digest(item, digests))
        else:                # a font's widths: thousands of numbers, in one call
            h.update(text)
    else:
        h.update(obj.unparse())
    digest = h.digest()
    if obj.is_indirect:
        digests[obj.objgen] = digest
    return digest


class LayeredMerge:
    """`merge_layered_pdfs` for parts that come in one by one (a pack's chunks, as the
    workers finish them): the same file. A pack of one stage is joined as its parts come
    in (in order; a part that comes early waits on disk). A bigger one's parts wait in
    temporary files until `result`, after the workers are gone: a 1,000-sheet pack's
    chunks carry their own copies of the forms and stamps they draw (~35 MB in all), which
    the parent otherwise held while the workers were at their biggest."""

    def __init__(self, count: int):
        import tempfile

        self.count = count
        self._scratch = tempfile.TemporaryDirectory(prefix="printshop-parts-")
        self._added: set[int] = set()
        self._join = LayeredJoin().__enter__() if count <= one_stage() else None
        self._joined = 0   # parts joined so far: the first ones, in order

    def _path(self, index: int) -> Path:
        return Path(self._scratch.name) / f"{index:06d}.pdf"

    def add(self, index: int, pdf: bytes) -> None:
        if index in self._added or not 0 <= index < self.count:
            raise ValueError(f"part {index} added twice, or not one of {self.count}")
        self._added.add(index)
        if self._join is None or index != self._joined:
            self._path(index).write_bytes(pdf)
            return
        self._join.add(pdf)
        self._joined += 1
        while self._joined in self._added:   # parts that came early, now next
            path = self._path(self._joined)
            self._join.add(path.read_bytes())
            path.unlink()
            self._joined += 1

    def result(self, title: str | None = None,
               outline: list[tuple[str, int]] | None = None, counter=None) -> bytes:
        """The joined PDF. `counter` (printshop.progress.Counter, of `count` parts) is told
        as the parts waiting on disk are joined."""
        try:
            if len(self._added) != self.count:
                raise ValueError(f"{self.count - len(self._added)} parts were never added")
            if self._join is not None:
                return self._join.finish(title, outline)
            return merge_layered_pdfs(_OnDisk(Path(self._scratch.name), self.count, counter),
                                      title=title, outline=outline)
        finally:
            self.close()

    def close(self) -> None:
        if self._join is not None:
            self._join.__exit__(None, None, None)
            self._join = None
        self._scratch.cleanup()


class _OnDisk:
    """A LayeredMerge's parts as the sequence merge_layered_pdfs takes: read when asked
    for, so no more than a group of them is in memory at once."""

    def __init__(self, folder: Path, count: int, counter=None):
        self.folder, self.count, self.counter = folder, count, counter

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        return (self[n] for n in range(self.count))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[n] for n in range(*index.indices(self.count))]
        if not 0 <= index < self.count:
            raise IndexError(index)
        if self.counter is not None:
            self.counter.update(index + 1)
        return (self.folder / f"{index:06d}.pdf").read_bytes()
