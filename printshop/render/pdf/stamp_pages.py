"""A pack's stamps laid out in one flow, then cut into a page each (render/pdf/layers.py).

Each stamp must be a page of its own: a values page draws it by drawing that page (a form
XObject), and a page holding other stamps would draw their text too (hidden or not, a
reader's search and copy would find it). But a page a stamp cost WeasyPrint ~5 ms of page
making for a few words; laid out one after the other in one flow, the same stamps take a
third to a half of the time. So the stamps are laid out in one flow, and each page's
content stream is cut into one page per stamp: every run of text goes to the stamp whose
box holds its baseline, every painted path to the stamp whose box holds it, each with the
state it was drawn in, under the page's own coordinate system, so that the stamp sits
where its box says, as on a page of its own.

Only what this cut can attribute is cut: runs of text and painted paths (borders, rules,
an icon's shapes) whose points lie in one stamp's box, under the page's two base
transforms (WeasyPrint's flip and its px-to-pt scale) and any transform inside them, with
colour, graphics-state and clipping operators between them. Anything else (a picture, a
shading, a text object moved relatively) and `cut` says None: the caller lays the stamps
out a page each, as before.
"""

from __future__ import annotations

import io

from printshop.render.weasy.slots import Slot

# what may stand between the things drawn: saving and restoring the state, colours, the
# graphics state (opacity) and line settings
_STATE = {"q", "Q", "gs", "rg", "RG", "g", "G", "k", "K", "cs", "CS", "sc", "scn", "SC",
          "SCN", "w", "J", "j", "M", "d", "ri", "i"}
_SETS = {"gs": "gs", "rg": "fill", "g": "fill", "k": "fill", "cs": "fill-space",
         "sc": "fill", "scn": "fill", "RG": "stroke", "G": "stroke", "K": "stroke",
         "CS": "stroke-space", "SC": "stroke", "SCN": "stroke", "w": "w", "J": "J", "j": "j",
         "M": "M", "d": "d", "ri": "ri", "i": "i"}
_TEXT_STATE = {"Tf", "Tc", "Tw", "Tz", "TL", "Ts", "Tr"}   # kept by the graphics state too
_SHOW = {"TJ", "Tj"}
_PATH = {"m", "l", "c", "v", "y", "h", "re"}
_PAINT = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"}
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_BASE_TRANSFORMS = 2      # WeasyPrint's y flip, then its px → pt scale
_SLACK = 0.01             # px: a baseline on a box's edge still belongs to it
_BOXES = ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox")


