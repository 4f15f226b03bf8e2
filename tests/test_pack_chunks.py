"""A pack's chunks (products/characters/chunks.py)."""

from __future__ import annotations

import pytest

from printshop.products.characters.chunks import TAIL_CHUNKS, LazyJobs, split_into_chunks
from printshop.render.job import RenderJob


@pytest.mark.parametrize("count,size", [(200, 10), (205, 10), (7, 10), (1, 10), (37, 4),
                                        (50, 1)])
def test_chunks_keep_every_character_once_in_order_with_a_finer_tail(count, size):
    chunks = split_into_chunks(list(range(count)), size)
    assert [i for chunk in chunks for i in chunk] == list(range(count))
    assert all(0 < len(chunk) <= size for chunk in chunks)
    if count >= TAIL_CHUNKS * size:  # the last chunks are the small ones
        assert all(len(chunk) <= (size + 1) // 2 for chunk in chunks[-TAIL_CHUNKS:])


def test_the_same_pack_is_the_same_bytes_whatever_the_number_of_workers(tmp_path):
    from tests.conftest import run_cli

    files = []
    for jobs in ("1", "3"):
        out = tmp_path / f"pack-{jobs}.pdf"
        result = run_cli("roll", "characters", "--count", "30", "--seed", "cores", "-j", jobs,
                         "--out", out)
        assert result.exit_code == 0, result.output
        files.append(out.read_bytes())
    assert files[0] == files[1]


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
