"""Joining a book laid out a part at a time (products/book/parts.py) into one PDF that reads
as if WeasyPrint had made it whole: one page sequence, one set of named destinations, links
between parts that work, and one outline with each part's bookmarks in order.

Reproducible: the same parts give the same bytes (pikepdf's deterministic file id).
"""

from __future__ import annotations

import warnings


def merge_book_parts(parts: list[bytes], keep_pages: list[int], external: str) -> bytes:
    """`parts` in order, each cut to its first `keep_pages[i]` pages. Links to a named
    destination `external + NAME` go to NAME; those stand-in destinations are dropped."""
    import pikepdf

    from printshop.render.pdf.merge import PikeJoin

    with PikeJoin() as join:
        merged = join.merged
        dests: dict[str, object] = {}
        outline: list = []
        for part, keep in zip(parts, keep_pages):
            source = join.open(part)
            pages = list(source.pages)[:keep]
            start = len(merged.pages)
            with warnings.catch_warnings():
                # its named destinations are carried over below, with those of every part
                warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
                merged.pages.extend(pages)
            kept = {page.objgen: merged.pages[start + n].obj for n, page in enumerate(pages)}
            names = source.Root.get("/Names", {}).get("/Dests", {}).get("/Names", [])
            for i in range(0, len(names), 2):
                name = str(names[i])
                target = names[i + 1]
                if name.startswith(external) or target[0].objgen not in kept:
                    continue
                dests.setdefault(name, _moved(target, kept))
            with source.open_outline() as found:
                outline += [_copy_item(merged, item, kept) for item in found.root]
        for page in merged.pages:
            for annotation in page.obj.get("/Annots", []):
                dest = annotation.get("/Dest")
                if isinstance(dest, pikepdf.String) and str(dest).startswith(external):
                    annotation.Dest = pikepdf.String(str(dest)[len(external):])
        if dests:
            array = pikepdf.Array()
            for name in sorted(dests):
                array.append(pikepdf.String(name))
                array.append(dests[name])
            merged.Root.Names = pikepdf.Dictionary(
                Dests=merged.make_indirect(pikepdf.Dictionary(Names=array)))
        with merged.open_outline() as made:
            made.root.extend(item for item in outline if item is not None)
        if join.sources:
            first = join.sources[0]
            if "/Lang" in first.Root:
                merged.Root.Lang = first.Root.Lang
            if "/Info" in first.trailer:
                merged.trailer.Info = merged.copy_foreign(first.trailer.Info)
        return join.save()


def _moved(destination, kept: dict):
    """An explicit destination [page /XYZ x y zoom] leading to the page's copy."""
    import pikepdf

    return pikepdf.Array([kept[destination[0].objgen], *list(destination)[1:]])


def _copy_item(merged, item, kept):
    """A bookmark of a part, its destination copied into `merged` (None if it points at a
    page that was cut)."""
    import pikepdf

    destination = item.destination
    if isinstance(destination, pikepdf.Array) and len(destination) and \
            destination[0].objgen not in kept:
        return None
    if isinstance(destination, pikepdf.Array):
        destination = _moved(destination, kept)
    copy = pikepdf.OutlineItem(item.title, destination)
    copy.is_closed = item.is_closed
    copy.children.extend(child for child in (_copy_item(merged, c, kept)
                                             for c in item.children) if child is not None)
    return copy
