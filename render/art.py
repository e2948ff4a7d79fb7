"""Each game's cards as SVG, drawn from shapes alone (no fonts or images beyond a generic
family): Durak's Atlasnye cards with their Cyrillic indices (D1), Tarot's French suits,
numbered trumps and the Excuse (T1), Ganjifa's round cards, one colour and emblem for each
of the ten avatars, the Raja and the Mantri marked (G1).

A card is drawn in its own box, its top left corner at the origin: Durak's 60×90, Tarot's
60×104 (a tarot card is the taller), Ganjifa's a disc 64 across. `defs(game)` holds the
pips and emblems the cards <use>; every picture that draws cards includes it once."""

from __future__ import annotations

import math
from functools import cache
from html import escape

from rules import durak, ganjifa, tarot
from rules.cards import Card

CARDS: dict[str, dict[str, Card]] = {
    g.id: {c.code: c for c in g.deck.cards} for g in (durak.GAME, tarot.GAME, ganjifa.GAME)
}
SIZE = {"durak": (60, 90), "tarot": (60, 104), "ganjifa": (64, 64)}
INK = "#1b1b1b"
RED = "#c62828"
PAPER = "#fffdf6"
GOLD = "#c9a227"
SERIF = "font-family=\"serif\""
SANS = "font-family=\"sans-serif\""


def num(x: float) -> str:
    """A coordinate as few characters as it needs, the same every time."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def text(x: float, y: float, content: str, size: float, fill: str = INK, anchor: str = "middle",
         weight: str = "normal", family: str = SANS, extra: str = "") -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" {family} fill="{fill}" '
            f'text-anchor="{anchor}"{bold}{extra}>{escape(content)}</text>')


def use(symbol: str, cx: float, cy: float, size: float, extra: str = "") -> str:
    h = size / 2
    return (f'<use href="#{symbol}" x="{num(cx - h)}" y="{num(cy - h)}" width="{num(size)}" '
            f'height="{num(size)}"{extra}/>')


# -- French suit pips (Durak, Tarot) -----------------------------------------------------------

PIPS = {
    "S": '<path d="M50 4C36 24 8 38 8 60c0 15 12 23 24 23 7 0 13-3 16-8-1 10-6 17-14 21h32'
         'c-8-4-13-11-14-21 3 5 9 8 16 8 12 0 24-8 24-23C92 38 64 24 50 4z"/>',
    "H": '<path d="M50 90C22 68 5 50 5 31 5 16 16 6 29 6c10 0 17 6 21 15 4-9 11-15 21-15 '
         '13 0 24 10 24 25 0 19-17 37-45 59z"/>',
    "D": '<path d="M50 3 87 50 50 97 13 50z"/>',
    "C": '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="58" r="19"/>'
         '<circle cx="73" cy="58" r="19"/><circle cx="50" cy="50" r="10"/>'
         '<path d="M46 52h8l5 42H41z"/>',
}
RED_SUITS = frozenset("HD")


def suit_colour(suit: str) -> str:
    return RED if suit in RED_SUITS else INK


def french_defs() -> str:
    return "".join(f'<symbol id="pip-{s}" viewBox="0 0 100 100" fill="{suit_colour(s)}">'
                   f"{path}</symbol>" for s, path in PIPS.items())


# Where the pips of a number card go, as fractions of the pip field (0..1 across, 0..1
# down): the usual patterns of French-suited cards.
_L, _M, _R = 0.0, 0.5, 1.0
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_M, 0.5),),
    2: ((_M, 0.0), (_M, 1.0)),
    3: ((_M, 0.0), (_M, 0.5), (_M, 1.0)),
    4: ((_L, 0.0), (_R, 0.0), (_L, 1.0), (_R, 1.0)),
    5: ((_L, 0.0), (_R, 0.0), (_M, 0.5), (_L, 1.0), (_R, 1.0)),
    6: ((_L, 0.0), (_R, 0.0), (_L, 0.5), (_R, 0.5), (_L, 1.0), (_R, 1.0)),
    7: ((_L, 0.0), (_R, 0.0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1.0), (_R, 1.0)),
    8: ((_L, 0.0), (_R, 0.0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_M, 0.75), (_L, 1.0),
        (_R, 1.0)),
    9: ((_L, 0.0), (_R, 0.0), (_L, 1 / 3), (_R, 1 / 3), (_M, 0.5), (_L, 2 / 3), (_R, 2 / 3),
        (_L, 1.0), (_R, 1.0)),
    10: ((_L, 0.0), (_R, 0.0), (_M, 1 / 6), (_L, 1 / 3), (_R, 1 / 3), (_L, 2 / 3),
         (_R, 2 / 3), (_M, 5 / 6), (_L, 1.0), (_R, 1.0)),
}


def _pips(suit: str, n: int, w: float, h: float, size: float) -> str:
    """n pips in the card's middle; those of the lower half upside down, as printed."""
    x0, x1, y0, y1 = w * 0.3, w * 0.7, h * 0.22, h * 0.78
    out = []
    for fx, fy in PIP_LAYOUT[n]:
        cx, cy = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        flip = f' transform="rotate(180 {num(cx)} {num(cy)})"' if fy > 0.5 else ""
        out.append(use(f"pip-{suit}", cx, cy, size, flip))
    return "".join(out)


