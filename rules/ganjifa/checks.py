"""A state given as fields, checked one rule block at a time: the piles (G1), the lead
(G5, G7), the trick (G6), a pending Dukal (G8) and the hands' sizes (G4)."""

from __future__ import annotations

from rules.cards import mask_of
from rules.game import Problem, conservation_problems, placed
from rules.ganjifa.cards import DECK, PLAYERS, RAJAS, SUIT_MASK, SUIT_OF, SUITS
from rules.ganjifa.dukal import dukal_flaw
from rules.ganjifa.tricks import void_options

# -- the checks of a state given as fields, one rule block each ---------------------------
# A play is (seat, card); a Dukal {"seat", "cards", "discards": [(seat, cards)]}; a
# completed trick ([3 plays], winner). Each check returns its problems.

Plays = list[tuple[int, int]]


def revoke_problem(path: str, seat: int, held: int, led: int, card: int, trump: int
                   ) -> Problem | None:
    """G6: `seat`, holding `held` beside `card`, could not follow a trick led in suit `led`
    with `card`; None if it could."""
    if SUIT_OF[card] == led:
        return None
    values = {"seat": seat, "suit": SUITS[led], "card": DECK.codes[card]}
    if held & SUIT_MASK[led]:
        return Problem(path, "ganjifa_revoke_follow", values)
    if not void_options(held | 1 << card, led, trump) >> card & 1:
        return Problem(path, "ganjifa_revoke_next_suit", values)
    return None


def dukal_problems(path: str, seat: int, cards: list[int],
                   discards: list[tuple[int, list[int]]]) -> list[Problem]:
    """G8 for the Dukal at `path`, led by `seat`, and its answers so far: a Dukal, answered
    in turn order from the leader's left, each answer exactly k cards."""
    problems = []
    k = len(cards)
    flaw = dukal_flaw(mask_of(cards))
    if flaw:
        problems.append(Problem(f"{path}.cards", "ganjifa_not_dukal", flaw))
    for j, (answer, given) in enumerate(discards):
        expected = (seat + 1 + j) % PLAYERS
        if answer != expected:
            problems.append(Problem(f"{path}.discards.{j}.seat", "ganjifa_answer_turn", {
                "answer": j, "seat": seat, "expected": expected, "given": answer}))
        if len(given) != k:
            problems.append(Problem(f"{path}.discards.{j}.cards", "ganjifa_answer_size",
                                    {"count": k, "given": len(given)}))
    return problems


def pile_problems(hands: list[list[int]], captured: list[list[int]], trick: Plays,
                  dukal: dict | None) -> list[Problem]:
    """G1: every card once across the piles; G7, G8: captures come in threes."""
    def places() -> list[tuple[str, int]]:
        out = []
        for s in range(PLAYERS):
            out += placed(f"hands.{s}", hands[s])
        for s in range(PLAYERS):
            out += placed(f"captured.{s}", captured[s])
        out += [(f"trick.{i}.card", c) for i, (_, c) in enumerate(trick)]
        if dukal is not None:
            out += placed("dukal.cards", dukal["cards"])
            for j, (_, cards) in enumerate(dukal["discards"]):
                out += placed(f"dukal.discards.{j}.cards", cards)
        return out

    piles = [*hands, *captured, [c for _, c in trick]]
    if dukal is not None:
        piles += [dukal["cards"], *(cards for _, cards in dukal["discards"])]
    problems = conservation_problems(DECK, piles, places)
    for s in range(PLAYERS):
        if len(captured[s]) % 3:
            problems.append(Problem(f"captured.{s}", "ganjifa_captured_threes",
                                    {"count": len(captured[s])}))
    return problems


