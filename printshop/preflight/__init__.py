"""`printshop preflight FILE.pdf --profile NAME`: does this PDF meet the print profile?

One finding per problem, each with a stable code and (when it belongs to a page) the page:
`p12: E-RGB: DeviceRGB fill colour in text (41 times)`. Codes starting with E are errors
(exit status != 0), W are warnings. `printshop build --profile` runs the same checks on
its own output and writes nothing if they fail.

| code | what |
|---|---|
| E-PDF | the file cannot be read |
| E-BLEED | no bleed, or not the profile's bleed on every side (MediaBox − TrimBox; with crop
  marks BleedBox − TrimBox, and the MediaBox holds the marks beyond it) |
| E-TRIM | the TrimBox is not the profile's trim size, or missing |
| E-SIZE | pages of different sizes |
| E-PAGES | the page count breaks the profile's rule (multiple of N, at least M) |
| E-PDFX | PDF/X identification: version header, GTS_PDFXVersion/Conformance, Trapped, ID |
| E-INTENT | output intent missing, or not a CMYK output (prtr) ICC profile |
| E-RGB, E-LAB, E-SPOT | colour spaces used under a CMYK profile |
| E-TEXTBLACK | black text printed on more than the K plate |
| E-INK | a colour or image above the profile's total ink limit |
| E-FONT, E-TYPE3 | a font not embedded; a Type 3 (bitmap) font |
| E-SUBSET | different subsets of a font under one name (ISO 32000-1, 9.6.4: each its own tag) |
| E-PPI | an image below the profile's effective resolution as placed |
| E-TRANSP | transparency in a PDF/X-1a or X-3 file |
| E-LINKS, E-BOOKMARKS | link annotations or an outline where the profile wants none |
| E-FILESIZE | larger than the service takes |
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from printshop.preflight.content import Walker
from printshop.profiles import POINTS_PER_MM, marks_room_mm

BOX_TOLERANCE_PT = 0.5
SUBSET_NAME = re.compile(r"[A-Z]{6}\+")    # a subset's tag: six capitals and a plus
FORBID_TRANSPARENCY = ("pdf/x-1a", "pdf/x-3")


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    page: int | None = None     # 1-based: the first page it is on
    count: int = 1              # how many times, on all its pages
    pages: tuple[int, ...] = ()  # every page it is on (when more than one)

    @property
    def error(self) -> bool:
        return self.code.startswith("E-")

    def __str__(self) -> str:
        where = f"p{self.page}: " if self.page else ""
        extra = []
        if self.count > 1:
            extra.append(f"{self.count} times")
        if len(self.pages) > 1:
            extra.append(f"on {len(self.pages)} pages: {_page_ranges(self.pages)}")
        more = f" ({', '.join(extra)})" if extra else ""
        return f"{where}{self.code}: {self.message}{more}"


def _page_ranges(pages: tuple[int, ...]) -> str:
    """(3, 4, 5, 9) → 'p3-5, p9'."""
    runs, start, last = [], pages[0], pages[0]
    for page in pages[1:] + (None,):
        if page is not None and page == last + 1:
            last = page
            continue
        runs.append(f"p{start}" if start == last else f"p{start}-{last}")
        if page is not None:
            start = last = page
    if len(runs) > 6:
        runs = runs[:5] + ["…", runs[-1]]
    return ", ".join(runs)


def summarise(findings: list[Finding]) -> list[Finding]:
    """The same finding on many pages becomes one line: its first page, every page, the
    total count (a flood of identical lines hides the other findings)."""
    merged: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        merged.setdefault((finding.code, finding.message), []).append(finding)
    out = []
    for (code, message), group in merged.items():
        pages = tuple(sorted({f.page for f in group if f.page}))
        out.append(Finding(code, message, pages[0] if pages else None,
                           sum(f.count for f in group), pages if len(pages) > 1 else ()))
    return sorted(out, key=lambda f: (f.page or 0, f.code, f.message))


def preflight(pdf: bytes, profile, trim_mm: tuple[float, float] | None = None,
              icc_bytes: bytes | None = None) -> list[Finding]:
    """Every finding for `pdf` against `profile` (printshop.profiles.PrintProfile).

    `trim_mm` is the expected trim (width, height); without it only the bleed and the
    sameness of the pages are checked. `icc_bytes`: the profile's own output profile, to
    compare with the file's output intent.
    """
    import pikepdf

    try:
        doc = pikepdf.open(io.BytesIO(pdf))
    except Exception as exc:
        return [Finding("E-PDF", f"not a readable PDF ({exc.__class__.__name__})")]
    findings: list[Finding] = []
    findings += _boxes(doc, profile, trim_mm)
    findings += _page_count(doc, profile)
    findings += _pdfx(doc, profile, icc_bytes)
    findings += _pages(doc, profile)
    findings += _navigation(doc, profile)
    if profile.max_file_mb is not None and len(pdf) > profile.max_file_mb * 1e6:
        findings.append(Finding("E-FILESIZE", f"{len(pdf) / 1e6:.1f} MB; "
                                f"the service takes up to {profile.max_file_mb:g} MB"))
    return summarise(findings)


def _mm(points: float) -> str:
    return f"{points / POINTS_PER_MM:.2f} mm"


def _box(page, name):
    box = page.obj.get(name)
    return [float(v) for v in box] if box is not None else None


def _boxes(doc, profile, trim_mm) -> list[Finding]:
    findings: list[Finding] = []
    bleed = profile.bleed * POINTS_PER_MM
    sizes = set()
    first_bad: dict[str, tuple[int, str, int]] = {}

    def bad(code, page_no, message):
        if code in first_bad:
            p, m, n = first_bad[code]
            first_bad[code] = (p, m, n + 1)
        else:
            first_bad[code] = (page_no, message, 1)

    for number, page in enumerate(doc.pages, start=1):
        media = _box(page, "/MediaBox")
        trim = _box(page, "/TrimBox")
        if trim is None:
            if profile.bleed > 0 or profile.pdf != "plain":
                bad("E-TRIM", number, "no TrimBox (the press cannot tell the trim)")
            trim = media
        width, height = trim[2] - trim[0], trim[3] - trim[1]
        sizes.add((round(width, 1), round(height, 1)))
        if trim_mm is not None:
            want_w, want_h = (v * POINTS_PER_MM for v in trim_mm)
            if abs(width - want_w) > BOX_TOLERANCE_PT or abs(height - want_h) > \
                    BOX_TOLERANCE_PT:
                bad("E-TRIM", number, f"trim {_mm(width)} × {_mm(height)}; the profile "
                    f"wants {trim_mm[0]:.2f} × {trim_mm[1]:.2f} mm")
        outer, outer_name = media, "MediaBox"
        if profile.marks == "crop":
            # the page holds the crop marks beyond the bleed: the BleedBox says the bleed
            outer, outer_name = _box(page, "/BleedBox") or media, "BleedBox"
            room = marks_room_mm(profile.bleed) * POINTS_PER_MM
            if any(m > t - room + BOX_TOLERANCE_PT for m, t in zip(media[:2], trim[:2])) \
                    or any(m < t + room - BOX_TOLERANCE_PT for m, t in zip(media[2:],
                                                                         trim[2:])):
                bad("E-BLEED", number, f"no room for the crop marks: the MediaBox should "
                    f"reach {_mm(room)} beyond the trim on every side")
        sides = (trim[0] - outer[0], trim[1] - outer[1], outer[2] - trim[2],
                 outer[3] - trim[3])
        if all(abs(s - bleed) <= BOX_TOLERANCE_PT for s in sides):
            continue
        if bleed > 0 and max(sides) <= BOX_TOLERANCE_PT:
            bad("E-BLEED", number, f"no bleed: the {outer_name} is the trim; the profile "
                f"wants {_mm(bleed)} on every side")
        else:
            bad("E-BLEED", number, "bleed of " + ", ".join(_mm(s) for s in sides)
                + f" (left, bottom, right, top); the profile wants {_mm(bleed)} on every "
                "side")
    for code, (page_no, message, count) in first_bad.items():
        pages = f" (and {count - 1} more pages)" if count > 1 else ""
        findings.append(Finding(code, message + pages, page_no))
    if len(sizes) > 1:
        listed = ", ".join(f"{_mm(w)} × {_mm(h)}" for w, h in sorted(sizes))
        findings.append(Finding("E-SIZE", f"pages of different trim sizes: {listed}"))
    return findings


def _page_count(doc, profile) -> list[Finding]:
    count = len(doc.pages)
    rule = profile.pages
    problems = []
    if rule.multiple_of > 1 and count % rule.multiple_of:
        problems.append(f"is not a multiple of {rule.multiple_of}")
    if count < rule.min:
        problems.append(f"is below the minimum of {rule.min}")
    if problems:
        return [Finding("E-PAGES", f"{count} pages: the count {' and '.join(problems)}")]
    return []


def _pdfx(doc, profile, icc_bytes) -> list[Finding]:
    from printshop.profiles import PDFX_KEYS  # what render/pdf/press.py writes

    if profile.pdf not in PDFX_KEYS:
        return []
    import pikepdf

    findings = []
    version, pdfx_version, conformance = PDFX_KEYS[profile.pdf]
    if doc.pdf_version > version:
        findings.append(Finding("E-PDFX", f"PDF {doc.pdf_version}; {profile.pdf} files are "
                                f"PDF {version} at most"))
    info = doc.docinfo
    have = str(info.get("/GTS_PDFXVersion", "")) or None
    if profile.pdf == "pdf/x-4" and not have:
        try:
            have = doc.open_metadata().get("pdfxid:GTS_PDFXVersion")
        except Exception:
            have = None
    if have != pdfx_version:
        findings.append(Finding("E-PDFX", f"GTS_PDFXVersion is {have or 'missing'}; "
                                f"{profile.pdf} wants {pdfx_version}"))
    if conformance and str(info.get("/GTS_PDFXConformance", "")) != conformance:
        findings.append(Finding("E-PDFX", "GTS_PDFXConformance is "
                                f"{info.get('/GTS_PDFXConformance') or 'missing'}; "
                                f"{profile.pdf} wants {conformance}"))
    trapped = info.get("/Trapped")
    if str(trapped) not in ("/True", "/False"):
        findings.append(Finding("E-PDFX", f"Trapped is {trapped or 'missing'} (True or "
                                "False, never Unknown)"))
    for key in ("/CreationDate", "/ModDate", "/Title"):
        if key not in info:
            findings.append(Finding("E-PDFX", f"the document information has no {key[1:]}"))
    if "/ID" not in doc.trailer:
        findings.append(Finding("E-PDFX", "the trailer has no /ID"))
    intents = [i for i in doc.Root.get("/OutputIntents", []) if
               str(i.get("/S")) == "/GTS_PDFX"]
    if len(intents) != 1:
        findings.append(Finding("E-INTENT", f"{len(intents)} PDF/X output intents; "
                                f"exactly one is needed"))
        return findings
    intent = intents[0]
    stream = intent.get("/DestOutputProfile")
    if not isinstance(stream, pikepdf.Stream):
        findings.append(Finding("E-INTENT", "the output intent has no embedded ICC profile "
                                "(DestOutputProfile)"))
        return findings
    data = stream.read_bytes()
    if len(data) < 128 or data[12:16] != b"prtr" or data[16:20] != b"CMYK":
        findings.append(Finding("E-INTENT", "the output intent's ICC profile is not a CMYK "
                                f"output profile (class {data[12:16]!r}, space "
                                f"{data[16:20]!r})"))
    elif profile.pdf != "pdf/x-4" and data[8] >= 4:
        findings.append(Finding("W-INTENT", f"ICC version {data[8]} output profile in a "
                                f"{profile.pdf} file (version 2 is the safe choice)"))
    if icc_bytes is not None and data != icc_bytes:
        findings.append(Finding("W-INTENT", "the output intent is not the profile's ICC "
                                f"profile ({profile.icc})"))
    if "/OutputConditionIdentifier" not in intent:
        findings.append(Finding("E-INTENT", "the output intent has no "
                                "OutputConditionIdentifier"))
    return findings


def _pages(doc, profile) -> list[Finding]:
    walker = Walker(cmyk=profile.cmyk,
                    forbid_transparency=profile.pdf in FORBID_TRANSPARENCY,
                    min_ppi=profile.min_image_ppi)
    findings: list[Finding] = []
    fonts_seen: set = set()
    subsets: dict[str, dict[str, int]] = {}   # subset name → program digest → first page
    for number, page in enumerate(doc.pages, start=1):
        report = walker.page(page)
        for use in report.uses.values():
            findings.append(Finding(use.code, use.message, number, use.count))
        if profile.ink_limit is not None and report.max_ink > profile.ink_limit + 0.5:
            findings.append(Finding("E-INK", f"{report.max_ink:.0f} % total ink "
                                    f"({report.max_ink_what}); the limit is "
                                    f"{profile.ink_limit} %", number))
        if report.rich_black_text:
            findings.append(Finding("E-TEXTBLACK", "black text on more plates than K "
                                    "(rich black text misregisters)", number,
                                    report.rich_black_text))
        if profile.min_image_ppi:
            for name, ppi, bpc in report.images:
                need = profile.min_image_ppi * (2 if bpc == 1 else 1)
                if ppi + 0.5 < need:
                    findings.append(Finding("E-PPI", f"image {name} is {ppi:.0f} ppi as "
                                            f"placed; the profile wants {need}", number))
        for key, (name, subtype, embedded, digest) in report.fonts.items():
            if key in fonts_seen:
                continue
            fonts_seen.add(key)
            if digest is not None and SUBSET_NAME.match(name):
                subsets.setdefault(name, {}).setdefault(digest, number)
            if subtype == "Type3":
                findings.append(Finding("E-TYPE3", f"font {name} is Type 3 (bitmap glyphs)",
                                        number))
            elif not embedded:
                findings.append(Finding("E-FONT", f"font {name} is not embedded", number))
    for name, programs in subsets.items():
        if len(programs) > 1:
            findings.append(Finding(
                "E-SUBSET", f"{len(programs)} different subsets of a font named {name} (each "
                "needs a tag of its own: software that merges fonts by name loses glyphs)",
                sorted(programs.values())[1]))
    return findings


def _navigation(doc, profile) -> list[Finding]:
    findings = []
    if not profile.links:
        count, first = 0, None
        for number, page in enumerate(doc.pages, start=1):
            annots = page.obj.get("/Annots")
            if annots is not None and len(annots):
                count += len(annots)
                first = first or number
        if count:
            findings.append(Finding("E-LINKS", f"{count} annotations (links) in the file; "
                                    "the service wants none", first))
    if not profile.bookmarks and "/Outlines" in doc.Root and \
            doc.Root.Outlines.get("/First") is not None:
        findings.append(Finding("E-BOOKMARKS", "the file has bookmarks (an outline); the "
                                "service wants none"))
    return findings


def report_text(findings: list[Finding], path: str, profile_name: str) -> str:
    errors = sum(1 for f in findings if f.error)
    warnings = len(findings) - errors
    lines = [str(f) for f in findings]
    verdict = "fails" if errors else "passes"
    lines.append(f"{path}: {verdict} preflight for '{profile_name}' ({errors} error"
                 f"{'s' if errors != 1 else ''}, {warnings} warning"
                 f"{'s' if warnings != 1 else ''})")
    return "\n".join(lines)


def report_json(findings: list[Finding], path: str, profile_name: str) -> str:
    return json.dumps({"file": path, "profile": profile_name,
                       "passed": not any(f.error for f in findings),
                       "findings": [dict(asdict(f), pages=list(f.pages or ([f.page] if f.page
                                                                        else [])),
                                         severity="error" if f.error else "warning")
                                    for f in findings]},
                      indent=2) + "\n"


def expected_trim(profile, paper_sizes: dict[str, tuple[float, float]]
                  ) -> tuple[float, float] | None:
    if profile.trim is None:
        return None
    return paper_sizes[profile.trim]


def papers_mm() -> dict[str, tuple[float, float]]:
    from printshop.source.tables import load_table

    table = load_table(Path(__file__).resolve().parent.parent / "data" / "papers.yaml")
    return {row["id"]: (row["width"], row["height"]) for row in table.rows}
