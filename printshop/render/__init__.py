"""Rendering: Jinja templates to HTML, HTML to PDF in worker processes."""
