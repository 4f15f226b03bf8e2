"""printshop: rules source (Markdown + YAML) to print-ready PDFs and HTML."""

__version__ = "0.1.0"
