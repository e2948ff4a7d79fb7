"""The table as text for an 80-column terminal: what `cardavia play` shows.

Cards are written by their codes, the very codes a player types to play them, or, when the
reader chose a convention of indices (`Words.indices`), as their corners read: "Д♠"."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from render.cards import written
from render.layout import Layout, Row, Seat, Slot
from render.words import Words

Write = Callable[[str], str]  # a card's code as the text shows it

WIDTH = 80
INDENT = "  "
RULE = "-" * WIDTH


def width(text: str) -> int:
    """Columns a terminal gives `text`: none for a combining mark or a format character,
    two for a wide East Asian character, one for the rest (as wcwidth counts)."""
    if text.isascii():
        return len(text)
    cols = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        cols += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return cols


def flow(units: list[str], sep: str = " ", first: str = "", indent: str = INDENT) -> list[str]:
    """`units` joined by `sep` into lines of at most WIDTH columns, the first line starting
    with `first`, the others with `indent`. A unit is kept whole on a line; one wider than
    a line is broken at its spaces."""
    lines: list[str] = []
    line, fresh = first, True  # fresh: nothing on the line yet but its start
    cols, sep_cols, indent_cols = width(first), width(sep), width(indent)
    for unit in units:
        unit_cols = width(unit)
        if indent_cols + unit_cols > WIDTH and " " in unit:
            start = line if fresh else line + sep
            pieces = flow(unit.split(" "), " ", start, indent)
            lines += pieces[:-1]
            line, fresh = pieces[-1], False
            cols = width(line)
        elif fresh:
            line, fresh, cols = line + unit, False, cols + unit_cols
        elif cols + sep_cols + unit_cols > WIDTH:
            lines.append(line)
            line, cols = indent + unit, indent_cols + unit_cols
        else:
            line, cols = line + sep + unit, cols + sep_cols + unit_cols
    if not fresh:
        lines.append(line)
    return lines


def _seat(seat: Seat, words: Words, write: Write) -> list[str]:
    marker = "> " if seat.to_act else ""
    out = flow([seat.title, *seat.notes], " · ", marker)
    cards = [write(c) for c in seat.cards]
    if seat.hidden:
        cards.append(words("render.face_down", n=seat.hidden))
    return out + (flow(cards, " ", INDENT) if cards else [INDENT + "-"])


def _slot(slot: Slot, write: Write) -> str:
    card = write(slot.card) if slot.over is None else f"{write(slot.card)}/{write(slot.over)}"
    return f"{card} ({slot.caption})" if slot.caption else card


def _row(row: Row, words: Words, write: Write) -> list[str]:
    items = [_slot(s, write) for s in row.slots]
    if row.hidden:
        items.append(words("render.face_down", n=row.hidden))
    return flow(items or ["-"], "  ", words("render.row", title=row.title) + " ")


def text(table: Layout, words: Words) -> str:
    """The table as lines of at most 80 columns (in languages written in single-width
    letters): the title, whose turn it is and the table's facts; the other seats, the
    middle of the table, the viewer's seat last; the settlement when the deal is over."""
    lines = flow([table.title, table.status], " · ", "")
    lines += flow(list(table.facts), " · ", "") if table.facts else []
    lines.append(RULE)

    def write(code: str) -> str:
        return written(table.game, code, words.indices)

    *others, bottom = table.seats
    for seat in others:
        lines += _seat(seat, words, write)
    for row in table.rows:
        lines += _row(row, words, write)
    lines += _seat(bottom, words, write)
    if table.settlement:
        lines.append(RULE)
        lines += flow(list(table.settlement), " · ", "")
    return "\n".join(lines) + "\n"
