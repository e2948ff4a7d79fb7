"""The labels of a picture in one language, looked up by key in a message catalogue.

The drawing code never knows the language: it is given a `Words` built from the
negotiated language's catalogue (service/locales), with English beside it for a key a
catalogue lacks."""

from __future__ import annotations

from collections.abc import Mapping


class Words:
    """`words(key, **params)`: the catalogue's text for `key`, formatted; its numbers in
    the language's digits (`digits`: the ten it writes for 0-9, Persian's ۰-۹) and with
    its decimal sign (`decimal`). `indices`: the letters the reader's cards print on
    their courts, a convention of the game's drawing (Durak's "russian"), or None for the
    deck's own; a card is then written as it reads, not by its code."""

    __slots__ = ("catalogue", "english", "rtl", "digits", "indices")

    def __init__(self, catalogue: Mapping[str, str], english: Mapping[str, str],
                 rtl: bool = False, digits: str | None = None, decimal: str = ".",
                 indices: str | None = None):
        self.catalogue, self.english = catalogue, english
        self.rtl = rtl  # a language written right to left (Persian)
        written = (digits or "0123456789") + decimal
        self.digits = None if written == "0123456789." else \
            str.maketrans("0123456789.", written)
        self.indices = indices

    def __call__(self, key: str, **params: object) -> str:
        text = self.catalogue.get(key)
        if text is None:
            text = self.english[key]
        if not params:
            return text
        if self.digits is not None:
            params = {k: self.number(v) if isinstance(v, int | float) and
                      not isinstance(v, bool) else v for k, v in params.items()}
        return text.format(**params)

    def number(self, n: int | float, signed: bool = False) -> str:
        """A number as the language writes it; `signed`: with its + when positive."""
        written = f"+{n}" if signed and n > 0 else str(n)
        return written if self.digits is None else written.translate(self.digits)

    def seat(self, seat: int) -> str:
        return self("render.seat", seat=seat)

    def seats(self, seats: list[int]) -> str:
        return ", ".join(self.seat(s) for s in seats)
