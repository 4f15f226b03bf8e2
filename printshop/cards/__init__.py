"""Cards: sizes, imposition (where faces go on the sheet) and PNG export."""