def lead_problems(trump: int, masks: list[int], captured: list[list[int]], leader: int,
                  trick: Plays, dukal: dict | None) -> list[Problem]:
    """G5: the holder of the trump Raja opens with it, and no Dukal opens; G7, G8: after
    the opening, the leader has won a trick or a Dukal."""
    problems = []
    codes = DECK.codes
    raja = RAJAS[trump]
    if any(captured):
        if not captured[leader]:
            problems.append(Problem("leader", "ganjifa_leader_captured_nothing",
                                    {"seat": leader}))
        # G5, G7: the trump Raja opens the deal and, the highest trump, wins that trick:
        # once anything is captured, so is it.
        if not any(raja in pile for pile in captured):
            problems.append(Problem("captured", "ganjifa_raja_not_captured",
                                    {"raja": codes[raja]}))
        return problems
    if dukal is not None:
        problems.append(Problem("dukal", "ganjifa_dukal_opening"))
    elif trick:
        if trick[0][1] != raja:
            problems.append(Problem("trick.0.card", "ganjifa_opening_raja",
                                    {"raja": codes[raja], "card": codes[trick[0][1]]}))
    else:
        holder = next((s for s in range(PLAYERS) if masks[s] >> raja & 1), None)
        if holder is not None and holder != leader:
            problems.append(Problem("leader", "ganjifa_opener", {
                "holder": holder, "raja": codes[raja], "seat": leader}))
    return problems


def trick_problems(trump: int, masks: list[int], leader: int, trick: Plays,
                   dukal: dict | None) -> list[Problem]:
    """G6: the trick in progress played in turn and followed as the hands allow; G7: two
    cards at most; G8: none while a Dukal waits."""
    problems = []
    if len(trick) >= PLAYERS:
        problems.append(Problem("trick", "ganjifa_trick_full"))
    if trick and dukal is not None:
        problems.append(Problem("trick", "ganjifa_trick_during_dukal"))
    for i, (seat, card) in enumerate(trick):
        expected = (leader + i) % PLAYERS
        if seat != expected:
            problems.append(Problem(f"trick.{i}.seat", "ganjifa_play_turn", {
                "play": i, "leader": leader, "expected": expected, "seat": seat}))
        elif i:
            revoke = revoke_problem(f"trick.{i}.card", seat, masks[seat],
                                    SUIT_OF[trick[0][1]], card, trump)
            if revoke:
                problems.append(revoke)
    return problems


def _given_since_lead(leader: int, trick: Plays, dukal: dict | None
                      ) -> tuple[list[int], int | None]:
    """The cards each hand has given since the current lead, and the seat to answer."""
    given = [0, 0, 0]
    if dukal is not None:
        d, k, discards = dukal["seat"], len(dukal["cards"]), dukal["discards"]
        given[d] = k
        for j in range(len(discards)):
            given[(d + 1 + j) % PLAYERS] = k
        if len(discards) < PLAYERS - 1:
            return given, (d + 1 + len(discards)) % PLAYERS
        return given, None
    if len(trick) >= PLAYERS:
        return given, None
    for i in range(len(trick)):
        given[(leader + i) % PLAYERS] = 1
    return given, (leader + len(trick)) % PLAYERS


def pending_dukal_problems(hands: list[list[int]], leader: int, dukal: dict | None
                           ) -> list[Problem]:
    """G8: the Dukal waiting for its answers is the leader's, a Dukal, no larger than an
    opponent's hand, and answered by one opponent at most."""
    if dukal is None:
        return []
    d, cards, discards = dukal["seat"], dukal["cards"], dukal["discards"]
    problems = []
    if d != leader:
        problems.append(Problem("dukal.seat", "ganjifa_dukal_seat", {"leader": leader}))
    problems += dukal_problems("dukal", d, cards, discards)
    if len(discards) >= PLAYERS - 1:
        problems.append(Problem("dukal.discards", "ganjifa_dukal_answered"))
    given, _ = _given_since_lead(leader, [], dukal)
    for s in range(PLAYERS):
        held = len(hands[s]) + given[s]
        if s != d and len(cards) > held:
            problems.append(Problem("dukal.cards", "ganjifa_dukal_larger",
                                    {"count": len(cards), "seat": s, "held": held}))
    return problems


def hand_size_problems(hands: list[list[int]], leader: int, trick: Plays,
                       dukal: dict | None) -> list[Problem]:
    """G4: equal hands at every lead; a trick takes one card, a Dukal k from each hand."""
    given, answering = _given_since_lead(leader, trick, dukal)
    if answering is None:
        return []
    fresh = len(hands[answering]) + given[answering]
    return [Problem(f"hands.{s}", "ganjifa_hand_size", {
                "seat": s, "count": len(hands[s]), "expected": fresh - given[s]})
            for s in range(PLAYERS) if len(hands[s]) != fresh - given[s]]
