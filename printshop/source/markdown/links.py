"""Where links, cross-references and images point, for the whole manuscript at once.

* `#id` looks in the link's own file first (ids as GitHub and kramdown make them, `-1`,
  `-2` for repeats), then in the whole book, then the aliases other tools would use;
* `other.md#id`, `other#id`, `other.md`, `other.html`, `other`, `sub/other.md`: that chapter
  file (from the linking file's folder, then from its pretty URL: `guide.md` linking
  `saves` may mean `guide/saves.md`, as a static site serves it); `/an/address/`: the
  chapter whose front matter says the site serves it there (`permalink`, `redirect_from`,
  `aliases`), else the file at that path from the manuscript's root;
* `[[Note]]`, `[[Note#Heading]]`, `[[Note#^block]]`, `[[#Heading]]`: an Obsidian note by
  its file name, then a heading by title or id (printshop's own `[[Experience]]`);
* images: relative to the chapter, or from the manuscript's root when they start with `/`
  (as on a static site); only files inside the project, never the network.

Anything that does not resolve is reported by the reader and printed as plain text (a link)
or as a visible box naming the path (an image).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from printshop.safepath import UnsafePath, resolve_inside
from printshop.source.images import ImageRefused, check_image_size
from printshop.source.markdown.slugs import aliases, github_slug

SAFE_SCHEMES = ("http://", "https://", "mailto:")


@dataclass
class Heading:
    id: str
    title: str
    level: int
    path: Path
    line: int
    no_toc: bool = False


@dataclass
class SourceFile:
    path: Path
    local_ids: dict[str, Heading] = field(default_factory=dict)
    block_ids: dict[str, str] = field(default_factory=dict)
    raw_ids: dict[str, str] = field(default_factory=dict)  # id="…" in raw HTML → book id
    headings: list[Heading] = field(default_factory=list)
    chapter_id: str | None = None
    urls: list[str] = field(default_factory=list)   # other site addresses (front matter)


class Links:
    def __init__(self, root: Path, roots: list[Path], files: list[SourceFile],
                 headings: dict[str, Heading]):
        self.root = root
        self.roots = roots
        self.headings = headings
        self.files = {f.path.resolve(): f for f in files}
        self.by_stem: dict[str, list[SourceFile]] = {}
        self.by_relative: dict[str, SourceFile] = {}
        for f in files:
            self.by_stem.setdefault(f.path.stem.casefold(), []).append(f)
            try:
                relative = f.path.resolve().relative_to(root.resolve()).with_suffix("")
                self.by_relative.setdefault(relative.as_posix().casefold(), f)
            except ValueError:
                pass
        self.by_url: dict[str, SourceFile] = {}
        for f in files:
            for url in f.urls:
                self.by_url.setdefault(_site_path(url), f)
        self.block_ids = {bid for f in files for bid in (*f.block_ids.values(),
                                                          *f.raw_ids.values())}
        self.aliases: dict[str, str] = {}
        self.by_title: dict[str, list[Heading]] = {}
        for heading in headings.values():
            self.by_title.setdefault(heading.title.casefold(), []).append(heading)
            for alias in aliases(heading.title):
                self.aliases.setdefault(alias, heading.id)

    # --- fragments -------------------------------------------------------------------------
    def fragment(self, source: SourceFile, wanted: str) -> str | None:
        wanted = unquote(wanted)
        if wanted.startswith("^"):
            return source.block_ids.get(wanted[1:])
        if wanted in source.raw_ids:
            return source.raw_ids[wanted]
        if wanted in source.local_ids:
            return source.local_ids[wanted].id
        if wanted.lower() in source.local_ids:
            return source.local_ids[wanted.lower()].id
        if wanted in self.headings or wanted in self.block_ids:
            return wanted
        return self.aliases.get(wanted) or self.aliases.get(github_slug(wanted))

    def file_for(self, base: SourceFile, target: str) -> SourceFile | None:
        target = unquote(target).rstrip("/")  # static sites link to pretty URLs: page/
        if not target:
            return None
        if target.startswith("/") and _site_path(target) in self.by_url:
            return self.by_url[_site_path(target)]
        if target.endswith(".html"):   # the page a static site builds from the chapter
            target = target.removesuffix(".html")
        candidates = [target] if target.endswith(".md") else [
            target + ".md", target + "/index.md", target + "/README.md", target + "/_index.md"]
        # relative to the file's folder; then to the page's own pretty URL, as a static site
        # serves `guide.md` at guide/ (a Jekyll or Hugo section page linking `saves` means
        # guide/saves.md)
        folders = [self.root] if target.startswith("/") else \
            [base.path.parent, base.path.with_suffix("")]
        for folder in folders:
            for candidate in candidates:
                found = self.files.get((folder / candidate.lstrip("/")).resolve())
                if found:
                    return found
        return self._by_path(target.removesuffix(".md"))

    def _by_path(self, name: str) -> SourceFile | None:
        """Obsidian links from the vault's root (`Compendium/13A/Classes/Cleric`), and the
        manuscript may be a folder of that vault: the longest tail of the path that names a
        chapter file, from the manuscript's root."""
        parts = [p for p in name.strip("/").split("/") if p not in ("", ".")]
        if ".." in parts:
            return None
        for start in range(len(parts)):
            tail = "/".join(parts[start:]).casefold()
            if tail in self.by_relative:
                return self.by_relative[tail]
        return None

    # --- links -----------------------------------------------------------------------------
    def href(self, source: SourceFile, href: str) -> tuple[str | None, str | None]:
        """(new href or None to print plain text, problem or None)."""
        if href.startswith("#"):
            found = self.fragment(source, href[1:])
            return ("#" + found, None) if found else (None, f"link to '{href}': no heading "
                                                           "has that id")
        lowered = href.strip().lower()
        if lowered.startswith(SAFE_SCHEMES):
            return href, None
        if ":" in lowered.split("/")[0]:
            scheme = lowered.split(":")[0]
            return None, (f"link '{href}': {scheme}: links are not allowed (use http(s), "
                          "mailto or #section); printed as plain text")
        target, _, fragment = href.partition("#")
        other = self.file_for(source, target) if target else source
        if other is None:
            return None, f"link '{href}': no chapter '{target}' in the book; printed as " \
                         "plain text"
        if fragment:
            found = self.fragment(other, fragment)
            if found:
                return "#" + found, None
            return None, f"link '{href}': no heading '{fragment}' in {other.path.name}; " \
                         "printed as plain text"
        return ("#" + other.chapter_id, None) if other.chapter_id else (None, None)

    # --- cross-references and wikilinks ------------------------------------------------------
    def xref(self, source: SourceFile, meta: dict) -> tuple[Heading | str | None, str | None]:
        note, fragment, target = meta["note"], meta["fragment"], meta["target"]
        if fragment or "#" in target:
            other = self._note(note) if note else source
            if other is None:
                return None, f"[[{target}]]: no note '{note}' in the book"
            found = self.fragment(other, fragment) or self._title_in(other, fragment)
            if found is None:
                return None, f"[[{target}]]: no heading '{fragment}' in {other.path.name}"
            return self.headings.get(found) or found, None
        other = self._note(note)
        if other is not None and other.chapter_id:
            return self.headings[other.chapter_id], None
        heading = self.headings.get(target) or self.headings.get(self.aliases.get(target, ""))
        candidates = self.by_title.get(target.casefold(), [])
        if len(candidates) == 1:
            heading = candidates[0]
        if heading is not None:
            return heading, None
        hint = "" if not candidates else (" (several sections have that title: use the id, "
                                          f"e.g. [[{candidates[0].id}]])")
        return None, f"cross-reference [[{target}]]: no note, section title or id{hint}"

    def _note(self, note: str) -> SourceFile | None:
        name = note.strip().removesuffix(".md")
        if "/" in name:
            found = self._by_path(name)
            if found:
                return found
        matches = self.by_stem.get(name.split("/")[-1].casefold(), [])
        return matches[0] if matches else None

    def _title_in(self, source: SourceFile, title: str) -> str | None:
        for heading in source.headings:
            if heading.title.casefold() == title.casefold():
                return heading.id
        return None

    # --- images ----------------------------------------------------------------------------
    def image(self, source: SourceFile, src: str,
              embed: bool = False) -> tuple[str | None, str | None]:
        """(file URI or None for a placeholder, problem or None)."""
        lowered = src.strip().lower()
        if lowered.startswith(("http://", "https://", "//")):
            return None, (f"image '{src}': printshop never fetches from the network; save "
                          "the image inside the project")
        if ":" in lowered.split("/")[0]:
            return None, f"image '{src}': only files inside the project can be used"
        path = unquote(src.split("#")[0].split("?")[0])
        resolved: Path | None
        try:
            if path.startswith("/"):  # a site-root path: from the manuscript's root
                resolved = resolve_inside(path.lstrip("/"), self.roots, base=self.root)
            elif embed:
                resolved = self._embedded(source, path)
            else:
                try:
                    resolved = resolve_inside(path, self.roots, base=source.path.parent)
                except UnsafePath as exc:
                    resolved = self._vault_path(path) if "not found" in str(exc) else None
                    if resolved is None:
                        raise
            check_image_size(resolved, resolved.name)
        except (UnsafePath, ImageRefused) as exc:
            return None, f"image '{src}': {exc}"
        return resolved.as_uri(), None

    def _vault_path(self, path: str) -> Path | None:
        """An image named from the vault's root, the manuscript being a folder of it."""
        parts = [p for p in path.split("/") if p not in ("", ".")]
        if ".." in parts:
            return None
        for start in range(1, len(parts)):
            try:
                return resolve_inside("/".join(parts[start:]), self.roots, base=self.root)
            except UnsafePath:
                continue
        return None

    def _embedded(self, source: SourceFile, name: str) -> Path:
        """Obsidian finds `![[map.png]]` next to the note, else anywhere in the vault."""
        try:
            return resolve_inside(name, self.roots, base=source.path.parent)
        except UnsafePath:
            pass
        if "/" not in name and ".." not in name:
            for candidate in sorted(self.root.rglob(name)):
                if not any(p.startswith(".") for p in candidate.relative_to(self.root).parts):
                    return resolve_inside(candidate, self.roots, allow_absolute=True)
        return resolve_inside(name, self.roots, base=self.root)


