"""Fixes for slow paths in the libraries WeasyPrint 70 uses, applied in render workers.

tinyhtml5 2.1.0 caches one compiled regular expression per set of stop characters in
`inputstream.characters_until_regex`, but stores it under the wrong key (its chained
assignment rebinds `characters` to the new regex before the key is made), so the cache
never hits: every text run of every page builds and compiles its regex again, about 2 ms a
character sheet. A dict that builds the missing entry under the right key makes the
library's own lookup hit; the regexes are the same, so the parse is the same.
"""

from __future__ import annotations

import re


class _StopCharacterRegexes(dict):
    def __missing__(self, key):
        characters, opposite = key
        pattern = "".join(f"\\x{ord(c):02x}" for c in characters)
        regex = self[key] = re.compile(f"[{'' if opposite else '^'}{pattern}]+")
        return regex


def apply() -> None:
    try:
        from tinyhtml5 import inputstream
    except ImportError:      # another WeasyPrint, another parser: nothing to fix
        return
    if isinstance(getattr(inputstream, "characters_until_regex", None), dict) and \
            not isinstance(inputstream.characters_until_regex, _StopCharacterRegexes):
        inputstream.characters_until_regex = _StopCharacterRegexes()
