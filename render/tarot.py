"""Tarot on this floor (T1): French suits with their indices, the numbered trumps, the
Excuse; the table as its state shows it, the bonuses of its settlement."""

from __future__ import annotations

from render.art import GOLD, INK, PAPER, SERIF, num, text
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
from render.layout import Layout, Row, Slot, common, hidden, plays, scores, seats_of, visible
from render.words import Words
from rules.cards import Card
from rules.tarot import GAME

SIZE = (60, 104)


def tarot_face(card: Card) -> str:
    """T1: suit cards with French indices (R D C V), the 21 numbered trumps with a genre
    scene between their numbers, and the Excuse's jester."""
    w, h = SIZE
    if card.suit == "EX":
        return frame(w, h, "#fbf3dc") + corners("★", None, w, h, INK, 12) + _jester(w, h)
    if card.suit == "T":
        return _trump(int(card.rank), w, h)
    colour = suit_colour(card.suit)
    out = frame(w, h) + corners(card.label, card.suit, w, h, colour)
    if card.rank in HEADDRESS:
        return out + court(card.rank, card.suit, w, h)
    return out + pips(card.suit, int(card.rank), w, h, 10)


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
    out = frame(w, h, "#fbf3dc" if not bout else "#fff0c0")
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



def tarot_table(state: dict, viewer: int | None, words: Words) -> Layout:
    title, status = common(state, viewer, words, GAME.id)
    taker = state["taker"]
    partner = state.get("partner")  # five players (T22): a seat, "?" or null
    won = [0] * len(state["hands"])
    for trick in state["tricks"]:
        won[trick["winner"]] += 1

    def roles(s: int) -> list[str]:
        out = []
        if s == state["dealer"]:
            out.append(words("render.dealer"))
        if s == taker:
            out.append(words("render.taker"))
        if s == partner:
            out.append(words("render.partner"))
        return out

    def notes(s: int) -> list[str]:
        return [words("render.tricks_won", n=won[s])]

    seats = seats_of(state, viewer, words, roles, notes, won.__getitem__)
    return Layout(GAME.id, title, status, tarot_facts(state, words), seats,
                  tarot_rows(state, words), tarot_settlement(state["result"], words), None)


def tarot_facts(state: dict, words: Words) -> tuple[str, ...]:
    """The contract, the bids, the called card and a chelem announced, a line each."""
    taker, contract = state["taker"], state["contract"]
    facts = []
    if contract is not None:
        facts.append(words("render.contract", contract=words(f"contract.{contract}"),
                           seat=taker))
    if state["bids"]:
        first = (state["dealer"] + 1) % len(state["hands"])  # T4: bids from the dealer's right
        facts.append(words("render.bids", bids=", ".join(
            f"{words.seat((first + i) % len(state['hands']))} {_bid(words, b)}"
            for i, b in enumerate(state["bids"]))))
    if state.get("called") is not None:
        facts.append(words("render.called", card=state["called"]))
    if state["chelem"]:
        facts.append(words("render.chelem"))
    return tuple(facts)


def tarot_rows(state: dict, words: Words) -> tuple[Row, ...]:
    """The trick under way, the chien (face up in the discard phase, T5), the écart and
    the poignées shown (T8)."""
    rows = [Row("trick", words("render.trick"), plays(words, state["trick"]))]
    chien = state["chien"]
    if chien:
        rows.append(Row("chien", words("render.chien"), tuple(Slot(c) for c in visible(chien)),
                        hidden(chien)))
    if state["phase"] == "discard" and state["chien_shown"]:  # T5: the chien turned face up
        rows.append(Row("chien_shown", words("render.chien_shown"),
                        tuple(Slot(c) for c in state["chien_shown"])))
    ecart = state["ecart"]
    if ecart:
        rows.append(Row("ecart", words("render.ecart"), tuple(Slot(c) for c in visible(ecart)),
                        hidden(ecart)))
    for p in state["poignees"]:  # T8: shown to every seat
        rows.append(Row("poignees", words("render.poignee", seat=p["seat"]),
                        tuple(Slot(c) for c in p["cards"])))
    return tuple(rows)


def _bid(words: Words, bid: str) -> str:
    return words(f"contract.{bid}")  # the table's word for a pass, not Durak's


def tarot_settlement(result: dict | None, words: Words) -> tuple[str, ...]:
    if result is None:
        return ()
    if "annulled" in result:
        return words(f"render.annulled.{result['annulled']}"), scores(words, result["scores"])
    verdict = words("render.made" if result["made"] else "render.failed")
    head = words("render.tarot_result", verdict=verdict,
                 contract=words(f"contract.{result['contract']}"), seat=result["taker"],
                 points=result["points"], target=result["target"], bouts=result["bouts"])
    return (head, *tarot_bonuses(result, words), scores(words, result["scores"]))


def tarot_bonuses(result: dict, words: Words) -> list[str]:
    """The petit au bout (T15), the poignées (T8) and the chelem (T16), each with the camp
    it is credited to."""
    def camp(c: str) -> str:
        return words(f"render.camp.{c}")

    out = []
    petit = result["petit_au_bout"]
    if petit is not None:
        out.append(words("render.petit_au_bout", value=petit["value"], camp=camp(petit["camp"])))
    for p in result["poignees"]:
        out.append(words("render.poignee_bonus", level=words(f"poignee.{p['level']}"),
                         seat=p["seat"],
                         value=p["value"], camp=camp(p["camp"])))
    chelem = result["chelem"]
    if chelem is not None:
        out.append(words("render.chelem_bonus", value=chelem["value"], camp=camp(chelem["camp"])))
    return out



DRAWING = Drawing(GAME, SIZE, scale=(0.9, 0.56), overlap=0.55, face=tarot_face,
                  defs=french_defs, back=lambda: lattice_back(*SIZE), layout=tarot_table)
