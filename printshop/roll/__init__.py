"""Rollers: seeded generators that return plain data (never HTML)."""
