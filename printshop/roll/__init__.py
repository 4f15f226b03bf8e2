"""Rollers: seeded, pure functions from the project's tables to plain data (never HTML)."""
