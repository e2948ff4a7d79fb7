"""A state's history of completed tricks and captured Dukals, checked against the rules
(G6, G7, G8) and read into the tricks, Dukals and shown voids a state keeps."""

from __future__ import annotations

from rules.cards import mask_of
from rules.game import Problem
from rules.ganjifa.cards import DECK, PLAYERS, RAJAS, SUIT_OF
from rules.ganjifa.checks import Plays, dukal_problems, revoke_problem
from rules.ganjifa.state import Dukal
from rules.ganjifa.tricks import _voids_after, trick_winner

# -- the deal's history --------------------------------------------------------------------

Played = tuple[int, tuple[int, ...], int]  # (leader, cards in play order, winner)


def history_tricks(trump: int, tricks: list[tuple[Plays, int]], leader: int
                   ) -> tuple[list[Problem], list[Played]]:
    """The completed tricks: three plays in turn order (G6), the first led with the trump
    Raja (G5), each led by the last one's winner and won as G7 says; and the leader now is
    the last winner."""
    problems = []
    codes = DECK.codes
    played: list[Played] = []
    for i, (plays, winner) in enumerate(tricks):
        path = f"tricks.{i}"
        first = plays[0][0]
        if i == 0 and plays[0][1] != RAJAS[trump]:
            problems.append(Problem(f"{path}.cards.0.card", "ganjifa_opening_raja", {
                "raja": codes[RAJAS[trump]], "card": codes[plays[0][1]]}))
        if played and first != played[-1][2]:
            problems.append(Problem(f"{path}.cards.0.seat", "ganjifa_history_leader", {
                "winner": played[-1][2], "previous": i - 1, "trick": i, "seat": first}))
        for j, (seat, _) in enumerate(plays):
            if seat != (first + j) % PLAYERS:
                problems.append(Problem(f"{path}.cards.{j}.seat", "ganjifa_play_turn", {
                    "play": j, "leader": first, "expected": (first + j) % PLAYERS,
                    "seat": seat}))
        cards = (plays[0][1], plays[1][1], plays[2][1])
        best = trick_winner(trump, first, cards)
        if winner != best:
            problems.append(Problem(f"{path}.winner", "ganjifa_trick_winner",
                                    {"winner": best, "given": winner}))
        played.append((first, cards, best))
    if played and leader != played[-1][2]:
        problems.append(Problem("leader", "ganjifa_last_winner_leads",
                                {"winner": played[-1][2], "seat": leader}))
    return problems, played


def history_dukals(dukals: list[dict], played: list[Played]
                   ) -> tuple[list[Problem], list[Dukal]]:
    """The captured Dukals: each a Dukal (G8) led by a seat that had won a trick, so that it
    led (G5, G8), and answered by both opponents."""
    problems = []
    leaders = {w for _, _, w in played}
    captures = []
    for i, entry in enumerate(dukals):
        path = f"dukals.{i}"
        seat, cards, discards = entry["seat"], entry["cards"], entry["discards"]
        if seat not in leaders:
            problems.append(Problem(f"{path}.seat", "ganjifa_dukal_leader_won_nothing",
                                    {"seat": seat}))
        problems += dukal_problems(path, seat, cards, discards)
        if len(discards) != PLAYERS - 1:
            problems.append(Problem(f"{path}.discards", "ganjifa_dukal_unanswered"))
        captures.append(Dukal(seat, mask_of(cards),
                              tuple(mask_of(given) for _, given in discards)))
    return problems, captures


def history_pile_problems(captured: list[list[int]], played: list[Played],
                          dukals: list[dict]) -> list[Problem]:
    """G1, G7, G8: the tricks and Dukals are exactly the captured cards, each once and in
    its winner's pile."""
    won = [0, 0, 0]
    count = 0
    for _, (a, b, c), winner in played:
        won[winner] |= 1 << a | 1 << b | 1 << c
        count += 3
    for entry in dukals:
        for cards in (entry["cards"], *(given for _, given in entry["discards"])):
            won[entry["seat"]] |= mask_of(cards)
            count += len(cards)
    problems = []
    for s in range(PLAYERS):
        pile = mask_of(captured[s])
        if pile != won[s]:
            problems.append(Problem(f"captured.{s}", "ganjifa_captured_pile", {
                "seat": s, "extra": (pile & ~won[s]).bit_count(),
                "missing": (won[s] & ~pile).bit_count()}))
    if count != (won[0] | won[1] | won[2]).bit_count():
        problems.append(Problem("tricks", "ganjifa_history_twice"))
    return problems


def history_revokes(trump: int, masks: list[int], trick: Plays, dukal: dict | None,
                    played: list[Played], captures: list[Dukal]) -> list[Problem]:
    """G6 backwards: a follower who did not follow suit must not hold the led suit later,
    nor a suit it had to play before the one it played. What a seat held at a trick is
    known in part: its hand now and what it played in later tricks, the trick in progress
    and the pending Dukal; and a captured Dukal's cards, at every trick up to its leader's
    first won one, since only a leader leads a Dukal (G8). A revoke is reported only when
    certain."""
    later = list(masks)
    for seat, card in trick:
        later[seat] |= 1 << card
    if dukal is not None:
        later[dukal["seat"]] |= mask_of(dukal["cards"])
        for seat, given in dukal["discards"]:
            later[seat] |= mask_of(given)
    first_win: dict[int, int] = {}
    for i, (_, _, winner) in enumerate(played):
        first_win.setdefault(winner, i)
    early = sorted(((first_win[d.seat], (d.seat + j) % PLAYERS, m)
                    for d in captures if d.seat in first_win
                    for j, m in enumerate((d.cards, *d.discards))), reverse=True)
    problems = []
    for i in range(len(played) - 1, -1, -1):
        while early and early[0][0] >= i:
            _, seat, mask = early.pop(0)
            later[seat] |= mask
        first, cards, _ = played[i]
        led = SUIT_OF[cards[0]]
        for j in (1, 2):
            seat = (first + j) % PLAYERS
            revoke = revoke_problem(f"tricks.{i}.cards.{j}.card", seat, later[seat], led,
                                    cards[j], trump)
            if revoke:
                problems.append(revoke)
        for j in range(PLAYERS):
            later[(first + j) % PLAYERS] |= 1 << cards[j]
    return problems


def history_of(trump: int, masks: list[int], captured: list[list[int]], leader: int,
               trick: Plays, dukal: dict | None, tricks: list | None, dukals: list | None
               ) -> tuple[list[Problem], tuple]:
    """The deal's history given with a state, checked against the rules and the state: its
    problems, and (tricks, dukals, voids) for GanjifaState."""
    if tricks is None or dukals is None:
        given, absent = ("tricks", "dukals") if dukals is None else ("dukals", "tricks")
        return [Problem(absent, "ganjifa_history_half", {"given": given, "absent": absent})], \
            (None, None, (0, 0, 0))
    problems, played = history_tricks(trump, tricks, leader)
    found, captures = history_dukals(dukals, played)
    problems += found
    problems += history_pile_problems(captured, played, dukals)
    problems += history_revokes(trump, masks, trick, dukal, played, captures)
    voids: tuple[int, ...] = (0, 0, 0)
    for first, (a, b, c), _ in played:
        voids = _voids_after(voids, trump, first, a, b, c)
    return problems, (tuple(played), tuple(captures), voids)
