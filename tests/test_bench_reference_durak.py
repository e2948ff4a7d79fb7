"""The outside Durak players of bench/reference_durak.py play as their sources describe
them: the durak-analysis expert, one test a rule of its README, and the thesis's MCTS
(its greedy playout, samples, iterations, UCT rewards and vote). Nothing here is timed."""

from __future__ import annotations

import math
import random

import pytest

from bench import reference_durak as rd
from bench.durak_positions import Bits
from rules.durak import ALL, GAME, RANK_OF, SUIT_OF, named
from rules.game import Move

IX = ALL.index


def position(trump: str, mine: str, theirs: str, *, stock: int = 0, turned: str = "",
             table: tuple[tuple[str, str | None], ...] = (), attacker: int = 0,
             taking: bool = False, transfer: bool = False, discard_first: bool = True):
    """A two-player state with seat 0's hand `mine` and seat 1's `theirs` (codes), the
    table's (attack, defence) pairs, a stock of `stock` cards with `turned` at its bottom;
    every other card in the discard pile (or, with `discard_first` false, the stock's
    other cards taken from the other end of the unused ones)."""
    rest = unused(mine, theirs, table, turned if stock else "", discard_first)
    hidden = rest[:max(0, stock - 1)]
    discard = rest[len(hidden):]
    hands = [[IX[c] for c in mine.split()], [IX[c] for c in theirs.split()]]
    if len(discard) % 2:  # D11: whole bouts only; the odd card goes to the other hand
        hands[1].append(IX[discard.pop()])
    return GAME.build(trump=trump, hands=hands,
                      stock=[IX[c] for c in hidden] + ([IX[turned]] if stock else []),
                      discard=[IX[c] for c in discard], attacker=attacker,
                      table=[(IX[a], IX[d] if d else None) for a, d in table],
                      taking=taking, transfer=transfer)


def unused(mine: str, theirs: str, table, turned: str, discard_first: bool) -> list[str]:
    """The 36-card deck's cards that neither hand, the table nor the turned-up card holds,
    in deck order (reversed without `discard_first`)."""
    used = set(mine.split()) | set(theirs.split()) | {c for p in table for c in p if c}
    rest = [c for c in ALL.codes[:36] if c not in used and c != turned]
    return rest if discard_first else rest[::-1]


def expert(state) -> Move:
    seat = named(state).to_act
    return rd.expert_durak(GAME, GAME.observe(state, seat), random.Random(0))


def card(move: Move) -> str | None:
    return None if move.card is None else ALL.codes[move.card]


# -- the expert: the README's Beginner, then one test a strategy ----------------------------

def test_expert_beats_with_the_lowest_of_the_suit_else_the_lowest_trump_else_takes():
    other = "6C 7C 8C"
    assert card(expert(position("H", "10S KS 7H 8D", other, table=(("9S", None),),
                                attacker=1))) == "10S"
    assert card(expert(position("H", "10S 7H JH 8D", other, table=(("9D", None),),
                                attacker=1))) == "7H"
    # No diamond beats the ace: the lowest trump does.
    assert card(expert(position("H", "10S JH 7H 8D", other, table=(("AD", None),),
                                attacker=1))) == "7H"
    assert expert(position("H", "10S 8D", other, table=(("AS", None),),
                           attacker=1)).action == "take"


def test_expert_attacks_and_adds_its_lowest_plain_card():
    assert card(expert(position("H", "7H 9S 8D QC", "6C 7C"))) == "8D"
    assert card(expert(position("H", "10D 8H QS", "6C 7C",
                                table=(("8S", "10S"),)))) == "10D"


def test_expert_reverses_with_a_plain_card_of_the_attacks_rank():
    state = position("H", "9D 9H 10S JS QS KS", "6C 7C 8C 10C JC QC", stock=6,
                     turned="6H", table=(("9S", None),), attacker=1, transfer=True)
    assert any(m.action == "transfer" for m in GAME.legal_moves(state))
    assert expert(state) == Move(0, "transfer", card=IX["9D"])