def cut(pdf: bytes, pages: list[dict], count: int, uncompressed: bool) -> bytes | None:
    """`pdf` (stamps s0 … s{count-1} laid out in one flow; `pages`: each page's slots, as
    `slot_geometry` reads them) as one page per stamp, in order; None where its content
    holds something this cannot attribute to one stamp."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as source, pikepdf.new() as out:
        return _cut(source, out, pages, count, uncompressed)


def _cut(source, out, pages: list[dict], count: int, uncompressed: bool) -> bytes | None:
    import pikepdf

    if len(source.pages) != len(pages):
        return None
    made: dict[int, tuple[int, list]] = {}    # stamp → (its page, its operators)
    for number, (page, slots) in enumerate(zip(source.pages, pages)):
        stamps = [(int(name[1:]), slot) for name, slot in slots.items()
                  if name[:1] == "s" and name[1:].isdigit()]
        found = _cut_page(pikepdf.parse_content_stream(page), stamps)
        if found is None:
            return None
        for index, operators in found.items():
            made[index] = (number, operators)
    if sorted(made) != list(range(count)):
        return None
    cache: dict = {}
    for index in range(count):
        number, operators = made[index]
        flowed = source.pages[number].obj
        made_page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            Contents=pikepdf.Stream(out, pikepdf.unparse_content_stream(operators)),
            # (copied once: every stamp page shares the fonts of the flow's pages)
            Resources=_copied(out, source, flowed.Resources, cache))
        for box in _BOXES:
            if box in flowed:
                made_page[box] = pikepdf.Array([float(v) for v in flowed[box]])
        out.pages.append(pikepdf.Page(made_page))
    buffer = io.BytesIO()
    out.save(buffer, deterministic_id=True, compress_streams=not uncompressed)
    return buffer.getvalue()


def _cut_page(operators: list, stamps: list[tuple[int, Slot]]) -> dict[int, list] | None:
    """Each stamp's operators: the page's base (its leading q and cm), then each thing
    drawn in its box, the base closed again. A thing is a run of text or a painted path
    (a border, a rule, an icon's shape); each is written in a q … Q of its own with the
    state it was drawn in: the transform since the base, the clip, the graphics state,
    colours, font and text parameters. WeasyPrint writes the runs of one font and colour in
    one text object, each placed by its own text matrix (Tm): a text object is cut at each
    Tm."""
    base: list = []
    transforms = 0
    at = 0
    while at < len(operators) and transforms < _BASE_TRANSFORMS and \
            str(operators[at].operator) in ("q", "cm"):
        transforms += str(operators[at].operator) == "cm"
        base.append(operators[at])
        at += 1
    if transforms != _BASE_TRANSFORMS:
        return None
    opened = sum(str(op.operator) == "q" for op in base)
    # each level's state: "ctm", the transform since the base (where things are);
    # "geometry", the transforms and clips made since the base, in the order they were made
    # (written again before each thing, they make the same transform and clip); and the
    # graphics state, colours and text state by the operator that set them
    states: list[dict] = [{"ctm": _IDENTITY, "geometry": ()}]
    out: dict[int, list] = {index: list(base) for index, _ in stamps}
    in_text = False
    run: list | None = None       # the text run being read: its operators
    owner: int | None = None
    path: list = []               # the path being built: its operators
    clipping = False
    closed = 0

    def state(text: bool = False) -> list:
        """q, the transform and clip in force, the graphics state and colours (`text`:
        only the font and text parameters, for inside a text object)."""
        now = states[-1]
        made = [] if text else [_operator("q"), *now["geometry"]]
        made += [item for key, item in now.items() if key not in ("ctm", "geometry") and
                 (key in _TEXT_STATE) == text]
        return made

    def end_run() -> None:
        if run is not None and owner is not None:
            out[owner].extend(run + [_operator("ET"), _operator("Q")])

    for item in operators[at:]:
        op = str(item.operator)
        if closed and op != "Q":
            return None                # drawn outside the base transforms
        if op in _SETS or op in _TEXT_STATE:
            key = _SETS.get(op) or op
            # (last set last: a colour after the colour space it is in)
            states[-1].pop(key, None)
            states[-1][key] = item
            if run is not None:
                run.append(item)
        elif op == "BT":
            if in_text or path:
                return None
            in_text, run, owner = True, None, None
        elif op == "Tm":
            if not in_text:
                return None
            end_run()
            x, y = _apply(states[-1]["ctm"], float(item.operands[4]), float(item.operands[5]))
            owner = _owner(stamps, y, y, y)
            if owner is None:
                return None
            run = [*state(), _operator("BT"), *state(text=True), item]
        elif op in _SHOW:
            if run is None:
                return None
            run.append(item)
        elif op == "ET":
            if not in_text:
                return None
            end_run()
            in_text, run, owner = False, None, None
        elif in_text:
            return None                # a relative move (Td, T*): not cut here
        elif op in _PATH:
            path.append(item)
        elif op in ("W", "W*"):
            if not path:
                return None
            clipping = True
            path.append(item)
        elif op in _PAINT:
            if not path:
                return None
            if clipping:               # a clip (W n, or painted too): kept as state
                states[-1]["geometry"] = (*states[-1]["geometry"], *path, _operator("n"))
            if op != "n":
                ys = _path_ys(path, states[-1]["ctm"])
                found = _owner(stamps, min(ys), max(ys), (min(ys) + max(ys)) / 2) \
                    if ys else None
                if found is None:
                    return None
                drawn = [op_ for op_ in path if str(op_.operator) not in ("W", "W*")]
                out[found].extend(state() + drawn + [item, _operator("Q")])
            path, clipping = [], False
        elif path:
            return None                # a path left unpainted
        elif op == "cm":
            states[-1]["ctm"] = _times([float(v) for v in item.operands], states[-1]["ctm"])
            states[-1]["geometry"] = (*states[-1]["geometry"], item)
        elif op == "q":
            states.append(dict(states[-1]))
        elif op == "Q":
            if len(states) == 1:       # the base's own q closed: only more of them after
                closed += 1
                if closed > opened:
                    return None
            else:
                states.pop()
        elif op not in _STATE:
            return None    # a picture, a shading: not cut here
    if in_text or path:
        return None
    closing = [_operator("Q")] * opened
    return {index: ops + closing for index, ops in out.items()}


def _owner(stamps: list[tuple[int, Slot]], low: float, high: float, middle: float
           ) -> int | None:
    """The stamp whose box holds `middle` (a run's baseline, a path's middle; y in px),
    and all of [low, high] give or take a pixel."""
    for index, slot in stamps:
        top, bottom = slot.top, slot.top + slot.margin_height
        if top - _SLACK <= middle < bottom + _SLACK:
            return index if top - 1 <= low and high <= bottom + 1 else None
    return None


def _path_ys(path: list, ctm: tuple) -> list[float]:
    """The y of every point of a path (a rectangle's four corners), in the base's px."""
    ys = []
    for item in path:
        values = [float(v) for v in item.operands]
        if str(item.operator) == "re":
            x, y, w, h = values
            corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
        else:
            corners = list(zip(values[0::2], values[1::2]))
        ys += [_apply(ctm, px, py)[1] for px, py in corners]
    return ys


def _times(m: list[float], n: tuple) -> tuple:
    """The matrix m × n (PDF's order: cm's m applied first, then the transform in force)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def _apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _copied(out, source, obj, cache: dict):
    """`obj` of `source` copied into `out` once (a direct dictionary made indirect first:
    pikepdf copies indirect objects)."""
    key = obj.objgen if obj.is_indirect else id(obj)
    if key not in cache:
        cache[key] = out.copy_foreign(obj if obj.is_indirect else source.make_indirect(obj))
    return cache[key]


def _operator(name: str, *operands):
    import pikepdf

    return pikepdf.ContentStreamInstruction(list(operands), pikepdf.Operator(name))