def _corners(index: str, suit: str | None, w: float, h: float, colour: str,
             size: float = 11) -> str:
    """The index (and pip) in the top left corner and, upside down, the bottom right."""
    one = text(7.5, 4 + size, index, size, colour, weight="bold", family=SERIF)
    if suit is not None:
        one += use(f"pip-{suit}", 7.5, 9 + size, 8)
    return one + f'<g transform="rotate(180 {num(w / 2)} {num(h / 2)})">{one}</g>'


def _frame(w: float, h: float, fill: str = PAPER) -> str:
    return (f'<rect x="0.5" y="0.5" width="{num(w - 1)}" height="{num(h - 1)}" rx="5" '
            f'fill="{fill}" stroke="#555" stroke-width="1"/>')


# Court figures: a half figure, drawn in the upper half and turned for the lower, as on
# double-headed cards; the headdress tells King, Queen, Knight and Jack apart.
HEADDRESS = {
    "K": '<path d="M-7 -9 -7 -15 -3.5 -11 0 -16 3.5 -11 7 -15 7 -9z" fill="#e0b000" '
         'stroke="#7a5c00" stroke-width="0.6"/>',
    "Q": '<path d="M-7 -9C-7 -17 7 -17 7 -9z" fill="#e0b000" stroke="#7a5c00" '
         'stroke-width="0.6"/><circle cx="0" cy="-15" r="1.6" fill="#c62828"/>',
    "C": '<path d="M-8 -9 8 -9 4 -14 -6 -13z" fill="#2e5fa8"/>'
         '<path d="M4 -14 9 -19" stroke="#c62828" stroke-width="1.4"/>',
    "J": '<path d="M-7 -9 7 -9 5 -14 -5 -14z" fill="#2e5fa8"/>',
}
ROBE = {"S": "#2e5fa8", "H": "#c62828", "D": "#c62828", "C": "#2e7d32"}


def _court(rank: str, suit: str, w: float, h: float) -> str:
    cx, cy = w / 2, h / 2
    fw, fh = w - 24, h - 30
    half = (f'<path d="M-{num(fw / 2 - 2)} 0C-{num(fw / 2 - 2)} -8 -6 -6 -6 -2 0 0 6 -2 6 -6 '
            f'{num(fw / 2 - 2)} -8 {num(fw / 2 - 2)} 0z" fill="{ROBE[suit]}"/>'
            f'<path d="M-4 -4 0 0 4 -4" stroke="{GOLD}" stroke-width="1.2" fill="none"/>'
            '<circle cx="0" cy="-6" r="4.2" fill="#f6d7b0" stroke="#8a6a4a" '
            'stroke-width="0.5"/>' + HEADDRESS[rank]
            + use(f"pip-{suit}", fw / 2 - 6, -fh / 2 + 9, 8))
    return (f'<rect x="{num(cx - fw / 2)}" y="{num(cy - fh / 2)}" width="{num(fw)}" '
            f'height="{num(fh)}" fill="#f7ecd0" stroke="{suit_colour(suit)}" '
            f'stroke-width="0.8"/>'
            f'<g transform="translate({num(cx)} {num(cy)})">'
            f'<g transform="translate(0 -2)">{half}</g>'
            f'<g transform="rotate(180) translate(0 -2)">{half}</g>'
            f'<path d="M-{num(fw / 2)} 0H{num(fw / 2)}" stroke="{suit_colour(suit)}" '
            f'stroke-width="0.6"/></g>')