@pytest.mark.parametrize(("stock", "hand", "played"), [
    (13, "6S 7H 8H 9D 10D JD", None),  # more than 12: no trump beats, take
    (13, "10S 7H 8H 9D 10D JD", "10S"),  # a plain card still beats
    (12, "6S 7H 8H 9D 10D JD", "7H"),  # from 12 down, the lowest trump
])
def test_expert_keeps_its_trumps_while_more_than_12_cards_are_in_the_stock(stock, hand,
                                                                           played):
    state = position("H", hand, "6C 7C 8C 10C JC QC", stock=stock, turned="AH",
                     table=(("9S", None),), attacker=1)
    move = expert(state)
    assert card(move) == played and move.action == ("take" if played is None else "defend")


@pytest.mark.parametrize(("stock", "hand", "played"), [
    (10, "6S JH 8D 9D 10D JD", None),  # a lone high trump kept
    (10, "6S 7H 8D 9D 10D JD", "7H"),  # a lone low one spent
    (10, "6S JH 7H 9D 10D JD", "7H"),  # two trumps: the lower spent
    (10, "6S JH QH 9D 10D JD", "JH"),  # two high trumps: one spent
    (9, "6S JH 8D 9D 10D JD", "JH"),  # 9 cards or fewer: spent
])
def test_expert_keeps_a_lone_high_trump_while_more_than_9_cards_are_in_the_stock(
        stock, hand, played):
    state = position("H", hand, "6C 7C 8C 10C JC QC", stock=stock, turned="AH",
                     table=(("9S", None),), attacker=1)
    move = expert(state)
    assert card(move) == played and move.action == ("take" if played is None else "defend")


@pytest.mark.parametrize(("stock", "action"), [(7, "take"), (6, "defend")])
def test_expert_takes_a_trump_attack_while_more_than_6_cards_are_in_the_stock(stock,
                                                                            action):
    state = position("H", "9H 10H 6S 7S 8D 9D", "6C 7C 8C 10C JC QC", stock=stock,
                     turned="AH", table=(("7H", None),), attacker=1)
    assert expert(state).action == action


@pytest.mark.parametrize(("stock", "played"), [(5, None), (4, "8H")])
def test_expert_adds_no_trump_while_more_than_4_cards_are_in_the_stock(stock, played):
    state = position("H", "8H 10H 6D 7D QC", "6C 7C 8C 10C JC", stock=stock, turned="AH",
                     table=(("8S", "10S"),))
    move = expert(state)
    assert card(move) == played and move.action == ("pass" if played is None else "attack")


def test_expert_leads_its_lowest_plain_card_before_a_lower_trump_while_the_stock_lasts():
    assert card(expert(position("H", "6H 7H 9S JD QD KC", "6C 7C 8C 10C JC QC",
                                stock=8, turned="AH"))) == "9S"
    # Only trumps: one must be led (D6), the lowest.
    assert card(expert(position("H", "6H 7H 9H JH QH KH", "6C 7C 8C 10C JC QC",
                                stock=8, turned="AH"))) == "6H"


@pytest.mark.parametrize(("stock", "played"), [(2, "9H"), (3, "10S")])
def test_expert_beats_with_the_trump_of_the_attacks_rank_at_two_cards_in_the_stock(
        stock, played):
    state = position("H", "10S 9H 7D 8D JD QD", "6C 7C 8C 10C JC QC", stock=stock,
                     turned="AH", table=(("9S", None),), attacker=1)
    assert expert(state) == Move(0, "defend", card=IX[played])


