"""The table as an SVG picture: the other seats round the top, the middle of the table (the
bout or trick, the stock, the chien and écart, the poignées, a Dukal), the viewer's hand
at the bottom, the settlement under it once the deal is over.

Every face-up card is a <g data-card="CODE">; every face-down pile a <g
data-place="FIELD" data-count="N">, FIELD the state's field the cards are in: what the
tests collect and compare with the View. Sizes and places are computed from the table
alone, so the same table always gives the same bytes."""

from __future__ import annotations

from html import escape
from typing import NamedTuple

from render import art
from render import cards as pictures
from render.art import num
from render.layout import Layout, Row, Seat
from render.registry import DRAWINGS
from render.words import Words

WIDTH = 1200
MARGIN = 24
FELT = "#2f6b3a"
FELT_DARK = "#24542d"
LABEL = "#f4f1e4"
HIGHLIGHT = "#ffd54f"
# Cards shown rather than played are drawn smaller: the poignées, the chien turned up.
ROW_SCALE = {"poignees": 0.62, "chien_shown": 0.75, "dukal": 0.8}


class Block(NamedTuple):
    """A drawn piece of the middle of the table: its SVG and its size."""

    svg: str
    width: float
    height: float


def label(words: Words, x: float, y: float, content: str, size: float = 15, fill: str = LABEL,
          weight: str = "normal", anchor: str = "start") -> str:
    """A label anchored at x on the side `anchor` says. In a right-to-left language the
    whole picture is mirrored (`svg`): the label is turned back about x so that it reads,
    laid out right to left, and `start` is then its right end, so it runs leftwards from
    the mirrored x, as the mirrored table does."""
    if not words.rtl:
        return art.text(x, y, content, size, fill, anchor=anchor, weight=weight)
    return art.text(x, y, content, size, fill, anchor=anchor, weight=weight,
                    extra=f' direction="rtl" transform="matrix(-1 0 0 1 {num(2 * x)} 0)"')


def upright(words: Words, drawing: str, x: float, width: float) -> str:
    """A card, a pile of backs or a badge spanning [x, x + width], turned back about its
    middle in a mirrored (right-to-left) picture: its place mirrored, its face not."""
    if not words.rtl:
        return drawing
    return f'<g transform="matrix(-1 0 0 1 {num(2 * x + width)} 0)">{drawing}</g>'


def text_width(content: str, size: float, bold: bool = False) -> float:
    """About how wide a label is drawn: a sans-serif letter is taken as 0.55 of the font
    size, 0.6 in bold (generous for Latin and Cyrillic), since the picture loads no font
    to measure."""
    return (0.6 if bold else 0.55) * size * len(content)


def card_size(game: str, scale: float) -> tuple[float, float]:
    w, h = DRAWINGS[game].size
    return w * scale, h * scale


def face_down(game: str, place: str, count: int, x: float, y: float, scale: float,
              step: float, words: Words) -> tuple[str, float]:
    """`count` backs fanned from (x, y) and their count: the pile's SVG and its width."""
    w, h = card_size(game, scale)
    backs = "".join(upright(words, pictures.card_back(game, x + i * step, y, scale),
                            x + i * step, w) for i in range(count))
    end = x + (count - 1) * step + w
    title = words("render.face_down", n=count)
    svg = (f'<g class="hidden" data-place="{escape(place)}" data-count="{count}">'
           f"{backs}{label(words, end + 8, y + h / 2 + 5, title, 14)}</g>")
    return svg, end + 8 + text_width(title, 14) - x


