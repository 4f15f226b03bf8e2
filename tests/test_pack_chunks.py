"""A pack's chunks (products/pack_chunks.py)."""

from __future__ import annotations

import pytest

from printshop.products.pack_chunks import LazyJobs, split_into_chunks
from printshop.render.pdf import RenderJob


@pytest.mark.parametrize("count,size,workers", [(200, 10, 2), (205, 10, 2), (7, 10, 2),
                                                (1, 10, 4), (37, 4, 3), (50, 1, 2)])
def test_chunks_keep_every_character_once_in_order_with_a_finer_tail(count, size, workers):
    chunks = split_into_chunks(list(range(count)), size, workers)
    assert [i for chunk in chunks for i in chunk] == list(range(count))
    assert all(0 < len(chunk) <= size for chunk in chunks)
    if count >= workers * size:  # the last chunks are the small ones
        assert all(len(chunk) <= (size + 1) // 2 for chunk in chunks[-workers:])


def test_a_chunks_job_is_made_only_when_it_is_taken():
    made = []

    def html(n):
        made.append(n)
        return f"<p>{n}</p>"

    def make_job(text):
        return RenderJob(html=text, stylesheets=(), roots=(), base_url="", source="pack")

    work = [("chunk", 1, 1, lambda n=n: html(n)) for n in range(3)]
    jobs = LazyJobs(work, make_job)
    assert len(jobs) == 3 and made == []
    assert jobs[2].html == "<p>2</p>" and made == [2]
