import os

import pytest

from printshop.errors import PrintshopError
from printshop.output import BuildOutput, TMP_PREFIX, check_output_name


@pytest.mark.parametrize("name", ["../../x", "a/b.pdf", "con", "CON.pdf", "nul.html", ".hidden",
                                  "", "x" * 200, "a\x00b"])
def test_names_never_become_paths_or_devices(name):
    with pytest.raises(PrintshopError):
        check_output_name(name)


def test_nothing_is_written_before_commit_and_everything_after(tmp_path):
    out = BuildOutput(tmp_path / "build")
    out.add("a.pdf", b"A")
    out.add("b.html", "B")
    assert not (tmp_path / "build").exists()
    written = out.commit()
    assert sorted(p.name for p in written) == ["a.pdf", "b.html"]
    assert (tmp_path / "build" / "a.pdf").read_bytes() == b"A"
    assert not [p for p in (tmp_path / "build").iterdir() if p.name.startswith(TMP_PREFIX)]


def test_stale_temporaries_of_a_killed_build_are_removed(tmp_path):
    folder = tmp_path / "build"
    folder.mkdir()
    (folder / f"{TMP_PREFIX}123-old.pdf").write_bytes(b"half")
    out = BuildOutput(folder)
    out.add("new.pdf", b"x")
    out.commit()
    assert sorted(os.listdir(folder)) == ["new.pdf"]
