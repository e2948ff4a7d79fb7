"""Ganjifa on this floor (G1): round cards, one colour and emblem for each of the ten
avatars, the Raja and the Mantri marked; the table as its state shows it, and the trump
avatar's emblem at a glance (G3)."""

from __future__ import annotations

import math

from render.art import GOLD, INK, num, text, use
from render.drawing import Drawing
from render.layout import Layout, Row, Slot, common, plays, scores, seats_of
from render.words import Words
from rules.cards import Card
from rules.ganjifa import GAME, PERIODS, SUITS

SIZE = (64, 64)



# Background and ink of each avatar's suit, and its emblem as shapes in a 20×20 box centred
# on the origin, filled and stroked with currentColor.
AVATAR_COLOURS = {
    "MAT": ("#0e6b78", "#fff3c4"),
    "KUR": ("#2e7d32", "#fff3c4"),
    "VAR": ("#6d4c41", "#ffe0b2"),
    "NAR": ("#e65100", "#fff8e1"),
    "VAM": ("#6a1b9a", "#f3e5f5"),
    "PAR": ("#b71c1c", "#fff3c4"),
    "RAM": ("#827717", "#fffde7"),
    "KRI": ("#1e4fa8", "#fff3c4"),
    "BAL": ("#ad1457", "#fce4ec"),
    "KAL": ("#37474f", "#eceff1"),
}
EMBLEMS = {
    "MAT": '<path d="M-9 0C-5-7 3-7 5 0 3 7-5 7-9 0zM4 0l6-6v12z"/>'  # fish
           '<circle cx="-5" cy="-1" r="1.2" fill="#000" opacity="0.6"/>',
    "KUR": '<ellipse cx="-1" cy="0" rx="7" ry="5.5"/><circle cx="7.5" cy="0" r="2.4"/>'
           '<circle cx="-5" cy="-5.5" r="1.8"/><circle cx="3" cy="-5.5" r="1.8"/>'
           '<circle cx="-5" cy="5.5" r="1.8"/><circle cx="3" cy="5.5" r="1.8"/>'
           '<path d="M-5 0h8M-1-4v8" stroke="#000" stroke-opacity="0.4" stroke-width="0.8"/>',
    "VAR": '<ellipse cx="-1" cy="0" rx="7" ry="4.5"/><path d="M4-3.5 10 0.5 4 4z"/>'  # boar
           '<path d="M3-4 5-7.5 6.5-3z"/><path d="M-6 3v5M-2 3v5M2 3v5" stroke="currentColor"'
           ' stroke-width="1.6"/><path d="M8 1.5 6.5 4.5" stroke="#fff" stroke-width="0.8"/>',
    "NAR": '<path d="M0-9 2.6-6.3 6.4-6.4 6.3-2.6 9 0 6.3 2.6 6.4 6.4 2.6 6.3 0 9-2.6 6.3'
           '-6.4 6.4-6.3 2.6-9 0-6.3-2.6-6.4-6.4-2.6-6.3z"/>'  # man-lion: the mane
           '<circle cx="-4" cy="-4.5" r="1.8" fill="#b8651b"/>'
           '<circle cx="4" cy="-4.5" r="1.8" fill="#b8651b"/>'
           '<circle cx="0" cy="0.5" r="5" fill="#d9902f"/>'
           '<circle cx="-1.8" cy="-0.8" r="0.8" fill="#000"/><circle cx="1.8" cy="-0.8" '
           'r="0.8" fill="#000"/><path d="M-1 1.2h2l-1 1.2z" fill="#000"/>'
           '<path d="M-2 3.2q2 1.5 4 0M-1.2 3.4l0.3 1.2M1.2 3.4l-0.3 1.2" stroke="#000" '
           'stroke-width="0.5" fill="none"/>',
    "VAM": '<path d="M-8-3A8 6 0 0 1 8-3z"/><path d="M0-3v10" stroke="currentColor"'  # dwarf
           ' stroke-width="1"/><circle cx="-4" cy="1" r="2"/><path d="M-7 9-4 3-1 9z"/>',
    "PAR": '<path d="M-7 9 4-7" stroke="currentColor" stroke-width="1.8"/>'  # axe
           '<path d="M1.5-6.5 6.5-10.5Q11.5-6.5 9.5-0.5L3.5-3.5z"/>',
    "RAM": '<path d="M-3-9Q9 0-3 9" fill="none" stroke="currentColor" stroke-width="1.8"/>'
           '<path d="M-3-9V9" stroke="currentColor" stroke-width="0.7"/>'  # bow and arrow
           '<path d="M-9 0H8" stroke="currentColor" stroke-width="1"/>'
           '<path d="M9 0 5-2.5v5z"/><path d="M-9 0-7-2.5M-9 0-7 2.5" stroke="currentColor"/>',
    "KRI": '<circle r="8" fill="none" stroke="currentColor" stroke-width="1.6"/>'  # discus
           '<circle r="2.5"/><path d="M0-8V8M-8 0H8M-5.7-5.7 5.7 5.7M-5.7 5.7 5.7-5.7"'
           ' stroke="currentColor" stroke-width="0.9"/>',
    "BAL": '<path d="M-9-7 5 5" stroke="currentColor" stroke-width="1.8"/>'  # plough
           '<path d="M3 3 10 9 1 8z"/><path d="M-9-7-6-10M-9-7-10-3" stroke="currentColor"'
           ' stroke-width="1.4"/>',
    "KAL": '<path d="M-6 9-4 0C-4-6 0-9 3-9l1-2 1.5 2.5C8-6 10-3 9.5 0L6.5 1 3.5-2 2.5 3 '
           '4.5 9z"/><circle cx="3.5" cy="-5.5" r="0.9" fill="#000"/>',  # horse
}