@pytest.mark.parametrize(("stock", "hand", "table", "played"), [
    (2, "7S 9D 9C JS KD QS", (), "9D"),  # the lowest rank held twice, before the 7
    (2, "7S 8H 8C JS KD QS", (), "8C"),  # a trump counts in the double; its plain card first
    (2, "7S 8D 8S JS QS", (("7C", "8C"),), "8S"),  # five cards in hand
    (2, "7S 8D 8S JS", (("7C", "8C"), ("7D", "9D")), "7S"),  # four: the lowest plain card
    (3, "7S 9D 9C JS KD QS", (), "7S"),  # three in the stock and no pair on the table
    (3, "7D 10D 10S QS KS", (("7C", "10C"),), "10S"),  # three, with a pair on the table
    (0, "7S 9D 9C JS KD", (), "9D"),
])
def test_expert_attacks_with_doubles_at_the_end(stock, hand, table, played):
    state = position("H", hand, "AS AD AC KC QC JC", stock=stock, turned="AH",
                     table=table)
    assert expert(state) == Move(0, "attack", card=IX[played])


@pytest.mark.parametrize(("hand", "played"), [
    ("AH 6S", "AH"), ("AH KH 6S", "KH"), ("AH 6S 7S", "6S"), ("KH 6S", "6S")])
def test_expert_gives_the_trump_ace_first_at_the_end(hand, played):
    state = position("H", hand, "6C 7C 8C")
    assert expert(state) == Move(0, "attack", card=IX[played])


def test_expert_remembers_no_card():
    """Two deals alike in all the expert's README lets it see (its hand, the table, the
    trump, the stock's count) but the cards already beaten off: the same move."""
    for discard_first in (True, False):
        state = position("H", "8H 10H 6D 7D QC", "6C 7C 8C 10C JC", stock=5, turned="AH",
                         table=(("8S", "10S"),), discard_first=discard_first)
        assert expert(state) == Move(0, "pass")
    moves = {expert(position("H", "7S 9D 9C JS KD QS", "6C 7C 8C 10C JC AC", stock=2,
                             turned="AH", discard_first=d)) for d in (True, False)}
    assert len(moves) == 1


# -- the thesis's MCTS ------------------------------------------------------------------

def thesis_greedy(state) -> Move:
    """Figure 4.2 of the thesis on the rules' own states: the lowest-valued card (trumps
    above every plain card), pass or take when no card may be played, and with only
    trumps to add to a bout under way while the stock lasts, pass."""
    state = named(state)
    trump, seat = state.trump, state.to_act
    legal = [m for m in GAME.legal_moves(state) if m.seat == seat]
    cards = [m for m in legal if m.card is not None]
    if not cards:
        return legal[0]
    lowest = min(cards, key=lambda m: (SUIT_OF[m.card] == trump, RANK_OF[m.card], m.card))
    if (SUIT_OF[lowest.card] == trump and state.phase == "attack" and state.table
            and state.stock):
        return Move(seat, "pass")
    return lowest


def positions(deals: int, steps: int = 40):
    """States along seeded two-player deals, played at random."""
    for seed in range(deals):
        rng = random.Random(seed)
        state = GAME.deal(rng)
        for _ in range(rng.randrange(steps)):
            if GAME.to_act(state) is None:
                break
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        if GAME.to_act(state) is not None:
            yield state


def test_D1_D15_mcts_playouts_are_the_theses_greedy_play_on_the_rules():
    outcomes = set()
    for state in positions(300):
        shape = Bits(named(state).trump)
        fast = rd.greedy_playout(shape.position(state), shape.o)
        while GAME.to_act(state) is not None:
            state = GAME.apply(state, thesis_greedy(state))
        scores = GAME.settlement(state)["scores"]
        assert fast == (scores[0] + 1) / 2
        outcomes.add(fast)
    assert outcomes == {0.0, 0.5, 1.0}  # draws among them, worth a half


