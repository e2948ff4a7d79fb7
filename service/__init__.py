"""The HTTP face of the rules: Flask only here."""
