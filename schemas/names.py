"""Players' names as a score sheet keeps them: one form of each (NFKC), no character that
moves or hides text, and no two names that read alike on paper.

A name ends up in a spreadsheet, a terminal and a page in another script's direction, so
what it may hold is decided here, once, for every place that shows it."""

from __future__ import annotations

import unicodedata

# Joiners shape Persian and Devanagari words (ZWNJ in "می‌خواهم"), so they stay; every other
# format character is invisible or reorders the text around it (the bidi controls).
JOINERS = frozenset("\u200c\u200d")
REFUSED = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))

# Letters of other scripts drawn as a Latin letter (in capitals, where most do), and the
# Arabic letters that Persian writes with its own forms: what a reader at the table cannot
# tell apart. A few of Unicode's confusables, those of the scripts the service speaks, read
# after case folding, so that "КОЛЯ", "Коля" and "коля" are one name.
LOOK_ALIKE = str.maketrans({
    **dict(zip("авеѕіјкмнорстухԛԝһԁӏ", "abesijkmhopctyxqwhdl", strict=True)),
    **dict(zip("αβεζηικμνορτυχ", "abezhikmnoptyx", strict=True)),
    "\u064a": "\u06cc", "\u0649": "\u06cc", "\u0643": "\u06a9", "\u06d5": "\u0647",
})


def refused_character(name: str) -> str | None:
    """The first character a name may not hold, as U+XXXX, or None."""
    for char in name:
        if unicodedata.category(char) in REFUSED and char not in JOINERS:
            return f"U+{ord(char):04X}"
    return None


def normal(name: str) -> str:
    """The one form a name is kept in: NFKC, so that a full-width `＝` is the `=` that a
    spreadsheet sees, and without spaces at its ends."""
    return unicodedata.normalize("NFKC", name).strip()


def likeness(name: str) -> str:
    """What a name looks like, whatever its case, spacing, digits' script, joiners and
    look-alike letters: two names with the same likeness cannot be told apart on a sheet."""
    text = unicodedata.normalize("NFKC", normal(name).casefold()).translate(LOOK_ALIKE)
    text = "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in text
                   if c not in JOINERS)
    return " ".join(text.split())