def test_mcts_searches_30_worlds_of_33_iterations_then_990_on_the_end_games_one(monkeypatch):
    runs: list[int] = []

    def search(shape, pos, iterations):
        runs.append(iterations)
        return 0

    monkeypatch.setattr(rd, "uct_search", search)
    early = position("H", "6S 7S 8S 9D 10D JD", "6C 7C 8C 10C JC QC", stock=1,
                     turned="AH")  # only the turned-up card left: still the early game
    rd.mcts_durak(GAME, GAME.observe(early, 0), random.Random(0))
    assert runs == [33] * 30
    runs.clear()
    end = position("H", "6S 7S 8S 9D", "6C 7C 8C 10C")
    rd.mcts_durak(GAME, GAME.observe(end, 0), random.Random(0))
    assert runs == [990]


def test_mcts_plays_the_move_most_worlds_vote_for_ties_to_the_first(monkeypatch):
    state = position("H", "6S 7S 8S 9D 10D JD", "6C 7C 8C 10C JC QC", stock=8, turned="AH")
    moves = Bits(named(state).trump).root(state)[1]
    for votes, best in (([2] * 16 + [0] * 14, 2), ([1] * 15 + [3] * 15, 1),
                        ([3] * 15 + [1] * 15, 3)):
        sequence = iter(votes)
        monkeypatch.setattr(rd, "uct_search", lambda shape, pos, n: next(sequence))  # noqa: B023
        assert rd.mcts_durak(GAME, GAME.observe(state, 0), random.Random(0)) == moves[best]


def test_mcts_expands_the_first_untried_move_one_playout_an_iteration(monkeypatch):
    state = position("H", "6S 7S 8S 9D 10D JD", "6C 7C 8C 10C JC QC", stock=8, turned="AH")
    shape = Bits(named(state).trump)
    pos = shape.position(state)
    children = shape.children(pos)
    played: list[tuple] = []

    def playout(p, o):
        played.append(p)
        return 0.5

    monkeypatch.setattr(rd, "greedy_playout", playout)
    rd.uct_search(shape, pos, len(children))
    assert played == [after for _, after, _ in children]


@pytest.mark.parametrize("seat", [0, 1])
def test_mcts_picks_the_root_move_of_best_mean_reward_for_the_seat_to_move(monkeypatch,
                                                                          seat):
    attacker_hand, other = "6S 7S 8S 9D 10D JD", "6C 7C 8C 10C JC QC"
    hands = (attacker_hand, other) if seat == 0 else (other, attacker_hand)
    state = position("H", *hands, stock=8, turned="AH", attacker=seat)
    shape = Bits(named(state).trump)
    pos = shape.position(state)
    children = shape.children(pos)
    good_for_seat_0 = children[2][1]  # seat 0's reward 1 after this move, 0 after others
    monkeypatch.setattr(rd, "greedy_playout",
                        lambda p, o: 1.0 if p == good_for_seat_0 else 0.0)
    chosen = rd.uct_search(shape, pos, 200)
    assert (chosen == 2) == (seat == 0)


class TwoArms:
    """A position shape of two root moves, each a line of single moves: the search's
    visits of its root moves are the UCT rule's alone."""

    o = None

    @staticmethod
    def children(p: str) -> list[tuple]:
        if p == "root":
            return [(("attack", 1), "a", 0), (("attack", 2), "b", 0)]
        return [(("pass", 0), p + ".", 0)]

    @staticmethod
    def mover(p: str) -> int:
        return 0


def test_mcts_explores_by_uct_with_the_theses_constant(monkeypatch):
    """UCT = X + 1.40 sqrt(2 ln N(v) / N(v')) (chapters 4 and 5): two root moves worth
    0.6 and 0.5 in every playout share the visits as the rule says."""
    worth = {"a": 0.6, "b": 0.5}
    played = {"a": 0, "b": 0}

    def playout(p, o):
        played[p[0]] += 1
        return worth[p[0]]

    monkeypatch.setattr(rd, "greedy_playout", playout)
    assert rd.uct_search(TwoArms(), "root", 300) == 0
    visits = {"a": 1, "b": 1}
    for n in range(2, 300):
        visits[max(visits, key=lambda k: worth[k] + 1.40 * math.sqrt(
            2 * math.log(n) / visits[k]))] += 1
    assert played == visits
    assert 60 < visits["b"] < visits["a"]


