"""PDF files after rendering: joins, layered sheets, imposed faces, the book's join and print
finishing (pikepdf)."""
