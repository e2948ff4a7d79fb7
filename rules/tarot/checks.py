"""The checks of a state given as fields, one rule block each; each returns its problems.
A play is (seat, card); a completed trick (plays, winner); a poignée (seat, cards)."""

from __future__ import annotations

from rules.cards import mask_of
from rules.game import Problem, conservation_problems, placed
from rules.tarot.bidding import BID_RANK, BIDS, CHIEN_TAKEN
from rules.tarot.call import CALLING, callable_cards
from rules.tarot.cards import DECK, EXCUSE_BIT, TRUMPS
from rules.tarot.deal import COUNTS, Count, petit_sec
from rules.tarot.poignee import poignee_problem
from rules.tarot.tricks import follow_reason, opening_reason, trick_winner

Plays = list[tuple[int, int]]
Tricks = list[tuple[Plays, int]]


def pile_problems(hands: list[list[int]], chien: list[int], ecart: list[int], trick: Plays,
                  tricks: Tricks) -> list[Problem]:
    """T1: all 78 cards exactly once across the piles."""
    def places() -> list[tuple[str, int]]:
        out = [p for s in range(len(hands)) for p in placed(f"hands.{s}", hands[s])]
        out += placed("chien", chien) + placed("ecart", ecart)
        out += [(f"trick.{j}.card", c) for j, (_, c) in enumerate(trick)]
        for k, (plays, _) in enumerate(tricks):
            out += [(f"tricks.{k}.cards.{j}.card", c) for j, (_, c) in enumerate(plays)]
        return out

    piles = [*hands, chien, ecart, [c for _, c in trick],
             *([c for _, c in plays] for plays, _ in tricks)]
    return conservation_problems(DECK, piles, places)


def seat_problems(players: int, dealer: int, trick: Plays, tricks: Tricks,
                  poignees: list) -> list[Problem]:
    """T18: every seat named is one of the deal's (the schema bounds them by the largest
    count)."""
    seats = [("dealer", dealer)]
    seats += [(f"trick.{j}.seat", s) for j, (s, _) in enumerate(trick)]
    for k, (plays, winner) in enumerate(tricks):
        seats += [(f"tricks.{k}.cards.{j}.seat", s) for j, (s, _) in enumerate(plays)]
        seats.append((f"tricks.{k}.winner", winner))
    seats += [(f"poignees.{i}.seat", s) for i, (s, _) in enumerate(poignees)]
    return [Problem(path, "tarot_seat", {"seat": s, "players": players})
            for path, s in seats if s >= players]


def bidding_problems(bids: list[str], players: int) -> list[Problem]:
    """T4: one bid per seat, each contract above every earlier one."""
    problems = []
    if len(bids) > players:
        problems.append(Problem("bids", "tarot_bid_count", {"count": len(bids)}))
    highest = 0
    for i, b in enumerate(bids[:players]):
        rank = BID_RANK[b]
        if rank and rank <= highest:
            problems.append(Problem(f"bids.{i}", "tarot_bid_low",
                                    {"bid": b, "highest": BIDS[highest]}))
        highest = max(highest, rank)
    return problems


def first_leader(dealer: int, taker: int | None, chelem: bool | None, players: int) -> int:
    """T7: the seat after the dealer leads the first trick, the taker when it announced a
    chelem."""
    return taker if chelem and taker is not None else (dealer + 1) % players


def trick_problems(leader: int, taker: int | None, partner: int | None, trick: Plays,
                   tricks: Tricks, players: int) -> list[Problem]:
    """T9: one trick a card of a hand, one card from each seat; T2, T10: each played in
    turn from its leader, the last winner; T10, T12: each won by the seat the rules say."""
    problems = []
    winners: list[int] = []
    if len(tricks) > COUNTS[players].hand:
        problems.append(Problem("tricks", "tarot_trick_count", {"count": len(tricks)}))
    for k, (plays, winner) in enumerate(tricks):
        path = f"tricks.{k}.cards"
        if len(plays) != players:
            problems.append(Problem(path, "tarot_trick_size", {"count": len(plays)}))
        problems += turn_problems(path, plays, leader, players)
        if len(plays) == players:
            right = trick_winner(tuple(c for _, c in plays), leader, taker, winners, partner,
                                 players)
            if winner != right:
                problems.append(Problem(f"tricks.{k}.winner", "tarot_trick_winner",
                                        {"winner": right, "given": winner}))
        winners.append(winner)
        leader = winner
    if len(trick) >= players:
        problems.append(Problem("trick", "tarot_trick_open_size", {"count": len(trick)}))
    if trick and len(tricks) >= COUNTS[players].hand:
        problems.append(Problem("trick", "tarot_trick_after_last"))
    problems += turn_problems("trick", trick, leader, players)
    return problems


def turn_problems(path: str, plays: Plays, leader: int, players: int) -> list[Problem]:
    """T2, T10: each card of a trick in turn from the trick's leader."""
    return [Problem(f"{path}.{j}.seat", "tarot_play_turn",
                    {"seat": seat, "expected": (leader + j) % players})
            for j, (seat, _) in enumerate(plays) if seat != (leader + j) % players]


def stage_of(contract: str | None, called: int | None, players: int, chelem: bool | None,
             ecart: list[int]) -> str:
    """The stage of the deal that the piles must fit: bidding until there is a taker, the
    call with 5 players (T22), then the discard (T5, in a prise or garde), the chelem
    decision (T7), the play."""
    if contract is None:
        return "bidding"
    if players == CALLING and called is None:
        return "call"
    if contract in CHIEN_TAKEN and not ecart:
        return "discard"
    return "chelem" if chelem is None else "play"


