"""Card products: decks and hirelings composed into faces, fitted, imposed on sheets, rendered
and exported."""