def durak_face(card: Card) -> str:
    """D1: the Atlas pattern: Cyrillic indices В Д К Т, double-headed courts, a large
    ornamented ace."""
    w, h = SIZE["durak"]
    colour = suit_colour(card.suit)
    out = _frame(w, h) + _corners(card.label, card.suit, w, h, colour)
    if card.rank == "A":
        out += (f'<circle cx="{num(w / 2)}" cy="{num(h / 2)}" r="17" fill="none" '
                f'stroke="{GOLD}" stroke-width="1.5" stroke-dasharray="2 2"/>'
                + use(f"pip-{card.suit}", w / 2, h / 2, 24))
    elif card.rank in HEADDRESS:
        out += _court(card.rank, card.suit, w, h)
    else:
        out += _pips(card.suit, int(card.rank), w, h, 11)
    return out


def tarot_face(card: Card) -> str:
    """T1: suit cards with French indices (R D C V), the 21 numbered trumps with a genre
    scene between their numbers, and the Excuse's jester."""
    w, h = SIZE["tarot"]
    if card.suit == "EX":
        return _frame(w, h, "#fbf3dc") + _corners("★", None, w, h, INK, 12) + _jester(w, h)
    if card.suit == "T":
        return _trump(int(card.rank), w, h)
    colour = suit_colour(card.suit)
    out = _frame(w, h) + _corners(card.label, card.suit, w, h, colour)
    if card.rank in HEADDRESS:
        return out + _court(card.rank, card.suit, w, h)
    return out + _pips(card.suit, int(card.rank), w, h, 10)


# A trump's scene: a sky and the ground, a sun by day (1–10) or a moon (11–21), mirrored
# in the lower half as the Tarot Nouveau prints two scenes head to foot.
def _trump(n: int, w: float, h: float) -> str:
    bout = n in (1, 21)  # T1: the Petit and the 21 are bouts
    sky = "#bcd9f0" if n <= 10 else "#c9bde8"
    light = ('<circle cx="14" cy="9" r="4" fill="#f2c230"/>' if n <= 10 else
             '<path d="M14 5a4 4 0 1 0 3 7 5 5 0 0 1-3-7z" fill="#fff6c8"/>')
    scene = (f'<rect x="0" y="0" width="{num(w - 12)}" height="{num(h / 2 - 18)}" '
             f'fill="{sky}"/>{light}'
             f'<path d="M0 {num(h / 2 - 26)}q12-6 24 0t24 0V{num(h / 2 - 18)}H0z" '
             f'fill="#8fbf7a"/>'
             f'<path d="M26 {num(h / 2 - 22)}v-9m-3 3h6" stroke="#6b4f2a" stroke-width="1.4"/>')
    out = _frame(w, h, "#fbf3dc" if not bout else "#fff0c0")
    out += f'<g transform="translate(6 16)">{scene}</g>'
    out += f'<g transform="rotate(180 {num(w / 2)} {num(h / 2)}) translate(6 16)">{scene}</g>'
    out += (f'<rect x="{num(w / 2 - 11)}" y="{num(h / 2 - 9)}" width="22" height="18" rx="3" '
            f'fill="{PAPER}" stroke="{GOLD}" stroke-width="{2 if bout else 1}"/>')
    out += text(w / 2, h / 2 + 5, str(n), 13, INK, weight="bold", family=SERIF)
    out += text(w / 2, 13, str(n), 11, INK, weight="bold", family=SERIF)
    out += text(w / 2, h - 5, str(n), 11, INK, weight="bold", family=SERIF,
                extra=f' transform="rotate(180 {num(w / 2)} {num(h - 9)})"')
    if bout:
        out += (f'<rect x="2.5" y="2.5" width="{num(w - 5)}" height="{num(h - 5)}" rx="4" '
                f'fill="none" stroke="{GOLD}" stroke-width="1.5"/>')
    return out


