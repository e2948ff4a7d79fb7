"""Durak on this floor (D1): the Atlas pattern's faces, the table as its state shows it,
and the trump suit's pip at a glance (D3)."""

from __future__ import annotations

from render.art import GOLD, PAPER, num, use
from render.drawing import Drawing
from render.french import (
    HEADDRESS,
    corners,
    court,
    frame,
    french_defs,
    lattice_back,
    pips,
    suit_colour,
)
from render.layout import Layout, Pile, Row, Slot, common, scores, seats_of
from render.words import Words
from rules.cards import Card
from rules.durak import ALL, GAME, INDICES

SIZE = (60, 90)


def durak_face(card: Card) -> str:
    """D1: the Atlas pattern: Cyrillic indices В Д К Т, double-headed courts, a large
    ornamented ace."""
    w, h = SIZE
    colour = suit_colour(card.suit)
    out = frame(w, h) + corners(card.label, card.suit, w, h, colour)
    if card.rank == "A":
        out += (f'<circle cx="{num(w / 2)}" cy="{num(h / 2)}" r="17" fill="none" '
                f'stroke="{GOLD}" stroke-width="1.5" stroke-dasharray="2 2"/>'
                + use(f"pip-{card.suit}", w / 2, h / 2, 24))
    elif card.rank in HEADDRESS:
        out += court(card.rank, card.suit, w, h)
    else:
        out += pips(card.suit, int(card.rank), w, h, 11)
    return out



def durak_table(state: dict, viewer: int | None, words: Words) -> Layout:
    title, status = common(state, viewer, words, GAME.id)
    attacker = state["attacker"]
    players = len(state["hands"])
    # D18: the state names the defender with more than two players (null once the deal is
    # over); with two it is the seat that is not attacking.
    defender = state["defender"] if "defender" in state else 1 - attacker
    gone = {s for bout in state.get("out", ()) for s in bout}  # D23

    def roles(s: int) -> list[str]:
        if s in gone:
            return [words("render.out")]
        if s == attacker:
            return [words("render.attacker")]
        if s != defender:
            return []
        if state["taking"]:  # D10: the defender has declared take
            return [words("render.defender"), words("render.taking")]
        return [words("render.defender")]

    seats = seats_of(state, viewer, words, roles, lambda s: [])
    stock = state["stock"]
    facts = [words("render.trump", trump=words(f"durak.suit.{state['trump']}")),
             words("render.stock", n=len(stock)),
             words("render.discard", n=len(state["discard"]))]
    if gone:  # D25: who went out, bout by bout
        facts.append(words("render.out_order", seats=" → ".join(
            words.seats(bout) for bout in state["out"])))
    rows = []
    bout = tuple(Slot(p["attack"], p["defense"]) for p in state["table"])
    rows.append(Row("table", words("render.bout"), bout))
    if stock:  # D2: the last card of the stock is the turned-up trump card, face up
        rows.append(Row("stock", words("render.stock_pile"),
                        (Slot(stock[-1], None, words("render.turned_up")),), len(stock) - 1))
    if state.get("trump_card"):  # D17: the last card dealt, shown to all; its hand kept it
        rows.append(Row("trump_card", words("render.trump_card"),
                        (Slot(state["trump_card"], None, words.seat(players - 1)),)))
    # D11: the beaten-off cards, face down and out of play
    discard = Pile("discard", words("render.discard", n=len(state["discard"])),
                   len(state["discard"]))
    return Layout(GAME.id, title, status, tuple(facts), seats, tuple(rows),
                 durak_settlement(state["result"], words), state["trump"], (discard,))


def durak_settlement(result: dict | None, words: Words) -> tuple[str, ...]:
    if result is None:
        return ()
    head = words("render.durak_is", seat=result["durak"]) if result["outcome"] == "durak" \
        else words("render.draw")
    return head, scores(words, result["scores"])



def trump_badge(trump: str, x: float, y: float) -> str:
    """D3: the trump suit's pip in a disc."""
    return (f'<circle cx="{x}" cy="{y}" r="24" fill="{PAPER}" stroke="{GOLD}" '
            f'stroke-width="2"/>' + use(f"pip-{trump}", x, y, 28))


DRAWING = Drawing(GAME, SIZE, scale=(1.0, 0.62), overlap=0.55, face=durak_face,
                  defs=french_defs, back=lambda: lattice_back(*SIZE), layout=durak_table,
                  trump_badge=trump_badge, deck=ALL,  # D16: the 52-card deck's low ranks too
                  indices=INDICES, suit_marks={"S": "♠", "H": "♥", "D": "♦", "C": "♣"})
