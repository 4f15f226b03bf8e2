"""Helpers over markdown-it token streams shared by the dialect plugins."""

from __future__ import annotations


def previous_block_open(tokens, index):
    """The opening token of the block a trailing marker belongs to: the nearest earlier
    block opener at the marker's level (kramdown's `{: .class}` line, Obsidian's `^id`),
    or None when the marker opens its container."""
    level = tokens[index].level
    for j in range(index - 1, -1, -1):
        t = tokens[j]
        if t.level == level and t.nesting == 1:
            return t
        if t.level < level:
            return None
    return None
