import socket
import struct
import zlib

import pytest
from weasyprint.urls import URLFetchingError, fetch

from printshop.render.fetcher import ProjectFetcher, Refused, check_image_size


def tiny_png(width, height) -> bytes:
    """A valid PNG header claiming a huge image: a few bytes on disk."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + \
        chunk(b"IEND", b"")


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "style.css").write_text("p{}")
    (tmp_path / "secret.txt").write_text("top secret")
    return root


def test_reads_files_inside(project):
    fetcher = ProjectFetcher([project])
    response = fetcher.fetch((project / "style.css").as_uri())
    assert response.read() == b"p{}"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "FILE:///etc/passwd",
                                 "file://otherhost/etc/passwd", "file:///{secret}",
                                 "file:///{project}/%2e%2e/secret.txt"])
def test_refuses_files_outside(project, url):
    url = url.format(secret=str(project.parent / "secret.txt").lstrip("/"),
                     project=str(project).lstrip("/"))
    fetcher = ProjectFetcher([project])
    with pytest.raises(Refused):
        fetcher.fetch(url)
    assert fetcher.refused


def test_network_urls_are_refused_before_any_connection(project, monkeypatch):
    opened = []
    real_socket = socket.socket

    class Spy(real_socket):
        def connect(self, address):
            opened.append(address)
            return super().connect(address)
    monkeypatch.setattr(socket, "socket", Spy)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: opened.append(a))
    fetcher = ProjectFetcher([project])
    for url in ["http://127.0.0.1:9/x.png", "https://example.com/a.css", "ftp://x/y"]:
        with pytest.raises(Refused):
            fetcher.fetch(url)
    assert opened == []


def test_weasyprint_sees_a_refusal_as_a_failed_fetch(project):
    fetcher = ProjectFetcher([project])
    with pytest.raises(URLFetchingError):
        with fetch(fetcher, "http://127.0.0.1:9/x.png"):
            pass


def test_data_urls_are_fine(project):
    assert ProjectFetcher([project]).fetch("data:text/css,p%7B%7D").read() == b"p{}"


@pytest.mark.parametrize("size", [(20000, 20000), (12000, 12000)])
def test_decompression_bombs_are_refused_from_the_header(project, size):
    png = tiny_png(*size)
    assert len(png) < 100
    with pytest.raises(Refused, match=f"{size[0]}×{size[1]} pixels"):
        check_image_size(png, "bomb.png")
    (project / "bomb.png").write_bytes(png)
    with pytest.raises(Refused, match="pixels"):
        ProjectFetcher([project]).fetch((project / "bomb.png").as_uri())


def test_reasonable_images_pass(project):
    assert check_image_size(tiny_png(600, 400), "ok.png") == (600, 400)
