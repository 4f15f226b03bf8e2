"""Card faces laid out each on a page of its own, then placed on their sheets as forms.

WeasyPrint shares a computed style between elements with the same parent style, rules and
declarations. On a sheet every card sits in a box of its own position, so no two cards
shared any style: a third of a card sheet's time went into computing the same styles nine
times. A sheet job instead lays each face out on a page of the face's own size (every
face then has the same ancestors, and its styles are computed once a job), the sheet's
own drawing (cut marks, fold line, guides, the printing note) on the sheet's page, and
`place_faces` then draws each face page onto its sheet as a form XObject where the
imposition puts it, under the sheet's own drawing, and drops the face pages. A face that
shows more than once in a job (a sheet of backs) is laid out once and placed each time.

What the face pages held moves with them: their links, their bookmarks and named
destinations now point into the sheet, at the same place on the card.
"""

from __future__ import annotations

import io

from printshop.render.pdf.layers import _num, own_xobjects

MM_TO_PT = 72 / 25.4


def place_faces(pdf: bytes, sheets: tuple, uncompressed: bool = False) -> bytes:
    """`pdf`: the sheets' pages, then the face pages; `sheets`: for each sheet, its faces
    as (face page index, x, y, width, height[, clip]), mm from the sheet's top left corner
    (its trim box's, when it has bleed); `clip` (x, y, width, height), when given, is the
    part of the sheet the face may draw on. The sheets alone, each with its faces drawn on
    it."""
    import pikepdf

    doc = pikepdf.open(io.BytesIO(pdf))
    count = len(sheets)
    wanted = 1 + max((face for placed in sheets for face, *_ in placed), default=-1)
    if len(doc.pages) != count + wanted:   # (a stylesheet made a sheet or face two pages)
        raise ValueError(f"{count} sheets and {wanted} card faces came out as "
                         f"{len(doc.pages)} pages, not one a sheet and one a face")
    faces = [doc.pages[count + n] for n in range(wanted)]
    forms = [face.as_form_xobject() for face in faces]
    moved: dict[int, tuple[int, float, float]] = {}   # face page → (sheet, dx, dy) first
    for number, placed in enumerate(sheets):
        sheet = doc.pages[number]
        left, top = _origin(sheet)
        xobjects = own_xobjects(sheet)
        ops = []
        for slot, (face, x, y, _, height, *clip) in enumerate(placed):
            name = f"/PsFace{slot}"
            xobjects[name] = forms[face]
            dx, dy = left + x * MM_TO_PT, top - (y + height) * MM_TO_PT
            cut = b""
            if clip and clip[0] is not None:   # only this part of the face shows
                cx, cy, cw, ch = clip[0]
                cut = b"%s %s %s %s re W n " % (
                    _num(left + cx * MM_TO_PT), _num(top - (cy + ch) * MM_TO_PT),
                    _num(cw * MM_TO_PT), _num(ch * MM_TO_PT))
            ops.append(b"q %s1 0 0 1 %s %s cm %s Do Q" % (cut, _num(dx), _num(dy),
                                                         name.encode()))
            moved.setdefault(face, (number, dx, dy))
            _move_annotations(doc, faces[face], sheet, dx, dy)
        if ops:   # under what the sheet draws itself (its marks, guides and note)
            sheet.contents_add(pikepdf.Stream(doc, b"\n".join(ops) + b"\n"), prepend=True)
    face_pages = {face.objgen: n for n, face in enumerate(faces)}
    _move_destinations(doc, face_pages, moved)
    del doc.pages[count:]
    out = io.BytesIO()
    doc.save(out, deterministic_id=True, compress_streams=not uncompressed)
    doc.close()
    return out.getvalue()


def _origin(page) -> tuple[float, float]:
    """Where the sheet's top left corner is in its PDF user space (its trim box's)."""
    box = page.obj.get("/TrimBox", page.obj.MediaBox)
    x0, y0, x1, y1 = (float(v) for v in box)
    return min(x0, x1), max(y0, y1)


def _move_annotations(doc, face, sheet, dx: float, dy: float) -> None:
    import pikepdf

    annots = face.obj.get("/Annots")
    if not annots:
        return
    target = sheet.obj.get("/Annots")
    if target is None:
        target = sheet.obj.Annots = pikepdf.Array()
    for annot in annots:
        copy = pikepdf.Dictionary({k: v for k, v in annot.items() if k != "/P"})
        x0, y0, x1, y1 = (float(v) for v in annot.Rect)
        copy.Rect = pikepdf.Array([x0 + dx, y0 + dy, x1 + dx, y1 + dy])
        copy.P = sheet.obj
        target.append(doc.make_indirect(copy))


def _move_destinations(doc, face_pages: dict, moved: dict) -> None:
    """Bookmarks and named destinations on a face page point at its first placement."""
    import pikepdf

    def moved_dest(dest):
        if not isinstance(dest, pikepdf.Array) or len(dest) < 2:
            return None
        face = face_pages.get(getattr(dest[0], "objgen", None))
        if face is None or face not in moved:
            return None
        sheet, dx, dy = moved[face]
        new = [doc.pages[sheet].obj, *dest[1:]]
        if dest[1] == pikepdf.Name.XYZ:    # [page /XYZ left top zoom]: a place on it
            for index, offset in ((2, dx), (3, dy)):
                if len(dest) > index and _is_number(dest[index]):
                    new[index] = float(dest[index]) + offset
        return pikepdf.Array(new)

    def walk_outline(item):
        while item is not None:
            dest = item.get("/Dest")
            new = moved_dest(dest) if dest is not None else None
            if new is not None:
                item.Dest = new
            first = item.get("/First")
            if first is not None:
                walk_outline(first)
            item = item.get("/Next")

    outlines = doc.Root.get("/Outlines")
    if outlines is not None and outlines.get("/First") is not None:
        walk_outline(outlines.First)
    names = doc.Root.get("/Names")
    dests = names.get("/Dests") if names is not None else None
    if dests is not None and "/Names" in dests:
        pairs = dests.Names
        for index in range(1, len(pairs), 2):
            new = moved_dest(pairs[index])
            if new is not None:
                pairs[index] = new
    for page in doc.pages:
        for annot in page.obj.get("/Annots", []):
            new = moved_dest(annot.get("/Dest"))
            if new is not None:
                annot.Dest = new


def _is_number(value) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True
