"""Same inputs (and seeds) → byte-identical files, whatever the world around the build:
every product of the manifest built twice at once, from copies of rules-src/ in different
folders with different file times, hash seeds, time zones and working folders (the
session's `kit_in_two_worlds`, conftest.py).
"""

from conftest import RULES_SRC, folder_snapshot
from printshop.project import Project


def test_every_product_is_byte_identical_across_worlds(kit_in_two_worlds):
    products = list(Project.load(RULES_SRC).manifest.products)
    # the build cache holds paths and file times by design; the products must not
    first, second = ({name: data for name, data in folder_snapshot(out).items()
                      if not name.startswith(".printshop-cache/")}
                     for out in kit_in_two_worlds)
    assert sorted(first) == sorted(second)
    assert len(first) >= len(products)
    for name in first:
        assert first[name] == second[name], f"{name} differs between the two builds"
