"""What the strong level needs of Ganjifa (rules/ai/settings.py): basic's play
(rules/ai/ganjifa_basic.py) as the playouts' policy, the value of a settlement, the root
candidates that play alike or answer a Dukal, the history's reading
(rules/ai/ganjifa_reading.py) and the worlds and search (rules/ai/ganjifa_search.py)."""

from __future__ import annotations

from rules.ai import ganjifa_search
from rules.ai.ganjifa_basic import basic_move, boss, cheapest_cards, cost, unseen_by
from rules.ai.settings import Core, Explain, Settings
from rules.cards import bit_list
from rules.game import Move
from rules.ganjifa import (
    BEATERS,
    MANTRI_BITS,
    SUIT_COUNT,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SIZE,
    GanjifaState,
)

__all__ = ["SETTINGS", "basic_move", "discard_options", "play_class", "value"]


def value(settlement: dict, seat: int) -> float:
    """G9: the win, and the captured cards, which decide it and vary more smoothly."""
    winners = settlement["winners"]
    won = 1 / len(winners) if seat in winners else 0.0
    return 0.3 * won + 0.7 * min(1.0, settlement["captured"][seat] / 80)


def play_class(state: GanjifaState, seat: int):
    """A key under which two of the seat's moves play alike: single cards of one suit with
    no unseen card ranked between them win and lose the same tricks (G7), so the search
    need try only one. Suits whose Raja and Mantri the seat holds stay card by card, since
    their pips may yet make a Dukal (G8)."""
    trump = state.trump
    hand = state.hands[seat]
    unseen = unseen_by(state, seat)
    courts = hand & hand >> 1 & MANTRI_BITS

    def key(move: Move):
        card = move.card
        if card is None or courts >> (SUIT_SIZE * SUIT_OF[card] + 10) & 1:
            return move
        return SUIT_OF[card], BEATERS[trump][card] & SUIT_MASK[SUIT_OF[card]] & unseen
    return key


def discard_options(state: GanjifaState, seat: int) -> list[Move]:
    """Root candidates for an answer to a Dukal (G8: any k cards, no duty to follow suit),
    beside basic's k cheapest: the k cheapest that spare a suit whose Raja and Mantri the
    seat holds (its pips may yet make a Dukal of its own), that spare the bosses (cards no
    unseen card of their suit beats: tricks to come), and that empty the shortest plain
    suits first (void in a suit, the seat may trump it, G6). Read from the seat's own
    cards and the public ones only."""
    dukal = state.dukal
    if dukal is None:
        return []
    trump = state.trump
    hand = state.hands[seat]
    k = dukal.cards.bit_count()
    unseen = unseen_by(state, seat)
    spares = []
    courts = hand & hand >> 1 & MANTRI_BITS
    if courts:
        spares.append(sum(hand & SUIT_MASK[SUIT_OF[c]] for c in bit_list(courts)))
    bosses = sum(1 << c for c in bit_list(hand) if SUIT_OF[c] != trump and boss(c, trump, unseen))
    spares.append(bosses | hand & SUIT_MASK[trump])
    emptied = _short_suits(hand, k, trump)
    if emptied:
        spares.append(hand & ~emptied)
    moves = []
    for spared in spares:
        m = Move(seat, "discard", cards=cheapest_cards(hand, k, trump, spared))
        if m not in moves:
            moves.append(m)
    return moves


def _short_suits(hand: int, k: int, trump: int) -> int:
    """The hand's shortest plain suits (ties: the cheaper suit), as many whole as k cards
    hold."""
    plain = sorted((s for s in range(SUIT_COUNT) if s != trump and hand & SUIT_MASK[s]),
                   key=lambda s: ((hand & SUIT_MASK[s]).bit_count(),
                                  max(cost(c, trump) for c in bit_list(hand & SUIT_MASK[s]))))
    emptied = 0
    for s in plain:
        suit = hand & SUIT_MASK[s]
        if (emptied | suit).bit_count() > k:
            break
        emptied |= suit
    return emptied


# The compiled core's playouts per millisecond of budget from a fresh deal, about half of
# what one core runs, and their overhead (drawing the world under the reading, the root
# move) in cards' worth (bench/README.md, "AI speed").
CORE_RATE = 150.0
CORE_FIXED = 24

# The Python search, where the core is not built: basic's exact play in the playouts (no
# random moves: basic's play is deterministic in a world, the sampled worlds already
# differ, and random moves would only blur the comparison of candidates on the same
# world); with a trick on the table a world is drawn until basic's play explains it (at
# most 8 draws, a draw and its test costing about 2/3 of a playout); a playout's cost
# beside its cards (drawing the world, the root move, the settlement) in cards' worth;
# `rate` 0.5: CPU p50 / p90 / max 35 / 78 / 87 ms a searched move (0.7: 43 / 110 / 121).
SETTINGS = Settings(basic=basic_move, value=value, rate=0.5, epsilon=0.0, fixed_cost=24,
                    play_class=play_class, model=ganjifa_search.modelled, draw=ganjifa_search.draw,
                    propose=discard_options,
                    explain=Explain(tries=ganjifa_search.TRIES, cost=3,
                                    sample=ganjifa_search.sample,
                                    applies=ganjifa_search.trick_on_table),
                    core=Core(covers=ganjifa_search.covers, search=ganjifa_search.search,
                              rate=CORE_RATE, fixed_cost=CORE_FIXED))