def _site_path(url: str) -> str:
    """An address on the site, compared as a static site would serve it: `/cairn-srd/`,
    `/cairn-srd`, `/Cairn-SRD.html` and `/cairn-srd/index.html` are one page."""
    path = unquote(url.split("#")[0].split("?")[0]).strip().strip("/").casefold()
    for suffix in ("/index.html", ".html", "/index"):
        path = path.removesuffix(suffix)
    return path


# more links than this to ids a file does not have are one warning (Cairn's SRD links each
# of its 100 spells to an id of the web page's own: 100 warnings, one a line)
MISSING_IDS_SUMMARY = 5


def summarise_missing_ids(dangling: dict) -> None:
    """Links of one file to ids no heading has, when there are many: one entry, with the
    first few ids and the lines they span."""
    keys = [k for k in dangling if k.startswith("link to '#") and k.endswith("has that id")]
    if len(keys) <= MISSING_IDS_SUMMARY:
        return
    misses = sorted((m for k in keys for m in dangling.pop(k)), key=lambda m: m[0])
    ids = [k[len("link to '"):k.index("':")] for k in
           sorted(keys, key=lambda k: min(line for line, _, _ in
                                          [m for m in misses if m[1].startswith(k)]))]
    shown = ", ".join(f"'{i}'" for i in ids[:3])
    first, last = misses[0][0], misses[-1][0]
    message = (f"{len(misses)} links to ids no heading has: {shown} and {len(ids) - 3} more "
               f"(lines {first}-{last})")
    dangling[message] = [(first, message, misses[0][2])]