def ganjifa_defs() -> str:
    out = [f'<symbol id="em-{s}" viewBox="-10 -10 20 20" fill="currentColor">{e}</symbol>'
           for s, e in EMBLEMS.items()]
    # A crown and a turban: the Raja's and the Mantri's marks.
    out.append('<symbol id="crown" viewBox="-10 -10 20 20"><path d="M-9 6-9-5-4 0 0-8 4 0 '
               f'9-5 9 6z" fill="{GOLD}" stroke="#6b5200" stroke-width="0.8"/></symbol>')
    out.append('<symbol id="turban" viewBox="-10 -10 20 20"><path d="M-9 5C-9-6 9-6 9 5z" '
               'fill="#f5f5f5" stroke="#777" stroke-width="0.8"/><circle cx="0" cy="-3" '
               'r="2" fill="#c62828"/></symbol>')
    return "".join(out)


def ganjifa_face(card: Card) -> str:
    """G1: a round card in its avatar's colour. A pip card shows its number of emblems in
    a ring around its number; the Raja sits crowned, the Mantri turbaned, each marked R or
    M, the emblem beside them."""
    d = SIZE[0]
    c = d / 2
    bg, ink = AVATAR_COLOURS[card.suit]
    emblem = f"em-{card.suit}"
    out = (f'<circle cx="{num(c)}" cy="{num(c)}" r="{num(c - 0.75)}" fill="{bg}" '
           f'stroke="{GOLD}" stroke-width="1.5"/>'
           f'<circle cx="{num(c)}" cy="{num(c)}" r="{num(c - 4)}" fill="none" stroke="{ink}" '
           f'stroke-width="0.6" stroke-opacity="0.7"/>')
    tint = f' color="{ink}"'
    if card.rank in ("R", "M"):
        raja = card.rank == "R"
        out += (f'<circle cx="{num(c)}" cy="{num(c + 8)}" r="9" fill="{ink}"/>'
                f'<circle cx="{num(c)}" cy="{num(c - 4)}" r="6" fill="#f6d7b0" '
                f'stroke="#8a6a4a" stroke-width="0.6"/>'
                + use("crown" if raja else "turban", c, c - 11, 11)
                + use(emblem, c, c + 9, 11, f' color="{bg}"')
                + f'<circle cx="{num(c - 17)}" cy="{num(c - 13)}" r="6.5" '
                  f'fill="{GOLD if raja else "#e0e0e0"}" stroke="#333" stroke-width="0.6"/>'
                + text(c - 17, c - 9.6, "R" if raja else "M", 9, INK, weight="bold")
                + use(emblem, c + 17, c - 13, 10, tint))
        return out
    n = int(card.rank)
    if n == 1:
        return out + use(emblem, c, c, 28, tint) + text(c, d - 8, "1", 8, ink, weight="bold")
    ring = c - 14
    for i in range(n):
        a = -math.pi / 2 + 2 * math.pi * i / n
        out += use(emblem, c + ring * math.cos(a), c + ring * math.sin(a),
                   11 if n >= 8 else 13, tint)
    out += (f'<circle cx="{num(c)}" cy="{num(c)}" r="7.5" fill="{ink}"/>'
            + text(c, c + 4, str(n), 11, bg, weight="bold"))
    return out


