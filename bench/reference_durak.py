"""Two outside two-player Durak players, written here from their published descriptions
and never tuned against this project's levels. Each is `move(game, view, rng)` and reads
only the acting seat's view.

`expert`: the "Expert" of veniamin-ilmer/durak-analysis (README.md, "Expert Strategies";
its simulation, main.rs, read only to settle a threshold the text leaves vague). It sees
what its README lists (its own hand, the table, the trump and how many cards the stock
holds) and remembers no card played. Its play, rule by rule as the README orders them:

- the plainest card: attack and throw in with the lowest card that is not a trump, the
  lowest trump when only trumps fit; beat with the lowest card of the attack's suit, else
  the lowest trump; take when nothing beats (the README's "Beginner", the base of every
  rule below);
- reverse (pass the attack on, D21, where the deal allows it) with a plain card of the
  attack's rank;
- no trump to defend while more than 12 cards are in the stock: beat with a plain card or
  take;
- no defence with a lone high trump (8 or above, the threshold of main.rs) while more than
  9 cards are in the stock;
- take a trump attack while more than 6 cards are in the stock;
- no trump in attack while more than 4 cards are in the stock: the lowest plain card; in
  a bout already under way with only trumps to add, pass;
- with two cards left in the stock, beat with the trump of the attack's rank (so that the
  attacker cannot draw the turned-up trump);
- doubles at the end: with two cards or fewer in the stock (or three, with a beaten pair
  on the table) and more than four cards in hand, attack with the lowest rank held twice,
  trumps counting, its plain card first;
- the trump ace first at the end: with the stock out and two cards in hand, lead the
  trump ace; with three and the trump king beside the ace, the king.

`mcts`: the determinized Monte Carlo tree search of AzamatZarlykov/Durak-AI, a bachelor
thesis (Thesis/tex, chapters 4 and 5: "Monte Carlo Tree Search Agent", "Closed World
Sampling", the closed-world configuration; the repository's closed-world tournament table
names the iteration count). For each of 30 sampled worlds (the cards the seat has not seen
shuffled into the other hand and the stock, the "ShuffleCopy" of chapter 4), a UCT search
of 33 iterations: select by UCT = X + c sqrt(2 ln N(v) / N(v')) with c = 1.40 (chapter
5's tuned constant), X the child's mean reward for the player choosing there, a win 1 and
a draw 1/2; expand the first untried move; play the rest of the deal out by the thesis's
greedy player (Figure 4.2, below); back the reward up the path. Each world votes for its
root child of highest mean reward (c = 0), and the most voted move is played, ties going
to the move voted first. Once the stock is empty ("end game": the other hand is every card
not seen) one search of 30 x 33 = 990 iterations on that world. The greedy playout: beat
with the lowest-valued card that beats (every trump valued above every plain card, by
rank), take when none does; attack with the lowest-valued card; and with only trumps to
add to a bout under way while the stock lasts, pass. Two players without passing on
(D21), the deals the thesis plays; its iteration counts are fixed, never timed."""

from __future__ import annotations

import math
import random

from bench.durak_positions import Bits, Order, covers
from rules.durak import BOUT_LIMIT, HAND_SIZE, RANK_OF, SUIT_OF, first_unbeaten, named
from rules.durak.cards import ALL_RANKS
from rules.game import Game, Move, View

EIGHT, KING, ACE = (ALL_RANKS.index(r) for r in ("8", "K", "A"))


def own_moves(game: Game, view: View, rng: random.Random) -> list[Move]:
    """The seat's legal moves. They depend only on what it sees, so any world of its view
    lists them (Durak lists no Template)."""
    world = game.sample(view, rng)
    return [m for m in game.legal_moves(world) if isinstance(m, Move) and m.seat == view.seat]


def stock_size(view: View) -> int:
    """The cards left in the stock, the turned-up one among them."""
    return view.hidden[-1] + len(view.public.stock)


def plainest(cards: list[int], trump: int) -> int:
    """The lowest card, any plain card before any trump."""
    return min(cards, key=lambda c: (SUIT_OF[c] == trump, RANK_OF[c], c))


def expert_durak(game: Game, view: View, rng: random.Random) -> Move:
    moves = own_moves(game, view, rng)
    if view.phase == "defend":
        return expert_defence(view, moves)
    return expert_attack(view, moves)


