"""The one door to WeasyPrint's internals: every patch and every reader of its box tree
lives here."""
