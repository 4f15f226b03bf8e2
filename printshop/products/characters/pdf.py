"""A pregen pack's PDF parts: the cover and index pages and the sheets in chunks, rendered on
the workers (the sheets drawn in layers when the pack is big enough: products/
pregen_layers.py), checked page by page, in order for the merge."""

from __future__ import annotations

from printshop.errors import PrintshopError
from printshop.products.characters.chunks import LazyJobs, split_into_chunks
from printshop.products.common import base_url
from printshop.render.checks import FitCheck
from printshop.render.job import RenderJob
from printshop.render.job_warnings import collect_warnings


def render_parts(pregens, ctx, characters, paper, pack, layout):
    """Every page of a pack, as chunk PDFs to be joined in order (a LayeredMerge: its
    `result` is the file). A chunk's HTML is made only when a worker is ready for it, and
    its PDF waits on disk, so a big pack never holds all of either in memory."""
    from printshop.products.characters import pregens as settings  # (tests change these)
    from printshop.render.pdf.layered_merge import LayeredMerge

    sheets_css = pregens._stylesheets(paper)
    roots = tuple(str(r) for r in pregens.project.read_roots)
    source = f"{pregens.template} ({pregens.name})"

    def make_job(html: str) -> RenderJob:
        return RenderJob(html=html, stylesheets=sheets_css, roots=roots,
                         base_url=base_url(pregens.project), source=source,
                         uncompressed=ctx.uncompressed, extensions=(FitCheck(),))

    size = pregens.options.sheets_per_chunk
    index_pages = pregens.index_pages(characters) if pregens.options.cover else []
    marks = pregens.marks_for(characters)   # a kit's sheet reprinted: its table and seat
    chunks = split_into_chunks(characters, size)
    # (what it is, pages it must come out as, sheets in it, how to make its HTML)
    work = []
    for first in range(0, len(index_pages), settings.INDEX_PAGES_PER_JOB):
        pages = index_pages[first:first + settings.INDEX_PAGES_PER_JOB]
        blank = first + len(pages) == len(index_pages) and \
            layout.cover_pages > len(index_pages)
        work.append(("the cover and index", len(pages) + blank, 0,
                     lambda first=first, pages=pages, blank=blank: pregens._render(
                         "cover", characters, paper, pack, index_pages=pages,
                         first_index_page=first, blank_back=blank)))
    # the cover and index need only the characters: the workers render them while
    # this process learns the sheets' layers (and the forms wait for them, not long)
    covers = ctx.renderer.in_background([make_job(item[3]()) for item in work]) \
        if pregens._layered(characters) else None
    try:
        layers = pregens.layered_sheets(ctx, characters, paper, pack, make_job, marks=marks)
    except BaseException:
        if covers is not None:
            covers.join()   # not left rendering on workers about to be stopped
        raise
    for chunk in chunks:
        work.append((f"sheets #{chunk[0].index}–#{chunk[-1].index}",
                     len(chunk) * layout.pages_per_character, len(chunk),
                     (lambda chunk=chunk: layers.job(chunk, marks)) if layers else
                     (lambda chunk=chunk: pregens._render("sheets", chunk, paper, pack,
                                                          marks=marks))))
    covered = covers.result() if covers is not None else []
    merge = LayeredMerge(len(work))
    keep_bytes = ctx.renderer.cache is not None   # the build's cache stores them later

    def take(index: int, result) -> None:
        """A part that came out as it should goes to the merge (one that did not is
        rendered again, or reported, below)."""
        expected = work[index][1]
        if not FitCheck.overflows(result) and result.pages == expected:
            merge.add(index, result.pdf)
            if not keep_bytes:
                result.pdf = b""

    for index, result in enumerate(covered):
        take(index, result)

    from printshop.progress import Counter

    if ctx.progress and len(characters) > size:
        ctx.progress(f"{pregens.name}: rendering {len(characters)} sheets in {len(chunks)} "
                     "chunks")
    # quiet for quick packs, then a bar (or a line every few seconds) and one at the end
    counter = Counter(ctx.progress, f"{pregens.name}: rendering", len(characters),
                      "sheets", quiet_for=settings.PROGRESS_AFTER_S,
                      every=settings.PROGRESS_EVERY_S)
    counter.update(sum(work[i][2] for i in range(len(covered))))

    def on_done(index: int, result) -> None:
        index += len(covered)
        take(index, result)
        counter.update(step=work[index][2])

    results = covered + ctx.renderer.render(LazyJobs(work[len(covered):], make_job),
                                            on_done=on_done)
    if layers:
        redone = layers.redo_overflowing(
            ctx.renderer, work, results,
            lambda n: (chunks[n - (len(work) - len(chunks))], marks))
        for index, (before, after) in enumerate(zip(results, redone)):
            if after is not before:
                take(index, after)
        results = redone
    problems = pregens.pack_problems(work, results)
    for result in results:
        for warning in collect_warnings([result]):
            ctx.warn(warning)
    if problems:
        merge.close()
        raise PrintshopError(problems)
    return merge