def expert_defence(view: View, moves: list[Move]) -> Move:
    public, seat = view.public, view.seat
    trump, stock = public.trump, stock_size(view)
    attack = public.table[first_unbeaten(public.table)][0]
    take = Move(seat, "take")
    reverse = [c for c in cards_of(moves, "transfer") if SUIT_OF[c] != trump]
    if reverse:
        return Move(seat, "transfer", card=plainest(reverse, trump))
    beats = cards_of(moves, "defend")
    if not beats:
        return take
    if stock == 2:
        matching = trumps_of_rank(beats, trump, RANK_OF[attack])
        if matching:  # keep the turned-up trump from the attacker
            return Move(seat, "defend", card=matching[0])
    if SUIT_OF[attack] == trump and stock > 6:
        return take
    if saving_trumps(public.hands[seat], trump, stock):
        plain = [c for c in beats if SUIT_OF[c] != trump]
        return Move(seat, "defend", card=plainest(plain, trump)) if plain else take
    return Move(seat, "defend", card=plainest(beats, trump))


def trumps_of_rank(cards: list[int], trump: int, rank: int) -> list[int]:
    return [c for c in cards if SUIT_OF[c] == trump and RANK_OF[c] == rank]


def cards_of(moves: list[Move], action: str) -> list[int]:
    return [m.card for m in moves if m.action == action and m.card is not None]


def saving_trumps(hand: int, trump: int, stock: int) -> bool:
    """Early in the deal, or a little later with a lone high trump: beat with plain cards
    only (else take)."""
    held = [c for c in range(52) if hand >> c & 1 and SUIT_OF[c] == trump]
    lone_high = len(held) == 1 and RANK_OF[held[0]] >= EIGHT
    return stock > 12 or (stock > 9 and lone_high)


def expert_attack(view: View, moves: list[Move]) -> Move:
    public, seat = view.public, view.seat
    trump, stock = public.trump, stock_size(view)
    playable = cards_of(moves, "attack")
    passing = Move(seat, "pass")
    if not playable:
        return passing
    hand = [c for c in range(52) if public.hands[seat] >> c & 1]
    if stock == 0:
        high = ace_first(hand, playable, trump)
        if high is not None:
            return Move(seat, "attack", card=high)
    if doubles_time(len(hand), stock, sum(1 + (d >= 0) for _, d in public.table)):
        double = lowest_double(hand, playable, trump)
        if double is not None:
            return Move(seat, "attack", card=double)
    plain = [c for c in playable if SUIT_OF[c] != trump]
    if stock > 4 and not plain and public.table:
        return passing  # no trump added while the stock lasts
    return Move(seat, "attack", card=plainest(playable, trump))


def doubles_time(held: int, stock: int, on_table: int) -> bool:
    """A hand of more than four cards near the stock's end (or at three cards left with
    two on the table) leads its pairs."""
    return held > 4 and (stock <= 2 or (stock == 3 and on_table >= 2))


def ace_first(hand: list[int], playable: list[int], trump: int) -> int | None:
    """The trump ace of a two-card hand, or the trump king beside the ace in a three-card
    one, when it may be played."""
    trumps = {RANK_OF[c]: c for c in hand if SUIT_OF[c] == trump}
    if len(hand) == 2 and ACE in trumps and trumps[ACE] in playable:
        return trumps[ACE]
    if len(hand) == 3 and ACE in trumps and KING in trumps and trumps[KING] in playable:
        return trumps[KING]
    return None


def lowest_double(hand: list[int], playable: list[int], trump: int) -> int | None:
    """A card of the lowest rank the hand holds twice or more (trumps counting), its
    plain card first; None when no such rank may be played."""
    ranks = [RANK_OF[c] for c in hand]
    doubles = [c for c in playable if ranks.count(RANK_OF[c]) >= 2]
    if not doubles:
        return None
    low = min(RANK_OF[c] for c in doubles)
    return plainest([c for c in doubles if RANK_OF[c] == low], trump)


# -- mcts ---------------------------------------------------------------------------------
SAMPLES = 30  # worlds a move
ITERATIONS = 33  # UCT iterations a world
EXPLORATION = 1.40  # c
END_GAME_ITERATIONS = SAMPLES * ITERATIONS