def call_problems(players: int, stage: str, called: int | None, taker_dealt: int
                  ) -> list[Problem]:
    """T22: a call only with five players and after the bidding, of a card callable from the
    taker's hand as it was dealt."""
    if called is None:
        return []
    if players != CALLING:
        return [Problem("called", "tarot_called_players", {"players": players})]
    if stage == "bidding":
        return [Problem("called", "tarot_called_early")]
    if not callable_cards(taker_dealt) >> called & 1:
        return [Problem("called", "tarot_called_not_callable", {"card": DECK.codes[called]})]
    return []


def chelem_problems(stage: str, chelem: bool | None, poignees: list, trick: Plays,
                    tricks: Tricks) -> list[Problem]:
    """T7: the taker decides on a chelem after the discard (or the bidding, in a garde sans
    or contre; after the call with 5 players), and play starts only then."""
    problems = []
    if chelem is not None and stage in ("bidding", "call", "discard"):
        problems.append(Problem("chelem", "tarot_chelem_early"))
    if stage != "play":
        for field, value in (("poignees", poignees), ("trick", trick), ("tricks", tricks)):
            if value:
                problems.append(Problem(field, "tarot_play_early"))
    return problems


def hand_size_problems(stage: str, taker: int | None, hands: list[list[int]],
                       played_count: list[int], count: Count) -> list[Problem]:
    """T2, T19, T5, T9: a hand's cards less those played; the taker holds the chien too
    while discarding."""
    problems = []
    for s in range(count.players):
        want = count.hand - played_count[s]
        if stage == "discard" and s == taker:
            want += count.chien
        if len(hands[s]) != want:
            problems.append(Problem(f"hands.{s}", "tarot_hand_size", {
                "seat": s, "count": len(hands[s]), "expected": want, "stage": stage}))
    return problems


def poignee_problems(poignees: list[tuple[int, list[int]]], held: list[int],
                     ecart_trumps: int, taker: int | None, played_count: list[int],
                     first_trick: bool, to_act: int) -> list[Problem]:
    """T8, T21: each poignée valid for what the seat held (its hand and plays, the taker's
    écart trumps too), once per seat, and only once the seat came to its first card."""
    problems = []
    declared = set()
    for i, (seat, cards) in enumerate(poignees):
        if seat in declared:
            problems.append(Problem(f"poignees.{i}.seat", "tarot_poignee_twice",
                                    {"seat": seat}))
        declared.add(seat)
        pool = held[seat] & TRUMPS | (ecart_trumps if seat == taker else 0)
        flaw = poignee_problem(cards, pool, bool(held[seat] & EXCUSE_BIT), len(held))
        if flaw:
            problems.append(Problem(f"poignees.{i}.cards", "tarot_poignee_invalid", flaw))
        if not played_count[seat] and not (first_trick and seat == to_act):
            problems.append(Problem(f"poignees.{i}.seat", "tarot_poignee_early",
                                    {"seat": seat}))
    return problems


def dealt_hands(held: list[int], taker: int | None, chien_taken: bool, ecart: int,
                chien_shown: int) -> list[int]:
    """Each seat's dealt cards: what it holds and played, and for a taker who took the
    chien, its écart in and the chien out (T2, T5)."""
    dealt = list(held)
    if taker is not None and chien_taken:
        dealt[taker] = (dealt[taker] | ecart) & ~chien_shown
    return dealt


def petit_sec_problems(dealt: list[int], annulled_here: bool) -> list[Problem]:
    """T3: a petit sec in a dealt hand annuls the deal before any bid: only a state with
    no bid yet may show one (it is then over)."""
    if annulled_here:
        return []
    return [Problem(f"hands.{s}", "tarot_petit_sec", {"seat": s})
            for s in range(len(dealt)) if petit_sec(dealt[s])]


def follow_problems(hands: tuple[int, ...], trick: Plays, tricks: Tricks,
                    called: int | None) -> list[Problem]:
    """T9: every card replayed against the hand its seat held then; T23: the deal's first
    card against the called card."""
    holding = list(hands)
    plays = [(f"tricks.{k}.cards.{j}.card", j, s, c)
             for k, (cards, _) in enumerate(tricks) for j, (s, c) in enumerate(cards)]
    plays += [(f"trick.{j}.card", j, s, c) for j, (s, c) in enumerate(trick)]
    before = []
    for _, _, s, c in reversed(plays):
        holding[s] |= 1 << c
        before.append(holding[s])
    before.reverse()
    problems = []
    table: list[int] = []
    for n, ((path, j, s, c), hand) in enumerate(zip(plays, before, strict=True)):
        if j == 0:
            table = []
        reason = follow_reason(s, hand, table, c) if n else opening_reason(called, c)
        if reason is not None:
            problems.append(Problem(path, "tarot_play_illegal", {
                "card": DECK.codes[c], "reason": reason.code, **(reason.details or {})}))
        table.append(c)
    return problems


def played(trick: Plays, tricks: Tricks, players: int) -> tuple[list[int], list[int]]:
    """Each seat's played cards (a mask) and their count."""
    masks, counts = [0] * players, [0] * players
    for plays in (*(p for p, _ in tricks), trick):
        for seat, c in plays:
            masks[seat] |= 1 << c
            counts[seat] += 1
    return masks, counts


def mask_list(piles) -> tuple[int, ...]:
    return tuple(mask_of(p) for p in piles)