def _jester(w: float, h: float) -> str:
    cx, cy = w / 2, h / 2
    return (f'<g transform="translate({num(cx)} {num(cy)})">'
            '<path d="M-14 -10 0 -26 14 -10z" fill="#c62828"/>'
            '<path d="M-14 -10-22 -22 0 -16 22 -22 14 -10z" fill="#2e5fa8"/>'
            f'<circle cx="-22" cy="-22" r="2.5" fill="{GOLD}"/>'
            f'<circle cx="22" cy="-22" r="2.5" fill="{GOLD}"/>'
            f'<circle cx="0" cy="-26" r="2.5" fill="{GOLD}"/>'
            '<circle cx="0" cy="-3" r="8" fill="#f6d7b0" stroke="#8a6a4a" stroke-width="0.6"/>'
            '<circle cx="-3" cy="-5" r="1" fill="#333"/><circle cx="3" cy="-5" r="1" '
            'fill="#333"/><path d="M-4 0q4 3 8 0" stroke="#333" fill="none"/>'
            '<path d="M-12 30-8 8h16l4 22z" fill="#2e7d32"/>'
            '<path d="M-8 8 0 16 8 8" fill="#c62828"/>'
            f'<path d="M10 8 20 -2" stroke="#6b4f2a" stroke-width="1.5"/>'
            f'<circle cx="20" cy="-3" r="2.5" fill="{GOLD}"/></g>')


# -- Ganjifa: ten suits, each its colour and emblem (G1) -------------------------------------

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
    d = SIZE["ganjifa"][0]
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


# -- any card --------------------------------------------------------------------------------

FACES = {"durak": durak_face, "tarot": tarot_face, "ganjifa": ganjifa_face}
DEFS = {"durak": french_defs, "tarot": french_defs, "ganjifa": ganjifa_defs}


@cache
def defs(game: str) -> str:
    return "<defs>" + DEFS[game]() + "</defs>"


@cache
def back(game: str) -> str:
    """A face-down card: a lattice on Durak's and Tarot's, rings on Ganjifa's disc."""
    w, h = SIZE[game]
    if game == "ganjifa":
        c = w / 2
        return (f'<circle cx="{num(c)}" cy="{num(c)}" r="{num(c - 0.75)}" fill="#5d1a1a" '
                f'stroke="{GOLD}" stroke-width="1.5"/>'
                f'<circle cx="{num(c)}" cy="{num(c)}" r="{num(c - 7)}" fill="none" '
                f'stroke="{GOLD}" stroke-width="1"/>'
                f'<circle cx="{num(c)}" cy="{num(c)}" r="{num(c - 15)}" fill="none" '
                f'stroke="{GOLD}" stroke-width="1" stroke-dasharray="2 2"/>'
                + use("em-KRI", c, c, 12, f' color="{GOLD}"'))
    lattice = "".join(
        f'<path d="M{num(x)} 6 {num(x + h - 12)} {num(h - 6)}M{num(x + h - 12)} 6 {num(x)} '
        f'{num(h - 6)}" stroke="#8fa8d8" stroke-width="0.7"/>'
        for x in range(-int(h), int(w), 8))
    return (f'<rect x="0.5" y="0.5" width="{num(w - 1)}" height="{num(h - 1)}" rx="5" '
            f'fill="#fff" stroke="#555"/>'
            f'<svg x="4" y="4" width="{num(w - 8)}" height="{num(h - 8)}">'
            f'<rect width="100%" height="100%" rx="3" fill="#27406b"/>'
            f'<g transform="translate(-4 -4)">{lattice}</g></svg>')


@cache
def face(game: str, code: str) -> str:
    """A card's face: drawn once per card and process, as it never changes."""
    return FACES[game](CARDS[game][code])


def card(game: str, code: str, x: float, y: float, scale: float = 1.0,
         rotate: float = 0) -> str:
    """One card face up at (x, y), turned by `rotate` degrees about that corner, its code
    in `data-card` (what the tests collect)."""
    turn = f" rotate({num(rotate)})" if rotate else ""
    return (f'<g class="card" data-card="{escape(code)}" transform="translate({num(x)} '
            f'{num(y)}){turn} scale({num(scale)})">{face(game, code)}</g>')


def card_back(game: str, x: float, y: float, scale: float = 1.0) -> str:
    return (f'<g class="back" transform="translate({num(x)} {num(y)}) scale({num(scale)})">'
            f"{back(game)}</g>")


def document(game: str, code: str | None, title: str) -> str:
    """One card's picture as a whole SVG document: a face, or the back when `code` is
    None."""
    w, h = SIZE[game]
    body = back(game) if code is None else face(game, code)
    data = "" if code is None else f' data-card="{escape(code)}"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" role="img"{data}><title>{escape(title)}</title>'
            f"{defs(game)}{body}</svg>\n")