def test_mcts_plays_the_end_games_win_that_its_greedy_playout_throws():
    """The thesis's weakness example (chapter 2): 10H 10S KD against QH QS JC, diamonds
    trumps. Greedy leads the 10H and draws; the king first wins."""
    state = position("D", "10H 10S KD", "QH QS JC")
    shape = Bits(named(state).trump)
    assert rd.greedy_playout(shape.position(state), shape.o) == 0.5
    move = rd.mcts_durak(GAME, GAME.observe(state, 0), random.Random(0))
    assert move == Move(0, "attack", card=IX["KD"])


def test_mcts_reads_only_its_view():
    """Twin deals, the other hand and the stock's order apart: the same move."""
    a = named(position("H", "6S 7S 8S 9D 10D JD", "6C 7C 8C 10C JC QC", stock=8,
                       turned="AH"))
    unseen = [c for c in range(36) if a.hands[1] >> c & 1] + list(a.stock[:-1])
    unseen.reverse()
    b = GAME.build(trump="H", hands=[[c for c in range(36) if a.hands[0] >> c & 1],
                                     unseen[:6]],
                   stock=[*unseen[6:], a.stock[-1]],
                   discard=[c for c in range(36) if a.discard >> c & 1], attacker=0,
                   table=[], taking=False)
    assert named(b).hands[1] != a.hands[1]
    views = [GAME.observe(s, 0) for s in (a, b)]
    assert views[0] == views[1]
    assert (rd.mcts_durak(GAME, views[0], random.Random(5))
            == rd.mcts_durak(GAME, views[1], random.Random(5)))


@pytest.mark.parametrize("level", ["expert", "mcts"])
def test_outside_durak_players_play_only_legal_moves(level):
    player = {"expert": rd.expert_durak, "mcts": rd.mcts_durak}[level]
    for seed in range(40 if level == "expert" else 2):
        state = GAME.deal(random.Random(seed))
        while (seat := GAME.to_act(state)) is not None:
            move = player(GAME, GAME.observe(state, seat), random.Random(seed))
            assert GAME.verify(state, move) is None, (seed, move)
            state = GAME.apply(state, move)


@pytest.mark.parametrize(("options", "seeds"), [({}, 12), ({"cards": 24}, 4), ({"cards": 52}, 3),
                                               ({"first_bout": 5}, 4)])
def test_D1_D16_the_mcts_players_positions_play_the_rules(options, seeds):
    """bench/durak_positions.py's `Bits`, the MCTS player's model, against rules/durak
    along deals of every deck and the short first bout (D16): its moves are the rules'
    moves and each leads to the position the rules reach (mid-bout, taking, cards drawn
    from a stock of several and the turned-up card last: D2, D12, the deal's end: D14)."""
    from bench.durak_positions import Bits
    from rules.ai.durak import basic_move
    from tests.support.durak import apply, deal
    kinds = set()
    for seed in range(seeds):
        state = deal(random.Random(seed), **options)
        rng = random.Random(seed)
        fast = Bits(state.trump)
        while state.to_act is not None:
            position, moves, children = fast.root(state)
            assert sorted(moves) == sorted(GAME.legal_moves(state))
            assert children == fast.children(position)
            for move, child in zip(moves, children, strict=True):
                after = apply(state, move)
                if child[1] is None:
                    assert GAME.settlement(after)["scores"][0] == child[2]
                else:
                    assert fast.root(after)[0] == child[1]
                kinds.add((min(len(state.stock), 2), move.action))
            move = (rng.choice(GAME.legal_moves(state)) if rng.random() < 0.3
                    else basic_move(state, state.to_act, rng))
            state = apply(state, move)
    assert {(2, "pass"), (1, "pass"), (1, "take"), (0, "defend")} <= kinds, kinds
