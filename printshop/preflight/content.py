"""What a page actually draws, from its content streams (pikepdf): the colour spaces used
(not merely declared), the most ink any colour or image asks for, text colours, images with
their effective resolution as placed, transparency, and fonts. Form XObjects are walked
recursively with their /Matrix (WeasyPrint draws backgrounds inside forms).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

TEXT_SHOW = {"Tj", "TJ", "'", '"'}
MAX_DEPTH = 12


@dataclass
class Use:
    """One kind of thing seen on a page, counted."""

    code: str
    message: str
    count: int = 0


@dataclass
class PageReport:
    uses: dict[tuple[str, str], Use] = field(default_factory=dict)
    max_ink: float = 0.0                  # per cent, the most ink of any colour or pixel
    max_ink_what: str = ""
    images: list[tuple[str, float, int]] = field(default_factory=list)  # (name, ppi, bpc)
    rich_black_text: int = 0
    # objgen → (name, subtype, embedded, the program's digest or None)
    fonts: dict = field(default_factory=dict)

    def add(self, code: str, message: str) -> None:
        use = self.uses.setdefault((code, message), Use(code, message))
        use.count += 1

    def ink(self, percent: float, what: str) -> None:
        if percent > self.max_ink + 1e-9:
            self.max_ink, self.max_ink_what = percent, what


def _matmul(a, b):
    """a then b (PDF row-vector convention: [a b c d e f])."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _space_kind(space, resources) -> tuple[str, int]:
    """('rgb' | 'cmyk' | 'gray' | 'lab' | 'spot' | 'pattern' | 'indexed:…' | 'other', n)."""
    import pikepdf

    if isinstance(space, pikepdf.Name):
        name = str(space)
        simple = {"/DeviceRGB": ("rgb", 3), "/RGB": ("rgb", 3), "/DeviceCMYK": ("cmyk", 4),
                  "/CMYK": ("cmyk", 4), "/DeviceGray": ("gray", 1), "/G": ("gray", 1),
                  "/Pattern": ("pattern", 0)}
        if name in simple:
            return simple[name]
        spaces = resources.get("/ColorSpace") if resources is not None else None
        if spaces is not None and name in spaces:
            return _space_kind(spaces[name], None)
        return ("other", 0)
    if isinstance(space, pikepdf.Array) and len(space):
        family = str(space[0])
        if family == "/ICCBased":
            n = int(space[1].get("/N", 0))
            return ({1: "gray", 3: "rgb", 4: "cmyk"}.get(n, "other"), n)
        if family in ("/CalRGB",):
            return ("rgb", 3)
        if family in ("/CalGray",):
            return ("gray", 1)
        if family == "/Lab":
            return ("lab", 3)
        if family in ("/Separation", "/DeviceN"):
            return ("spot", 1 if family == "/Separation" else len(space[1]))
        if family in ("/Indexed", "/I"):
            base, _ = _space_kind(space[1], resources)
            return (f"indexed:{base}", 1)
        if family == "/Pattern":
            return ("pattern", 0)
    return ("other", 0)