def hand(game: str, seat: Seat, y: float, scale: float, words: Words, x0: float = MARGIN,
         room: float = WIDTH - 2 * MARGIN) -> tuple[str, float]:
    """A seat's cards in rows across [x0, x0 + room], the face-down ones after them: the
    SVG and the height taken."""
    w, h = card_size(game, scale)
    cards = seat.cards
    out = []
    height = 0.0
    if cards:
        per_row = max(1, int((room - w) // (w * DRAWINGS[game].overlap)) + 1)
        rows = -(-len(cards) // per_row)
        per_row = -(-len(cards) // rows)
        step = min(w + 6, (room - w) / max(1, per_row - 1))
        for i, code in enumerate(cards):
            r, c = divmod(i, per_row)
            out.append(upright(words, pictures.card(game, code, x0 + c * step,
                                                    y + r * (h + 8), scale,
                                                    indices=words.indices),
                               x0 + c * step, w))
        height = rows * (h + 8)
    if seat.hidden:
        # the backs fan within the room their count's label leaves
        spare = room - w - 8 - text_width(words("render.face_down", n=seat.hidden), 14)
        step = max(1.0, min(w * 0.3, spare / max(1, seat.hidden - 1)))
        svg, _ = face_down(game, f"hands.{seat.seat}", seat.hidden, x0, y + height,
                           scale, step, words)
        out.append(svg)
        height += h + 8
    if not cards and not seat.hidden:
        height = 8.0
    return "".join(out), height


def title_lines(title: str, room: float) -> list[str]:
    """A seat's title on lines that fit `room`, broken between its parts."""
    lines: list[str] = []
    for part in title.split(" · "):
        if lines and text_width(f"{lines[-1]} · {part}", 15, True) <= room:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


def seat_band(game: str, seat: Seat, y: float, scale: float, words: Words,
              x0: float = MARGIN, room: float = WIDTH - 2 * MARGIN) -> tuple[str, float]:
    """A seat's title (highlighted when it is to act) over its hand, in [x0, x0 + room]; its
    won cards as a pile at the right, beside the title across the table, under it in a
    narrower column."""
    out = []
    lines = title_lines(("◀ " if words.rtl else "▶ ") + seat.title if seat.to_act
                        else seat.title, room)
    if seat.to_act:  # pointing at the title
        out.append(f'<rect x="{num(x0 - 8)}" y="{num(y + 2)}" '
                   f'width="{num(16 + max(text_width(line, 15, True) for line in lines))}" '
                   f'height="{num(22 * len(lines))}" rx="4" fill="{HIGHLIGHT}"/>')
    for i, line in enumerate(lines):
        out.append(label(words, x0, y + 18 + 22 * i, line, 15,
                         "#1b1b1b" if seat.to_act else LABEL,
                         "bold" if seat.to_act or seat.viewer else "normal"))
    top = 30 + 22 * (len(lines) - 1)
    if seat.notes:
        across = room >= WIDTH - 2 * MARGIN
        out.append(won_pile(words, game, f"won.{seat.seat}", " · ".join(seat.notes), seat.won,
                            x0 + room, y + 4 if across else y + top + 4))
        top += 0 if across else 30
    cards, height = hand(game, seat, y + top, scale, words, x0, room)
    return "".join(out) + cards, top + height + 10


def round_the_table(game: str, seats: list[Seat], y: float, scale: float, words: Words
                    ) -> tuple[str, float]:
    """The other seats side by side above the middle, from the viewer's left to their
    right, those at the ends a little lower as at a round table: the SVG and the height."""
    k = len(seats)
    if k == 1:
        return seat_band(game, seats[0], y, scale, words)
    gap = 20.0
    room = (WIDTH - 2 * MARGIN - gap * (k - 1)) / k
    out, height = [], 0.0
    for i, seat in enumerate(seats):
        drop = 24 * ((2 * i - (k - 1)) / (k - 1)) ** 2 if k > 2 else 0.0
        band, h = seat_band(game, seat, y + drop, scale, words, MARGIN + i * (room + gap), room)
        out.append(band)
        height = max(height, drop + h)
    return "".join(out), height


def won_pile(words: Words, game: str, place: str, title: str, count: int, right: float,
             y: float) -> str:
    """A small face-down pile ending at `right`, its title to its left: the cards a seat
    has won, or a pile out of play. An empty pile is an outline."""
    scale = 0.34
    w, h = card_size(game, scale)
    x = right - w - 4
    if count:
        stack = "".join(pictures.card_back(game, x + i * 2, y + i * 2 - 4, scale)
                        for i in range(min(3, count)))
        stack = upright(words, stack, x, w + 4)
    else:
        stack = (f'<rect x="{num(x)}" y="{num(y - 4)}" width="{num(w)}" height="{num(h)}" '
                 f'rx="3" fill="none" stroke="{LABEL}" stroke-opacity="0.4" '
                 f'stroke-dasharray="3 3"/>')
    return (f'<g class="pile" data-pile="{escape(place)}" data-count="{count}">{stack}'
            + label(words, x - 8, y + 14, title, 14, LABEL, anchor="end") + "</g>")


def slots_block(game: str, row: Row, scale: float, words: Words) -> Block:
    """A row of the middle: its title over its cards, a caption under each, and its
    face-down cards after them. Durak's defence lies across its attack card (D7)."""
    w, h = card_size(game, scale)
    out = [label(words, 0, 14, row.title, 14, LABEL, "bold")]
    x, top = 0.0, 22.0
    captions = any(s.caption for s in row.slots)
    over = any(s.over for s in row.slots)
    for slot in row.slots:
        out.append(upright(words, pictures.card(game, slot.card, x, top, scale,
                                                   indices=words.indices), x, w))
        if slot.over is not None:
            out.append(upright(words, pictures.card(game, slot.over, x + w * 0.28,
                                                    top + h * 0.28, scale,
                                                    indices=words.indices), x + w * 0.28, w))
        if slot.caption:
            out.append(label(words, x + w / 2, top + h + (h * 0.28 if over else 0) + 16,
                             slot.caption, 12, LABEL, anchor="middle"))
        x += w * (1.45 if over else 1.12)
    width = max(x, text_width(row.title, 14))
    if row.hidden:
        step = min(w * 0.25, 6.0) if row.place == "stock" else w * 0.3
        svg, pile = face_down(game, row.place, row.hidden, x, top, scale, step, words)
        out.append(svg)
        width = x + pile
    if not row.slots and not row.hidden:
        out.append(f'<rect x="0" y="{num(top)}" width="{num(w)}" height="{num(h)}" rx="6" '
                   f'fill="none" stroke="{LABEL}" stroke-opacity="0.35" '
                   f'stroke-dasharray="4 4"/>')
        width = max(width, w)
    height = top + h + (h * 0.28 if over else 0) + (22 if captions else 6)
    return Block("".join(out), width, height)


def stock_block(game: str, row: Row, scale: float, words: Words) -> Block:
    """D2: the stock face down across its turned-up trump card, and its count."""
    w, h = card_size(game, scale)
    trump = row.slots[0].card
    top = 22.0
    out = [label(words, 0, 14, row.title, 14, LABEL, "bold"),
           # the turned-up card lies crosswise under the pile, its index showing
           upright(words, pictures.card(game, trump, 0, top + (h - w) / 2 + w, scale,
                                        rotate=-90, indices=words.indices), 0, h)]
    width = h
    if row.hidden:
        svg, pile = face_down(game, "stock", row.hidden, h * 0.45, top, scale, 1.5, words)
        out.append(svg)
        width = h * 0.45 + pile
    return Block("".join(out), width, top + h + 6)


def middle(game: str, table: Layout, y: float, words: Words) -> tuple[str, float]:
    """The rows of the middle of the table, left to right, wrapping, and the piles out of
    play at its right: the SVG, the height."""
    rows = table.rows
    scale = DRAWINGS[game].scale[0]
    blocks = []
    for row in rows:
        if row.place == "stock":
            blocks.append(stock_block(game, row, scale, words))
        else:
            blocks.append(slots_block(game, row, ROW_SCALE.get(row.place, 1.0) * scale, words))
    out = []
    x: float = MARGIN
    line_y, line_h = y + 12, 0.0
    for b in blocks:
        if x > MARGIN and x + b.width > WIDTH - MARGIN:
            x, line_y, line_h = MARGIN, line_y + line_h + 12, 0.0
        out.append(f'<g transform="translate({num(x)} {num(line_y)})">{b.svg}</g>')
        x += b.width + 36
        line_h = max(line_h, b.height)
    height = line_y + line_h + 12 - y
    for i, pile in enumerate(table.piles):
        out.append(won_pile(words, game, pile.place, pile.title, pile.size, WIDTH - MARGIN,
                            y + 16 + 40 * i))
    felt = (f'<rect x="{MARGIN / 2}" y="{num(y)}" width="{WIDTH - MARGIN}" '
            f'height="{num(height)}" rx="18" fill="{FELT_DARK}" stroke="#1c4424"/>')
    return felt + "".join(out), height + 12


def trump_badge(game: str, table: Layout, words: Words) -> str:
    """The trump at a glance, drawn by the game (D3, G3) about its centre."""
    badge = DRAWINGS[game].trump_badge
    if table.trump is None or badge is None:
        return ""
    return upright(words, badge(table.trump, WIDTH - MARGIN - 28, 44), WIDTH - MARGIN - 28, 0)


def fact_lines(facts: tuple[str, ...]) -> list[str]:
    """The facts joined on lines that fit beside the trump badge."""
    room = WIDTH - 2 * MARGIN - 64
    lines: list[str] = []
    for fact in facts:
        if lines and text_width(f"{lines[-1]} · {fact}", 14) <= room:
            lines[-1] += " · " + fact
        else:
            lines.append(fact)
    return lines


def settlement(words: Words, lines: tuple[str, ...], y: float) -> tuple[str, float]:
    if not lines:
        return "", 0.0
    height = 16 + 24 * len(lines)
    out = [f'<rect x="{MARGIN / 2}" y="{num(y)}" width="{WIDTH - MARGIN}" height="{height}" '
           f'rx="10" fill="{art.PAPER}" stroke="{art.GOLD}" stroke-width="2"/>']
    for i, line in enumerate(lines):
        out.append(label(words, MARGIN, y + 28 + 24 * i, line, 16, art.INK,
                         "bold" if i == 0 else "normal"))
    return "".join(out), height + 12


def svg(table: Layout, words: Words) -> str:
    game = table.game
    big, small = DRAWINGS[game].scale
    parts = [label(words, MARGIN, 34, table.title, 22, LABEL, "bold"),
             label(words, MARGIN, 60, table.status, 16, HIGHLIGHT),
             trump_badge(game, table, words)]
    y = 84.0
    for line in fact_lines(table.facts):
        parts.append(label(words, MARGIN, y, line, 14))
        y += 20
    y -= 4
    *others, bottom = table.seats
    band, height = round_the_table(game, others, y, small, words)
    parts.append(band)
    y += height
    band, height = middle(game, table, y, words)
    parts.append(band)
    y += height
    band, height = seat_band(game, bottom, y, big, words)
    parts.append(band)
    y += height
    band, height = settlement(words, table.settlement, y)
    parts.append(band)
    total = num(y + height + 8)
    body = "".join(parts)
    if words.rtl:
        # Right to left, the table is its mirror image: the title and hands start at the
        # right; labels and cards are each turned back (`label`, `upright`) and read.
        body = f'<g class="mirrored" transform="matrix(-1 0 0 1 {WIDTH} 0)">{body}</g>'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{total}" '
            f'viewBox="0 0 {WIDTH} {total}" role="img" data-game="{game}">'
            f"<title>{escape(table.title)}</title>{pictures.defs(game)}"
            f'<rect width="100%" height="100%" fill="{FELT}"/>' + body + "</svg>\n")
