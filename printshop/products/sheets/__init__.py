"""Reference sheets, class cards and the screen, laid out from sheets/*.yaml."""
