import os

import pytest

from printshop.safepath import UnsafePath, resolve_inside


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    (root / "images").mkdir(parents=True)
    (root / "images" / "ok.png").write_bytes(b"x")
    (tmp_path / "secret.txt").write_text("top secret")
    return root


def test_a_file_inside_resolves(project):
    assert resolve_inside("images/ok.png", [project]) == (project / "images" / "ok.png").resolve()


@pytest.mark.parametrize("target, why", [
    ("../secret.txt", "outside the project"),
    ("%2e%2e/secret.txt", "outside the project"),
    ("images/%2e%2e/%2e%2e/secret.txt", "outside the project"),
    ("/etc/passwd", "absolute paths"),
    ("images", "a directory"),
    ("missing.png", "not found"),
])
def test_refusals(project, target, why):
    with pytest.raises(UnsafePath, match=why):
        resolve_inside(target, [project])


def test_symlink_leaving_the_project_is_refused(project, tmp_path):
    os.symlink(tmp_path / "secret.txt", project / "images" / "link.png")
    with pytest.raises(UnsafePath, match="outside the project"):
        resolve_inside("images/link.png", [project])


def test_symlink_inside_the_project_is_fine(project):
    os.symlink(project / "images" / "ok.png", project / "alias.png")
    assert resolve_inside("alias.png", [project]).name == "ok.png"


def test_fifo_is_refused_without_blocking(project):
    os.mkfifo(project / "pipe.png")
    with pytest.raises(UnsafePath, match="not a regular file"):
        resolve_inside("pipe.png", [project])


def test_device_is_refused(tmp_path):
    with pytest.raises(UnsafePath):
        resolve_inside("/dev/zero", [tmp_path], allow_absolute=True)


def test_project_path_with_spaces_percent_and_accents(tmp_path):
    root = tmp_path / "My Gäme 100% done"
    root.mkdir()
    (root / "a b.png").write_bytes(b"x")
    assert resolve_inside(root / "a b.png", [root], allow_absolute=True).name == "a b.png"
