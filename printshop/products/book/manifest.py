"""The book's build record, `NAME.manifest.json` next to its PDF: what it was built from.

The player's book used to list its source files and their hashes in the colophon: a page
of file names meant for the author, not the reader. The record is kept here instead, for
the author and for tools: each file of the project the build read (chapters, tables,
images, templates, stylesheets, fonts), with its SHA-256, the product's entry of
`printshop.yaml` (as the hash of that entry and the manifest's settings, which is what the
build cache keys the product by: the whole file's hash would change with any other
product's entry, while the book would not be built again), and each file it wrote.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from printshop import __version__, deps

FORMAT = 1


def build_manifest(product, recorder: deps.Recorder, outputs: dict[str, bytes],
                   paper: str, pages: int | None) -> bytes:
    project = product.project
    root = project.root
    inputs = []
    for name, digest in sorted(recorder.files.items()):
        path = Path(name)
        if digest == deps.ABSENT or root not in path.parents:
            continue
        inputs.append({"path": path.relative_to(root).as_posix(), "sha256": digest})
    inputs.sort(key=lambda item: item["path"])
    if project.manifest_path is not None:
        entry = {"entry": product.options.model_dump(mode="json"),
                 "settings": project.manifest.model_dump(mode="json", exclude={"products"})}
        inputs.append({"path": project.manifest_path.name, "product": product.name,
                       "sha256": _digest(entry)})
    record = {
        "format": FORMAT,
        "product": product.name,
        "printshop": __version__,
        "paper": paper,
        "profile": getattr(product.print_profile(), "name", None),
        "pages": pages,
        "outputs": [{"file": name, "sha256": hashlib.sha256(data).hexdigest()}
                    for name, data in sorted(outputs.items())],
        "inputs": inputs,
    }
    return (json.dumps(record, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _digest(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
