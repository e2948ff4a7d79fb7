"""The JSON shapes of API.md, as marshmallow schemas built once at import."""
