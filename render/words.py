"""The labels of a picture in one language, looked up by key in a message catalogue.

The drawing code never knows the language: it is given a `Words` built from the
negotiated language's catalogue (service/locales), with English beside it for a key a
catalogue lacks."""

from __future__ import annotations

from collections.abc import Mapping


class Words:
    """`words(key, **params)`: the catalogue's text for `key`, formatted."""

    __slots__ = ("catalogue", "english", "rtl")

    def __init__(self, catalogue: Mapping[str, str], english: Mapping[str, str],
                 rtl: bool = False):
        self.catalogue, self.english = catalogue, english
        self.rtl = rtl  # a language written right to left (Persian)

    def __call__(self, key: str, **params: object) -> str:
        text = self.catalogue.get(key)
        if text is None:
            text = self.english[key]
        return text.format(**params) if params else text

    def seat(self, seat: int) -> str:
        return self("render.seat", seat=seat)

    def seats(self, seats: list[int]) -> str:
        return ", ".join(self.seat(s) for s in seats)
