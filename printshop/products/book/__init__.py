"""The book: the guide product, its parts laid out on all cores and joined, its page numbers
and the chapter preview."""
