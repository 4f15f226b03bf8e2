"""A pack's render jobs in chunks, made only when a worker takes them (a big pack never
holds all of its HTML at once). Pregen packs and convention kits share them."""

from __future__ import annotations

from printshop.render.job import RenderJob

# The last TAIL_CHUNKS chunks' worth of a pack go in half-size chunks, so the workers finish
# close together (up to 8 of them) instead of one idling while another renders a whole chunk
# at the end. A constant, not the number of workers: the chunks, and so the bytes of the
# merged PDF, must not depend on the machine or on -j.
TAIL_CHUNKS = 4


def split_into_chunks(items: list, size: int) -> list[list]:
    """Chunks of `size`, the last TAIL_CHUNKS chunks' worth in half-size chunks."""
    tail_start = max(0, len(items) - TAIL_CHUNKS * size) // size * size
    half = max(1, (size + 1) // 2)
    return [items[i:i + size] for i in range(0, tail_start, size)] + \
        [items[i:i + half] for i in range(tail_start, len(items), half)]


class LazyJobs:
    """The render jobs of a pack as a sequence whose items are made when they are taken."""

    def __init__(self, work: list, make_job):
        self.work, self.make_job = work, make_job

    def __len__(self) -> int:
        return len(self.work)

    def __getitem__(self, index: int) -> RenderJob:
        made = self.work[index][3]()   # HTML, or a ready job (layered sheets)
        return made if isinstance(made, RenderJob) else self.make_job(made)
