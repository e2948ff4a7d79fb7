"""French-suited cards, shared by Durak's Atlas pattern and Tarot's suits: the pips, the
corner indices, the number cards' pip patterns, the double-headed courts and the lattice
back."""

from __future__ import annotations

from render.art import GOLD, INK, PAPER, RED, SERIF, num, text, use

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


def pips(suit: str, n: int, w: float, h: float, size: float) -> str:
    """n pips in the card's middle; those of the lower half upside down, as printed."""
    x0, x1, y0, y1 = w * 0.3, w * 0.7, h * 0.22, h * 0.78
    out = []
    for fx, fy in PIP_LAYOUT[n]:
        cx, cy = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        flip = f' transform="rotate(180 {num(cx)} {num(cy)})"' if fy > 0.5 else ""
        out.append(use(f"pip-{suit}", cx, cy, size, flip))
    return "".join(out)


def corners(index: str, suit: str | None, w: float, h: float, colour: str,
             size: float = 11) -> str:
    """The index (and pip) in the top left corner and, upside down, the bottom right."""
    one = text(7.5, 4 + size, index, size, colour, weight="bold", family=SERIF)
    if suit is not None:
        one += use(f"pip-{suit}", 7.5, 9 + size, 8)
    return one + f'<g transform="rotate(180 {num(w / 2)} {num(h / 2)})">{one}</g>'


def frame(w: float, h: float, fill: str = PAPER) -> str:
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


def court(rank: str, suit: str, w: float, h: float) -> str:
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



def lattice_back(w: float, h: float) -> str:
    """A face-down French-suited card: a blue lattice in a white border."""
    lattice = "".join(
        f'<path d="M{num(x)} 6 {num(x + h - 12)} {num(h - 6)}M{num(x + h - 12)} 6 {num(x)} '
        f'{num(h - 6)}" stroke="#8fa8d8" stroke-width="0.7"/>'
        for x in range(-int(h), int(w), 8))
    return (f'<rect x="0.5" y="0.5" width="{num(w - 1)}" height="{num(h - 1)}" rx="5" '
            f'fill="#fff" stroke="#555"/>'
            f'<svg x="4" y="4" width="{num(w - 8)}" height="{num(h - 8)}">'
            f'<rect width="100%" height="100%" rx="3" fill="#27406b"/>'
            f'<g transform="translate(-4 -4)">{lattice}</g></svg>')