class Walker:
    def __init__(self, cmyk: bool, forbid_transparency: bool, min_ppi: int | None):
        self.cmyk = cmyk
        self.forbid_transparency = forbid_transparency
        self.min_ppi = min_ppi
        # each embedded font program's digest, by object: decoded once, not once a page
        self._programs: dict[tuple[int, int], str] = {}

    def page(self, page) -> PageReport:
        report = PageReport()
        self._patterns_seen: set = set()
        self._walk(page.obj, page.obj.get("/Resources"), (1, 0, 0, 1, 0, 0), report, 0,
                   is_page=True)
        group = page.obj.get("/Group")
        if group is not None and str(group.get("/S")) == "/Transparency":
            self._transparency(report, "the page is a transparency group")
        return report

    # --- colour -----------------------------------------------------------------------------
    def _colour(self, report, kind: str, values, stroke: bool, in_text: bool) -> None:
        where = "text" if in_text else "graphics"
        which = "stroke" if stroke else "fill"
        if self.cmyk:
            if kind == "rgb":
                report.add("E-RGB", f"DeviceRGB {which} colour in {where}")
            elif kind == "lab":
                report.add("E-LAB", f"Lab {which} colour in {where}")
            elif kind == "spot":
                report.add("E-SPOT", f"spot (Separation/DeviceN) {which} colour in {where}")
        if kind == "cmyk" and values is not None and len(values) == 4:
            c, m, y, k = (float(v) for v in values)
            report.ink((c + m + y + k) * 100, f"{which} colour {_pc(c, m, y, k)} in {where}")
            if in_text and not stroke and self.cmyk and k >= 0.9 and (c or m or y):
                report.rich_black_text += 1

    def _transparency(self, report, what: str) -> None:
        if self.forbid_transparency:
            report.add("E-TRANSP", what)

    # --- walking ----------------------------------------------------------------------------
    def _walk(self, obj, resources, ctm, report, depth, is_page=False) -> None:
        import pikepdf

        if depth > MAX_DEPTH:
            return
        try:
            instructions = pikepdf.parse_content_stream(obj)
        except Exception:
            report.add("E-PDF", "a content stream cannot be parsed")
            return
        stack = []
        fill = stroke = ("gray", 1)
        in_text = False
        for instruction in instructions:
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                self._inline_image(instruction, resources, ctm, report)
                continue
            op = str(instruction.operator)
            args = instruction.operands
            if op == "q":
                stack.append((ctm, fill, stroke))
            elif op == "Q":
                if stack:
                    ctm, fill, stroke = stack.pop()
            elif op == "cm" and len(args) == 6:
                ctm = _matmul(tuple(float(a) for a in args), ctm)
            elif op == "BT":
                in_text = True
            elif op == "ET":
                in_text = False
            elif op in ("rg", "RG"):
                kind = ("rgb", 3)
                if op == "RG" or not in_text:  # a text fill is counted where text is shown
                    self._colour(report, "rgb", args, op == "RG", in_text)
                if op == "rg":
                    fill = kind
                else:
                    stroke = kind
            elif op in ("k", "K"):
                self._colour(report, "cmyk", args, op == "K", in_text)
                if op == "k":
                    fill = ("cmyk", 4)
                else:
                    stroke = ("cmyk", 4)
            elif op in ("g", "G"):
                if op == "g":
                    fill = ("gray", 1)
                else:
                    stroke = ("gray", 1)
                if args:
                    report.ink((1 - float(args[0])) * 100, "gray colour")
            elif op in ("cs", "CS") and args:
                kind = _space_kind(args[0], resources)
                if op == "cs":
                    fill = kind
                else:
                    stroke = kind
                if kind[0] not in ("cmyk", "gray", "pattern"):
                    self._colour(report, kind[0], None, op == "CS", in_text)
            elif op in ("sc", "scn", "SC", "SCN"):
                kind = fill if op in ("sc", "scn") else stroke
                numbers = [a for a in args if not isinstance(a, pikepdf.Name)]
                if kind[0] == "cmyk":
                    self._colour(report, "cmyk", numbers, op.isupper(), in_text)
                elif kind[0] == "pattern" and args and isinstance(args[-1], pikepdf.Name):
                    self._pattern(args[-1], resources, ctm, report, depth)
            elif op in TEXT_SHOW and in_text:
                if fill[0] == "rgb" and self.cmyk:
                    report.add("E-RGB", "DeviceRGB fill colour in text")
            elif op == "gs" and args:
                self._ext_gstate(args[0], resources, report)
            elif op == "sh" and args:
                self._shading(args[0], resources, report)
            elif op == "Do" and args:
                self._xobject(args[0], resources, ctm, report, depth)
            elif op == "Tf" and args:
                self._font(args[0], resources, report)

    def _ext_gstate(self, name, resources, report) -> None:
        states = resources.get("/ExtGState") if resources is not None else None
        if states is None or name not in states:
            return
        state = states[name]
        smask = state.get("/SMask")
        if smask is not None and str(smask) != "/None":
            self._transparency(report, "a soft mask (ExtGState /SMask)")
        for key in ("/CA", "/ca"):
            if key in state and float(state[key]) < 1:
                self._transparency(report, f"opacity below 1 ({key[1:]} {float(state[key]):g})")
        blend = state.get("/BM")
        if blend is not None and str(blend) not in ("/Normal", "/Compatible") and not (
                hasattr(blend, "__len__") and not isinstance(blend, str)
                and all(str(b) in ("/Normal", "/Compatible") for b in blend)):
            self._transparency(report, f"blend mode {blend}")

    def _pattern(self, name, resources, ctm, report, depth) -> None:
        """A tiling pattern is drawn by its own content stream (WeasyPrint paints CSS
        background images this way); a shading pattern by its shading."""
        patterns = resources.get("/Pattern") if resources is not None else None
        if patterns is None or name not in patterns:
            return
        pattern = patterns[name]
        key = pattern.objgen
        if key in self._patterns_seen:
            return
        self._patterns_seen.add(key)
        if int(pattern.get("/PatternType", 0)) == 1:
            matrix = tuple(float(v) for v in pattern.get("/Matrix", [1, 0, 0, 1, 0, 0]))
            self._walk(pattern, pattern.get("/Resources"), matrix, report, depth + 1)
        elif "/Shading" in pattern:
            space = pattern.Shading.get("/ColorSpace")
            if space is not None:
                kind, _ = _space_kind(space, resources)
                self._colour(report, kind, None, False, False)

    def _shading(self, name, resources, report) -> None:
        shadings = resources.get("/Shading") if resources is not None else None
        if shadings is None or name not in shadings:
            return
        space = shadings[name].get("/ColorSpace")
        if space is not None:
            kind, _ = _space_kind(space, resources)
            self._colour(report, kind, None, False, False)

    def _font(self, name, resources, report) -> None:
        fonts = resources.get("/Font") if resources is not None else None
        if fonts is None or name not in fonts:
            return
        font = fonts[name]
        key = font.objgen
        if key in report.fonts:
            return
        subtype = str(font.get("/Subtype", ""))
        base = str(font.get("/BaseFont", name))[1:]
        descriptor = font.get("/FontDescriptor")
        if subtype == "/Type0" and "/DescendantFonts" in font:
            descriptor = font.DescendantFonts[0].get("/FontDescriptor")
        program = next((descriptor[k] for k in ("/FontFile", "/FontFile2", "/FontFile3")
                        if descriptor is not None and k in descriptor), None)
        embedded = subtype == "/Type3" or program is not None
        # the embedded program's digest: two subsets under one name are two programs
        digest = None
        if program is not None:
            if program.objgen not in self._programs or program.objgen == (0, 0):
                self._programs[program.objgen] = hashlib.sha256(program.read_bytes()).hexdigest()
            digest = self._programs[program.objgen]
        report.fonts[key] = (base, subtype[1:], embedded, digest)

    def _xobject(self, name, resources, ctm, report, depth) -> None:
        xobjects = resources.get("/XObject") if resources is not None else None
        if xobjects is None or name not in xobjects:
            return
        xobject = xobjects[name]
        subtype = str(xobject.get("/Subtype"))
        if subtype == "/Image":
            self._image(xobject, str(name)[1:], resources, ctm, report)
        elif subtype == "/Form":
            matrix = tuple(float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0]))
            group = xobject.get("/Group")
            if group is not None and str(group.get("/S")) == "/Transparency":
                self._transparency(report, "a transparency group (Form XObject /Group)")
                space = group.get("/CS")
                if space is not None:
                    kind, _ = _space_kind(space, resources)
                    if kind == "rgb" and self.cmyk:
                        report.add("E-RGB", "DeviceRGB transparency group colour space")
            self._walk(xobject, xobject.get("/Resources", resources), _matmul(matrix, ctm),
                       report, depth + 1)

    def _image(self, image, name, resources, ctm, report) -> None:
        if image.get("/ImageMask"):
            return  # a stencil: painted with the fill colour, already checked
        space = image.get("/ColorSpace")
        kind = _space_kind(space, resources)[0] if space is not None else "other"
        if self.cmyk and (kind == "rgb" or kind == "indexed:rgb"):
            report.add("E-RGB", "DeviceRGB image")
        elif self.cmyk and kind in ("lab", "indexed:lab"):
            report.add("E-LAB", "Lab image")
        if "/SMask" in image or "/Mask" in image and not isinstance(image.get("/Mask"),
                                                                       list):
            if "/SMask" in image:
                self._transparency(report, "an image with an alpha channel (/SMask)")
        width, height = int(image.get("/Width", 0)), int(image.get("/Height", 0))
        placed_w = math.hypot(ctm[0], ctm[1]) / 72   # inches
        placed_h = math.hypot(ctm[2], ctm[3]) / 72
        if placed_w > 0 and placed_h > 0:
            ppi = min(width / placed_w, height / placed_h)
            bpc = int(image.get("/BitsPerComponent", 8))
            report.images.append((name, ppi, bpc))
        if kind == "cmyk":
            report.ink(_image_max_ink(image), f"image {name}")

    def _inline_image(self, instruction, resources, ctm, report) -> None:
        image = instruction.iimage
        space = image.obj.get("/CS", image.obj.get("/ColorSpace"))
        if space is not None:
            kind, _ = _space_kind(space, resources)
            if self.cmyk and kind == "rgb":
                report.add("E-RGB", "DeviceRGB inline image")


def _image_max_ink(image) -> float:
    """The most ink of any pixel (per cent, C+M+Y+K) of a CMYK image, from a thumbnail."""
    try:
        from pikepdf import PdfImage

        pil = PdfImage(image).as_pil_image()
    except Exception:
        return 0.0
    if pil.mode != "CMYK":
        return 0.0
    pil.thumbnail((256, 256))
    data = pil.tobytes()
    best = max((sum(data[i:i + 4]) for i in range(0, len(data), 4)), default=0)
    return best / 255 * 100


def _pc(c, m, y, k) -> str:
    return "/".join(f"{v * 100:.0f}" for v in (c, m, y, k))
