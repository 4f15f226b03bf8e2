"""Rolled characters on paper: pregen packs, convention kits, the blank sheet and
`printshop roll characters`."""