def ganjifa_back() -> str:
    """A face-down round card: rings and an emblem on a dark disc."""
    w, h = SIZE
    c = w / 2
    return (f'<circle cx="{num(c)}" cy="{num(c)}" r="{num(c - 0.75)}" fill="#5d1a1a" '
            f'stroke="{GOLD}" stroke-width="1.5"/>'
            f'<circle cx="{num(c)}" cy="{num(c)}" r="{num(c - 7)}" fill="none" '
            f'stroke="{GOLD}" stroke-width="1"/>'
            f'<circle cx="{num(c)}" cy="{num(c)}" r="{num(c - 15)}" fill="none" '
            f'stroke="{GOLD}" stroke-width="1" stroke-dasharray="2 2"/>'
            + use("em-KRI", c, c, 12, f' color="{GOLD}"'))


def ganjifa_table(state: dict, viewer: int | None, words: Words) -> Layout:
    title, status = common(state, viewer, words, GAME.id)
    leader = state["leader"]

    def roles(s: int) -> list[str]:
        return [words("render.leader")] if s == leader else []

    def notes(s: int) -> list[str]:
        return [words("render.captured", n=len(state["captured"][s]))]

    seats = seats_of(state, viewer, words, roles, notes, lambda s: len(state["captured"][s]))
    period = state["period"]
    trump = SUITS[PERIODS[period]]  # G3
    facts = [words("render.period", period=words(f"render.period.{period}")),
             words("render.trump", trump=f"{words(f'ganjifa.avatar.{trump}')} ({trump})")]
    rows = [Row("trick", words("render.trick"), plays(words, state["trick"]))]
    dukal = state["dukal"]
    if dukal is not None:  # G8: the Dukal led, and the discards answering it so far
        rows.append(Row("dukal", words("render.dukal", seat=dukal["seat"]),
                        tuple(Slot(c) for c in dukal["cards"])))
        for d in dukal["discards"]:
            rows.append(Row("dukal", words("render.dukal_discard", seat=d["seat"]),
                            tuple(Slot(c) for c in d["cards"])))
    return Layout(GAME.id, title, status, tuple(facts), seats, tuple(rows),
                 ganjifa_settlement(state["result"], words), trump)


def ganjifa_settlement(result: dict | None, words: Words) -> tuple[str, ...]:
    if result is None:
        return ()
    return (words("render.winners", seats=words.seats(result["winners"])),
            scores(words, result["scores"], zero_sum=False))  # G9: a point a card



def trump_badge(trump: str, x: float, y: float) -> str:
    """G3: the trump avatar's emblem in its colours."""
    bg, ink = AVATAR_COLOURS[trump]
    return (f'<circle cx="{x}" cy="{y}" r="24" fill="{bg}" stroke="{GOLD}" '
            f'stroke-width="2"/>' + use(f"em-{trump}", x, y, 30, f' color="{ink}"'))


DRAWING = Drawing(GAME, SIZE, scale=(0.95, 0.6), overlap=1.04, face=ganjifa_face,
                  defs=ganjifa_defs, back=ganjifa_back, layout=ganjifa_table,
                  trump_badge=trump_badge)
