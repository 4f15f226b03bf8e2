"""Markdown manuscripts: a reader (reader.py), its parser (parser.py) and one small plugin
per dialect."""

from printshop.source.markdown.links import Heading
from printshop.source.markdown.parser import build_inline_parser, build_parser
from printshop.source.markdown.reader import Chapter, Directive, Manuscript, MarkdownReader
from printshop.source.markdown.slugs import github_slug, readable_name, slugify

__all__ = ["Chapter", "Directive", "Heading", "Manuscript", "MarkdownReader",
           "build_inline_parser", "build_parser", "github_slug", "readable_name", "slugify"]
