"""What a seat sees of a deal (API.md, "A View"), and the deals it could be in."""

from __future__ import annotations

import random

from rules.cards import bit_list
from rules.game import NoWorldFits, View
from rules.tarot.call import partner_known
from rules.tarot.cards import COURTS, DECK, EXCUSE_BIT, ORDINARY, PETIT_BIT, TRUMPS
from rules.tarot.deal import petit_sec
from rules.tarot.state import UNKNOWN, TarotState
from rules.tarot.tricks import void_shown
from rules.worlds import deal_hidden


def observe(state: TarotState, seat: int) -> View:
    """The seat's hand, the bids, the shown chien, the poignées and the tricks; the
    écart for the taker, only its trumps for a defender (T5); the other hands, the
    chien while it is not shown (T6) and the rest of the écart as counts; the partner
    only where the seat knows it (T22). hidden = (each hand, chien, écart)."""
    players = len(state.hands)
    hands = [0] * players
    hands[seat] = state.hands[seat]
    ecart = state.ecart if seat == state.taker else state.ecart & TRUMPS
    hidden = tuple(0 if s == seat else state.hands[s].bit_count() for s in range(players))
    hidden += (state.chien.bit_count(), (state.ecart & ~ecart).bit_count())
    public = state._replace(hands=tuple(hands), chien=0, ecart=ecart)
    if not partner_known(state, seat):
        public = public._replace(partner=UNKNOWN)
    return View(seat, public, hidden, state.phase, state.to_act)


def called_courts(called: int | None) -> int:
    """T22: the courts the taker held all of to call `called`: every rank above it."""
    held = 0
    for court in COURTS:
        if called is None or court >> called & 1:
            break
        held |= court
    return held


def holder(hands, played, taker: int, called: int | None) -> int | None:
    """T22: the partner in a whole deal: the seat beside the taker that holds or played the
    called card."""
    if called is None:
        return None
    bit = 1 << called
    for s, (hand, cards) in enumerate(zip(hands, played, strict=True)):
        if (hand | cards) & bit:
            return None if s == taker else s
    return None


def hidden_places(view: View, lacks=None) -> tuple[int, list[int], list[int]]:
    """Where the hidden cards may lie: the cards the seat has not seen (a mask), the cards
    each hidden place (each hand, the chien, the hidden écart, as `View.hidden` counts
    them) may hold, and the cards each seat played. The shown chien stays with the taker
    (hand or écart, T5); the hidden écart holds ordinary cards only, and a taker who had to
    lay trumps kept no ordinary card (T5); poignée trumps stay with their seat, and a
    poignée shown with the Excuse leaves no other trump (T8); every void a play revealed
    holds (T9); a partner the seat knows holds the called card, and a taker who called
    below the Kings holds every court above (T22). `lacks`, one mask a seat, adds cards a
    caller reads as missing from each hand (the AI's reading of the play,
    rules/ai/tarot_reading.py)."""
    public = view.public
    players = len(public.hands)
    seen, played, forbidden = _plays_seen(public, view.seat, players)
    allowed = _shown_constraints(public, forbidden, players)
    _call_constraints(public, allowed, players)
    for s in range(players):
        allowed[s] &= ~forbidden[s]
        if lacks is not None:
            allowed[s] &= ~lacks[s]
    return DECK.full & ~seen, allowed, played


def sample(view: View, rng: random.Random, lacks=None) -> TarotState:
    """The hidden cards dealt among the other hands, the chien and the hidden écart, each
    within what `hidden_places` allows it; no hand is a petit sec unless the deal was
    annulled for one (T3)."""
    public = view.public
    seat, hidden = view.seat, view.hidden
    players = len(public.hands)
    pile, allowed, played = hidden_places(view, lacks)
    petit_sec_deal = view.phase == "over" and not public.bids
    if petit_sec_deal and not petit_sec(public.hands[seat]):
        # T3: the holder of the Petit holds it sec.
        sec = rng.choice([s for s in range(players) if hidden[s]])
        for i in range(players + 2):
            if i != sec:
                allowed[i] &= ~PETIT_BIT
        allowed[sec] &= ~((TRUMPS | EXCUSE_BIT) & ~PETIT_BIT)
    world = None
    for _attempt in range(200):
        dealt = deal_hidden(bit_list(pile), list(hidden), allowed, rng)
        if dealt is None:
            break
        world = _world(public, dealt, played)
        if petit_sec_deal or not _deals_petit_sec(public, world.hands, played, dealt):
            return world
    if world is not None:
        # So unlikely a view that 200 deals all gave someone a petit sec: play on in a
        # world that breaks only T3's dealing condition rather than fail the request.
        return world
    raise NoWorldFits("no deal of the hidden cards fits this view")