def greedy_playout(p: tuple, o: Order) -> float:
    """The thesis's greedy player for both seats from the position `p` (in Bits' shape,
    bench/durak_positions.py) to the end of the deal: seat 0's reward, 1 a win, 1/2 a
    draw, 0 the durak. `o` is the trump's bit order, whose lowest bit is the lowest-valued
    card."""
    h0, h1, att, on_table, ranks, n, beaten, unbeaten, taking, stock, cap = p
    hands = [h0, h1]
    plain, beaters, same_rank = o.plain, o.beaters, o.same_rank
    at, left = 0, len(stock)
    while True:
        defender = 1 - att
        if unbeaten and not taking:  # D7: the lowest card that beats, else take
            m = hands[defender] & beaters[unbeaten.bit_length() - 1]
            if m:
                b = m & -m
                hands[defender] ^= b
                on_table |= b
                ranks |= same_rank[b.bit_length() - 1]
                beaten += 1
                unbeaten = 0
            else:
                taking = True
            continue
        hand = hands[att]
        if n:  # D8, D9
            m = hand & ranks if n < min(cap, hands[defender].bit_count() + beaten) else 0
        else:  # D6
            m = hand
        b = m & -m
        if b and n and not b & plain and at < left:
            b = 0  # only trumps to add while the stock lasts: keep them
        if b:
            hands[att] ^= b
            on_table |= b
            ranks |= same_rank[b.bit_length() - 1]
            n += 1
            unbeaten = b
            continue
        if taking:  # D10
            hands[defender] |= on_table
        else:  # D11
            att = defender
            cap = BOUT_LIMIT
        if at < left:  # D12: the bout's attacker draws first
            for s in ((att, 1 - att) if taking else (1 - att, att)):
                while hands[s].bit_count() < HAND_SIZE and at < left:
                    hands[s] |= stock[at]
                    at += 1
        if at == left and not (hands[0] and hands[1]):  # D14, D15
            return 0.5 if not (hands[0] or hands[1]) else 1.0 if not hands[0] else 0.0
        on_table = ranks = n = beaten = unbeaten = 0
        taking = False


class Node:
    """A position of the tree: its visits and the reward summed for the seat that chose
    it (its parent's mover); its children made one a visit, in the order Bits lists the
    moves."""

    __slots__ = ("children", "moves", "pos", "reward", "visits", "value")

    def __init__(self, pos: tuple | None, value: float):
        self.pos, self.value = pos, value  # value: seat 0's reward once the deal is over
        self.moves: list[tuple] | None = None  # Bits' children, listed on first expansion
        self.children: list[Node] = []
        self.visits = 0
        self.reward = 0.0


def uct_search(shape: Bits, pos: tuple, iterations: int) -> int:
    """The index (in Bits' order) of the root move of highest mean reward after
    `iterations` UCT iterations from `pos`."""
    root = Node(pos, 0.0)
    log, sqrt = math.log, math.sqrt
    for _ in range(iterations):
        node, path = root, [root]
        while (at := node.pos) is not None:  # the tree policy
            if node.moves is None:
                node.moves = shape.children(at)
            if len(node.children) < len(node.moves):  # expand the first untried move
                _, after, value = node.moves[len(node.children)]
                child = Node(after, value / 2 + 0.5)
                node.children.append(child)
                path.append(child)
                node = child
                break
            mover = shape.mover(at)
            spread = 2 * log(node.visits)
            node = max(node.children, key=lambda c: (  # noqa: B023
                (c.reward / c.visits if mover == 0 else 1 - c.reward / c.visits)
                + EXPLORATION * sqrt(spread / c.visits)))
            path.append(node)
        reward = node.value if node.pos is None else greedy_playout(node.pos, shape.o)
        for visited in path:
            visited.visits += 1
            visited.reward += reward  # seat 0's; its parent's mover reads its own share
    mover = shape.mover(pos)
    means = [c.reward / c.visits if mover == 0 else 1 - c.reward / c.visits
             for c in root.children]
    return means.index(max(means))


def mcts_durak(game: Game, view: View, rng: random.Random) -> Move:
    own = own_moves(game, view, rng)
    if len(own) == 1:
        return own[0]
    end_game = stock_size(view) == 0
    votes: dict[Move, int] = {}
    for _ in range(1 if end_game else SAMPLES):
        world = game.sample(view, rng)
        if not covers(world):
            raise ValueError("the thesis's MCTS plays two players without passing on")
        shape = Bits(named(world).trump)
        pos, moves, _ = shape.root(world)
        chosen = moves[uct_search(shape, pos, END_GAME_ITERATIONS if end_game
                                  else ITERATIONS)]
        votes[chosen] = votes.get(chosen, 0) + 1
    return max(votes, key=votes.__getitem__)  # the first of the most voted
