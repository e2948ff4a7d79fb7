"""A state (or one seat's View) as a table to draw: the same facts for the picture and the
text, read once from the state's JSON (API.md, "States"; a View writes hidden cards "?").

What is drawn card by card: the hands, the bout or trick in progress, the turned-up trump
card, the chien and the écart where they are set aside, the poignées, a pending Dukal.
What is drawn as a count: the stock under its turned-up card, Durak's discard, the tricks
and captured piles, and every card hidden from the viewer."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from render.words import Words
from rules.ganjifa import PERIODS, SUITS

HIDDEN = "?"


class Slot(NamedTuple):
    """One card laid out in the middle, with the card laid across it (Durak's defence) and a
    caption (whose card it is)."""

    card: str
    over: str | None = None
    caption: str = ""


class Row(NamedTuple):
    """Cards laid out together in the middle of the table, and a face-down count."""

    place: str  # the state's field the cards are in: "table", "trick", "chien"…
    title: str
    slots: tuple[Slot, ...]
    hidden: int = 0


class Seat(NamedTuple):
    seat: int
    title: str  # "Seat 1 · defender"
    cards: tuple[str, ...]  # the cards the viewer may see, in the state's order
    hidden: int  # cards face down
    notes: tuple[str, ...]  # captured piles, tricks won
    to_act: bool
    viewer: bool
    won: int  # the size of the seat's pile of won cards (tricks or cards, as its notes say)


class Pile(NamedTuple):
    """Cards out of play, drawn as a count."""

    place: str
    title: str
    size: int


class Table(NamedTuple):
    game: str
    title: str
    status: str  # the phase and whose turn it is
    facts: tuple[str, ...]  # trump, stock, contract…
    seats: tuple[Seat, ...]  # in drawing order: the others first, the viewer (or seat 0) last
    rows: tuple[Row, ...]
    settlement: tuple[str, ...]
    trump: str | None  # the trump suit's code, for games with a trump suit (D3, G3)
    piles: tuple[Pile, ...] = ()  # piles out of play, drawn as counts (Durak's discard)


def visible(cards: list[str]) -> tuple[str, ...]:
    return tuple(c for c in cards if c != HIDDEN)


def hidden(cards: list[str]) -> int:
    return sum(1 for c in cards if c == HIDDEN)


def signed(n: int | float) -> str:
    return f"+{n}" if n > 0 else str(n)


def scores(words: Words, values: list, zero_sum: bool = True) -> str:
    """The scores by seat; a zero-sum game's with their signs (D15, T17)."""
    return words("render.scores", scores=" · ".join(
        f"{words.seat(s)} {signed(v) if zero_sum else v}" for s, v in enumerate(values)))


def table_of(game: str, state: dict, viewer: int | None, words: Words) -> Table:
    """The table of `state` (a View when `viewer` is a seat, else the whole state)."""
    return TABLES[game](state, viewer, words)


def _seat_order(players: int, viewer: int | None) -> list[int]:
    """The others from the viewer's left, then the viewer at the bottom (seat 0 for the
    whole table), as a player sees the table."""
    bottom = 0 if viewer is None else viewer
    return [(bottom + i) % players for i in range(1, players)] + [bottom]


def _common(state: dict, viewer: int | None, words: Words, game: str) -> tuple[str, str]:
    name = words(f"game.{game}.name")
    title = words("render.title.seat", game=name, seat=viewer) if viewer is not None \
        else words("render.title.all", game=name)
    phase = words(f"phase.{state['phase']}")
    to_act = state["to_act"]
    status = words("render.status", phase=phase) if to_act is None else \
        words("render.status.to_act", phase=phase, seat=to_act)
    return title, status


def _seats(state: dict, viewer: int | None, words: Words,
           roles: Callable[[int], list[str]], notes: Callable[[int], list[str]],
           won: Callable[[int], int] = lambda s: 0) -> tuple[Seat, ...]:
    hands = state["hands"]
    out = []
    for s in _seat_order(len(hands), viewer):
        cards = hands[s]
        parts = [words.seat(s), *roles(s)]
        if s == state["to_act"]:
            parts.append(words("render.to_act"))
        if s == viewer:
            parts.append(words("render.you"))
        parts.append(words("render.cards", n=len(cards)))
        out.append(Seat(s, " · ".join(parts), visible(cards), hidden(cards),
                        tuple(notes(s)), s == state["to_act"], s == viewer, won(s)))
    return tuple(out)


def _plays(words: Words, plays: list[dict]) -> tuple[Slot, ...]:
    return tuple(Slot(p["card"], None, words.seat(p["seat"])) for p in plays)


# -- Durak ------------------------------------------------------------------------------------


def durak_table(state: dict, viewer: int | None, words: Words) -> Table:
    title, status = _common(state, viewer, words, "durak")
    attacker = state["attacker"]

    def roles(s: int) -> list[str]:
        if s == attacker:
            return [words("render.attacker")]
        if state["taking"]:  # D10: the defender has declared take
            return [words("render.defender"), words("render.taking")]
        return [words("render.defender")]

    seats = _seats(state, viewer, words, roles, lambda s: [])
    stock = state["stock"]
    facts = [words("render.trump", trump=words(f"durak.suit.{state['trump']}")),
             words("render.stock", n=len(stock)),
             words("render.discard", n=len(state["discard"]))]
    rows = []
    bout = tuple(Slot(p["attack"], p["defense"]) for p in state["table"])
    rows.append(Row("table", words("render.bout"), bout))
    if stock:  # D2: the last card of the stock is the turned-up trump card, face up
        rows.append(Row("stock", words("render.stock_pile"),
                        (Slot(stock[-1], None, words("render.turned_up")),), len(stock) - 1))
    # D11: the beaten-off cards, face down and out of play
    discard = Pile("discard", words("render.discard", n=len(state["discard"])),
                   len(state["discard"]))
    return Table("durak", title, status, tuple(facts), seats, tuple(rows),
                 durak_settlement(state["result"], words), state["trump"], (discard,))


def durak_settlement(result: dict | None, words: Words) -> tuple[str, ...]:
    if result is None:
        return ()
    head = words("render.durak_is", seat=result["durak"]) if result["outcome"] == "durak" \
        else words("render.draw")
    return head, scores(words, result["scores"])


# -- Tarot ------------------------------------------------------------------------------------


def tarot_table(state: dict, viewer: int | None, words: Words) -> Table:
    title, status = _common(state, viewer, words, "tarot")
    taker, contract = state["taker"], state["contract"]
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

    seats = _seats(state, viewer, words, roles, notes, won.__getitem__)
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
    rows = [Row("trick", words("render.trick"), _plays(words, state["trick"]))]
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
    return Table("tarot", title, status, tuple(facts), seats, tuple(rows),
                 tarot_settlement(state["result"], words), None)


def _bid(words: Words, bid: str) -> str:
    return words("action.pass") if bid == "pass" else words(f"contract.{bid}")


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
        out.append(words("render.poignee_bonus", level=p["level"], seat=p["seat"],
                         value=p["value"], camp=camp(p["camp"])))
    chelem = result["chelem"]
    if chelem is not None:
        out.append(words("render.chelem_bonus", value=chelem["value"], camp=camp(chelem["camp"])))
    return out


# -- Ganjifa ----------------------------------------------------------------------------------


def ganjifa_table(state: dict, viewer: int | None, words: Words) -> Table:
    title, status = _common(state, viewer, words, "ganjifa")
    leader = state["leader"]

    def roles(s: int) -> list[str]:
        return [words("render.leader")] if s == leader else []

    def notes(s: int) -> list[str]:
        return [words("render.captured", n=len(state["captured"][s]))]

    seats = _seats(state, viewer, words, roles, notes, lambda s: len(state["captured"][s]))
    period = state["period"]
    trump = SUITS[PERIODS[period]]  # G3
    facts = [words("render.period", period=words(f"render.period.{period}")),
             words("render.trump", trump=f"{words(f'ganjifa.avatar.{trump}')} ({trump})")]
    rows = [Row("trick", words("render.trick"), _plays(words, state["trick"]))]
    dukal = state["dukal"]
    if dukal is not None:  # G8: the Dukal led, and the discards answering it so far
        rows.append(Row("dukal", words("render.dukal", seat=dukal["seat"]),
                        tuple(Slot(c) for c in dukal["cards"])))
        for d in dukal["discards"]:
            rows.append(Row("dukal", words("render.dukal_discard", seat=d["seat"]),
                            tuple(Slot(c) for c in d["cards"])))
    return Table("ganjifa", title, status, tuple(facts), seats, tuple(rows),
                 ganjifa_settlement(state["result"], words), trump)


def ganjifa_settlement(result: dict | None, words: Words) -> tuple[str, ...]:
    if result is None:
        return ()
    return (words("render.winners", seats=words.seats(result["winners"])),
            scores(words, result["scores"], zero_sum=False))  # G9: a point a card


TABLES: dict[str, Callable[[dict, int | None, Words], Table]] = {
    "durak": durak_table,
    "tarot": tarot_table,
    "ganjifa": ganjifa_table,
}