def _world(public: TarotState, dealt: list[int], played: list[int]) -> TarotState:
    """The view's public state with the hidden cards dealt, and the partner (T22)."""
    players = len(public.hands)
    hands = tuple(public.hands[s] | dealt[s] for s in range(players))
    world = public._replace(hands=hands, chien=dealt[players],
                            ecart=public.ecart | dealt[players + 1])
    if public.called is not None and public.taker is not None:
        world = world._replace(partner=holder(hands, played, public.taker, public.called))
    return world


def _plays_seen(public: TarotState, seat: int, players: int
                ) -> tuple[int, list[int], list[int]]:
    """The cards the seat has seen (its hand, its écart, every card played), the cards each
    seat played, and the cards each seat showed it lacks by its plays (T9)."""
    played = [0] * players
    forbidden = [0] * players
    seen = public.hands[seat] | public.ecart
    rounds = [(leader, cards) for leader, cards, _ in public.tricks]
    rounds.append((public.leader, public.trick))
    for leader, cards in rounds:
        for j, c in enumerate(cards):
            s = (leader + j) % players
            seen |= 1 << c
            played[s] |= 1 << c
            forbidden[s] |= void_shown(cards[:j], c)
    return seen, played, forbidden


def _shown_constraints(public: TarotState, forbidden: list[int], players: int) -> list[int]:
    """The cards each hidden place (the hands, the chien, the écart) may hold by what was
    shown: the chien (T5), the écart's trumps (T5), the poignées (T8); `forbidden` gains
    what a seat is known to lack."""
    taker = public.taker
    allowed = [DECK.full] * (players + 2)
    allowed[players + 1] = ORDINARY  # T5: no King, bout or trump hides in the écart
    if public.chien_shown:
        for i in range(players + 1):
            if i != taker:
                allowed[i] &= ~public.chien_shown
    if public.ecart & TRUMPS and taker is not None:
        forbidden[taker] |= ORDINARY  # T5: trumps only once the ordinary cards ran out
    for s, shown in public.poignees:
        for i in range(players + 2):
            if i != s:
                allowed[i] &= ~shown
        if shown & EXCUSE_BIT:
            forbidden[s] |= TRUMPS & ~shown  # T8: every trump held was shown
    return allowed


def _deals_petit_sec(public: TarotState, hands, played: list[int], dealt: list[int]) -> bool:
    """T3: whether a seat of a sampled world was dealt the Petit sec (its hand, its played
    cards, and for a taker who took the chien its écart instead of the chien)."""
    players, taker = len(hands), public.taker
    chien_taken = public.contract in ("prise", "garde") and public.chien_shown
    sec = False
    for s in range(players):
        held = hands[s] | played[s]
        if s == taker and chien_taken:
            held = (held | public.ecart | dealt[players + 1]) & ~public.chien_shown
        sec = sec or petit_sec(held)
    return sec


def _call_constraints(public: TarotState, allowed: list[int], players: int) -> None:
    """T22 on the places of the hidden cards: a known partner holds the called card (if not
    played), and the courts above the called card were the taker's."""
    called, taker = public.called, public.taker
    if called is None or taker is None:
        return
    if public.partner is not None and public.partner != UNKNOWN:
        for i in range(players + 2):
            if i != public.partner:
                allowed[i] &= ~(1 << called)
    above = called_courts(called)
    for i in range(players + 1):
        if i != taker:
            allowed[i] &= ~above
