"""Loading the rules source: strict YAML, tables, Markdown chapters."""
