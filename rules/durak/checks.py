"""The checks of a state given as fields, one rule block each: every problem is found and
named by its field path in API.md's JSON state."""

from __future__ import annotations

from rules.durak.cards import (
    ALL,
    BEATERS,
    DECKS,
    HAND_SIZE,
    RANK_MASK,
    RANK_OF,
    SUIT_OF,
    SUITS,
    deck_size_of,
)
from rules.durak.deal import first_attacker
from rules.durak.options import MOST_PLAYERS, Setup
from rules.durak.state import next_in, round_of
from rules.game import Problem, placed

Table = list[tuple[int, int | None]]
CODES = ALL.codes


# A card of the 52-card universe to its bit. A dict, not a tuple: an index outside the
# universe (a negative one above all) must fail, not alias another card.
CARD_BIT = {c: 1 << c for c in range(52)}
# D16: each deck's mask to its size, for the valid state's one lookup.
SIZE_OF_DECK = {mask: size for size, mask in DECKS.items()}


def pile_problems(hands: list[list[int]], stock: list[int], discard: list[int],
                  table: Table) -> tuple[int, list[Problem], tuple[int, ...], int]:
    """D1, D16: every card of one of the three decks once across the piles (the deck is
    the smallest that holds every card given); D11: the discard pile holds whole
    beaten-off bouts, an attack and its defence each, so an even number of cards. The
    deck's size, the problems and, when there are none, the hands' and the discard's
    masks."""
    # The sum of n card bits has n bits set only when no card repeats (a repeat carries
    # into another bit), and is then their mask: a valid state is counted at C speed, and
    # only a state that fails pays for the per-card field paths.
    bit = CARD_BIT.__getitem__
    masks = tuple([sum(map(bit, hand)) for hand in hands])
    discard_mask = sum(map(bit, discard))
    whole = sum(masks) + sum(map(bit, stock)) + discard_mask
    total = len(stock) + len(discard)
    for hand in hands:
        total += len(hand)
    for a, d in table:
        whole += bit(a)
        total += 1
        if d is not None:
            whole += bit(d)
            total += 1
    problems: list[Problem] = []
    if whole.bit_count() == total and whole in SIZE_OF_DECK:
        size = SIZE_OF_DECK[whole]
    else:
        size, problems = _conservation_problems(hands, stock, discard, table)
    if len(discard) % 2:
        problems.append(Problem("discard", "durak_discard_odd", {"count": len(discard)}))
    if len(hands) > MOST_PLAYERS[size]:
        problems.append(Problem("hands", "durak_deck_players",
                                {"players": len(hands), "cards": size,
                                 "most": MOST_PLAYERS[size]}))
    return size, problems, masks, discard_mask


def _conservation_problems(hands: list[list[int]], stock: list[int], discard: list[int],
                           table: Table) -> tuple[int, list[Problem]]:
    """D1, D16 on the failure path: the smallest deck that holds every card given, and the
    problems: each card given twice, at its second place, then the cards missing."""
    places = [p for s, hand in enumerate(hands) for p in placed(f"hands.{s}", hand)]
    places += placed("stock", stock) + placed("discard", discard)
    for i, (a, d) in enumerate(table):
        places.append((f"table.{i}.attack", a))
        if d is not None:
            places.append((f"table.{i}.defense", d))
    problems = []
    seen: dict[int, str] = {}
    mask = 0
    for where, card in places:
        mask |= 1 << card
        if card in seen:
            problems.append(Problem(where, "card_twice", {"card": CODES[card],
                                                          "also": seen[card]}))
        else:
            seen[card] = where
    size = deck_size_of(mask)
    missing = [CODES[c] for c in range(52) if DECKS[size] >> c & 1 and c not in seen]
    if missing:
        problems.append(Problem("", "cards_missing", {"count": len(missing),
                                                      "cards": missing}))
    return size, problems


def trump_problems(trump: int, stock: list[int], trump_card: int | None, whole_deck: bool
                   ) -> list[Problem]:
    """D2, D3: the trump is the suit of the turned-up card, the stock's last; D17: when
    the hands took the whole deck, the suit of the shown `trump_card`, which no other
    deal has."""
    if stock and SUIT_OF[stock[-1]] != trump:
        return [Problem("trump", "durak_trump", {"card": CODES[stock[-1]]})]
    if whole_deck and trump_card is None:
        return [Problem("trump_card", "durak_trump_card_missing")]
    if not whole_deck and trump_card is not None:
        return [Problem("trump_card", "durak_trump_card_stock", {"card": CODES[trump_card]})]
    if trump_card is not None and SUIT_OF[trump_card] != trump:
        return [Problem("trump", "durak_trump", {"card": CODES[trump_card]})]
    return []


def table_problems(trump: int, table: Table, taking: bool, transfer: bool) -> list[Problem]:
    """D4, D7, D8: each attack matches a rank on the table, each defence beats its attack,
    and only the last attack is unbeaten — or several, once the defender takes, or (D21)
    the cards passed on, all of one rank, beaten in the order they were laid."""
    problems = []
    ranks = 0
    unbeaten = 0
    last_unbeaten = -1
    for i, (a, d) in enumerate(table):
        if i and not ranks & RANK_MASK[RANK_OF[a]]:
            problems.append(Problem(f"table.{i}.attack", "durak_rank", {"card": CODES[a]}))
        ranks |= RANK_MASK[RANK_OF[a]]
        if d is None:
            unbeaten += 1
            last_unbeaten = i
            continue
        if unbeaten:
            problems.append(Problem(f"table.{i}.defense", "durak_defence_after_unbeaten"))
        ranks |= RANK_MASK[RANK_OF[d]]
        if not BEATERS[trump][a] >> d & 1:
            problems.append(Problem(f"table.{i}.defense", "durak_cannot_beat",
                                    {"card": CODES[d], "attack": CODES[a]}))
    if taking and not unbeaten:
        problems.append(Problem("taking", "durak_take_nothing"))
    if not taking and unbeaten > 1:
        if not transfer:
            problems.append(Problem("table", "durak_unbeaten"))
        elif any(RANK_OF[a] != RANK_OF[table[0][0]] for a, _ in table[:last_unbeaten + 1]):
            problems.append(Problem("table", "durak_transfer_rank"))
    return problems


def bout_problems(hands: list[list[int]], stock: list[int], discard: list[int],
                  attacker: int, defender: int, table: Table, setup: Setup) -> list[Problem]:
    """D9: the bout limit; D12, D22: while the stock lasts, everyone began the bout with
    six cards."""
    problems = []
    defended = sum(1 for _, d in table if d is not None)
    limit = min(setup.cap(len(discard)), len(hands[defender]) + defended)
    if len(table) > limit:
        problems.append(Problem("table", "durak_bout_limit",
                                {"count": len(table), "limit": limit}))
    if stock and len(hands) == 2 and not setup.transfer:  # else start_problems
        if len(hands[attacker]) + len(table) < HAND_SIZE:
            problems.append(Problem(f"hands.{attacker}", "durak_attacker_short"))
        if len(hands[defender]) + defended < HAND_SIZE:
            problems.append(Problem(f"hands.{defender}", "durak_defender_short"))
    return problems


def out_problems(hands: list[list[int]], stock: list[int], table: Table, attacker: int,
                 out: list[list[int]]) -> tuple[int, list[Problem]]:
    """D23: who went out holds no card, went out once the stock was empty, and is named
    once, each bout's list in ascending seat order; between bouts, with the stock empty, a
    player in with no card would have gone out, the last one too; D24: a bout goes on only
    while two players are in. The mask of the seats out, and the problems."""
    mask, problems = _out_lists(hands, out)
    players = len(hands)
    if out and stock:
        problems.append(Problem("out", "durak_out_stock"))
    if not stock and not table:
        for s in range(players):
            if not hands[s] and not mask >> s & 1:
                problems.append(Problem("out", "durak_out_missing", {"seat": s}))
    if table and players - mask.bit_count() < 2:
        problems.append(Problem("out", "durak_out_bout"))
    if mask >> attacker & 1 and players - mask.bit_count() > 1:
        problems.append(Problem("attacker", "durak_attacker_out", {"seat": attacker}))
    return mask, problems


def _out_lists(hands: list[list[int]], out: list[list[int]]) -> tuple[int, list[Problem]]:
    """D23, D25: each list of `out` names seats of the deal in ascending order, each seat
    once in all, and none that holds a card. The mask of the seats named, the problems."""
    problems = []
    mask = 0
    for i, group in enumerate(out):
        if not group or list(group) != sorted(set(group)):
            problems.append(Problem(f"out.{i}", "durak_out_order"))
        for j, s in enumerate(group):
            if s >= len(hands) or mask >> s & 1:
                problems.append(Problem(f"out.{i}.{j}", "durak_out_seat", {"seat": s}))
                continue
            mask |= 1 << s
            if hands[s]:
                problems.append(Problem(f"out.{i}.{j}", "durak_out_holds", {"seat": s}))
    return mask, problems


def start_problems(trump: int, hands: list[list[int]], stock: list[int],
                   discard: list[int], table: Table, taking: bool, attacker: int,
                   defender: int, out_mask: int, setup: Setup) -> list[Problem]:
    """D12, D22, D23: a player in begins a bout with six cards while the stock lasts (each
    drew up to six) and with one at least once it is out (one with none went out); in
    the first bout, nothing drawn yet, with the six dealt (D17). So each holds what it
    began with less what it laid in the bout: the defender its defences; the attackers
    the attack cards, the first one card (D6), then, passing on (D21), each defender in
    turn one card of that rank while none was beaten, then the last of them and its
    throwers (D19, D20) the rest. Empty when some number of passes gives every player its
    start; else the problems of the reading with the fewest. Nothing is added while a card
    is unbeaten but after a take (D8, D10, D20): two unbeaten without one were all passed
    on."""
    passes = _passes(table) if setup.transfer else 0
    unbeaten = sum(1 for _, d in table if d is None)
    fewest = len(table) - 1 if unbeaten > 1 and not taking else 0
    found: list[Problem] = []
    for p in range(min(fewest, passes), passes + 1):
        problems = _start_with(p, trump, hands, stock, discard, table, attacker, defender,
                               out_mask, setup)
        if not problems:
            return []
        found = found or problems
    return found


def _passes(table: Table) -> int:
    """The most passes (D21) a table can hold: its first cards, all of one rank, laid
    before any was beaten; the last attack card of those is the bout's attacker's."""
    same = 1
    while same < len(table) and RANK_OF[table[same][0]] == RANK_OF[table[0][0]]:
        same += 1
    return same - 1


def _start_with(passes: int, trump: int, hands: list[list[int]], stock: list[int],
                discard: list[int], table: Table, attacker: int, defender: int, out_mask: int,
                setup: Setup) -> list[Problem]:
    """start_problems' reading with `passes` passes: the first passes + 1 attack cards laid
    one each by the attackers in turn, the last the bout's attacker, and the other attack
    cards by the last attacker's round."""
    players = len(hands)
    chain = _chain(passes, attacker, players, out_mask) if table else []
    laid = [chain.count(s) for s in range(players)]
    laid[defender] += sum(1 for _, d in table if d is not None)
    first = stock and not discard and len(stock) == setup.cards - HAND_SIZE * players
    need = HAND_SIZE if stock else 1
    throwers = _layers(attacker, defender, players, out_mask, setup) if table else set()
    ins = [s for s in range(players) if not out_mask >> s & 1]
    problems, owed = _began(hands, laid, ins, need, bool(first), defender, throwers)
    if owed > max(0, len(table) - passes - 1):
        problems.append(Problem("hands", "durak_start_count", {"count": len(table)}))
    if first and chain:
        problems += _first_bout_attacker(trump, hands, table, chain, defender, throwers)
    return problems


def _began(hands: list[list[int]], laid: list[int], ins: list[int], need: int, first: bool,
           defender: int, throwers: set[int]) -> tuple[list[Problem], int]:
    """Each player in against what it began the bout with: the problems, and the cards the
    throwers lack, which they laid among the other attack cards."""
    problems = []
    owed = 0
    for s in ins:
        began = len(hands[s]) + laid[s]
        if first and began > HAND_SIZE:
            problems.append(Problem(f"hands.{s}", "durak_first_bout_hand",
                                    {"seat": s, "held": began}))
        elif began < need and s in throwers:
            owed += need - began
        elif began < need:  # the code written out, as the catalogues' check reads it
            problems.append(Problem(
                f"hands.{s}", "durak_start_short" if s == defender else "durak_start_idle",
                {"seat": s, "held": len(hands[s]), "need": need, "laid": laid[s]}))
    return problems, owed


def _chain(passes: int, attacker: int, players: int, out_mask: int) -> list[int]:
    """Who laid the first passes + 1 attack cards: each an attacker passing it on to the
    player in after it (D21), the last the bout's attacker."""
    chain = [attacker]
    for _ in range(passes):
        chain.append(_in_before(chain[-1], players, out_mask))
    return chain[::-1]


def _first_bout_attacker(trump: int, hands: list[list[int]], table: Table, chain: list[int],
                         defender: int, throwers: set[int]) -> list[Problem]:
    """D5 in the first bout: nothing drawn yet, each hand as dealt is what it holds and
    what it laid, and the first attacker (the chain's first) held the lowest trump of them
    (seat 0 when none was dealt); a card a thrower added may be any thrower's."""
    holders = {c: {s} for s, hand in enumerate(hands) for c in hand}
    for i, (a, d) in enumerate(table):
        holders[a] = {chain[i]} if i < len(chain) else throwers
        if d is not None:
            holders[d] = {defender}
    trumps = [c for c in holders if SUIT_OF[c] == trump]
    low = min(trumps, key=RANK_OF.__getitem__) if trumps else None
    if (chain[0] in holders[low]) if low is not None else chain[0] == 0:
        return []
    seat = min(holders[low]) if low is not None else 0
    return [Problem("attacker", "durak_first_bout_attacker",
                    {"seat": seat, "card": CODES[low] if low is not None else "none"})]


def _in_before(seat: int, players: int, out_mask: int) -> int:
    """The player in before `seat`: whose defender `seat` is (D18)."""
    s = seat
    for _ in range(players):
        s = (s - 1) % players
        if not out_mask >> s & 1:
            return s
    return seat


def _layers(attacker: int, defender: int, players: int, out_mask: int, setup: Setup
            ) -> set[int]:
    """The attacker and the throwers that the round of D19-D20 asks."""
    return set(round_of(attacker, defender, players, out_mask, setup.throw_in)) - {defender}


def discard_problems(trump: int, discard: list[int]) -> list[Problem]:
    """D11: the discard pile is whole beaten-off bouts, each attack card with the card that
    beat it (D4): two cards of one suit, or a trump and a card of another. The cards of a
    plain suit pair among themselves but for one when they are odd, which a trump beat:
    the trumps are at least as many as the plain suits of an odd count."""
    counts = [0, 0, 0, 0]
    for card in discard:
        counts[SUIT_OF[card]] += 1
    odd = [SUITS[s] for s in range(4) if s != trump and counts[s] % 2]
    if len(discard) % 2 == 0 and counts[trump] < len(odd):
        return [Problem("discard", "durak_discard_unpaired",
                        {"suits": ", ".join(odd), "trumps": counts[trump]})]
    return []


def first_attacker_problems(masks: tuple[int, ...], stock: list[int], discard: list[int],
                            table: Table, attacker: int, trump: int, size: int,
                            out: list[list[int]]) -> list[Problem]:
    """D5, D17: a state as dealt (every hand of six, the stock whole, nothing played) has
    the first attacker D5 names: no card has moved, so no bout has been played."""
    players = len(masks)
    dealt = (not table and not discard and not out and len(stock) == size - HAND_SIZE * players
             and all(m.bit_count() == HAND_SIZE for m in masks))
    first = first_attacker(masks, trump) if dealt else attacker
    if first != attacker:
        return [Problem("attacker", "durak_first_attacker", {"seat": first})]
    return []


def to_act_problems(given, attacker: int, defender: int, players: int, out_mask: int,
                    throw_in: str, table: bool) -> list[Problem]:
    """D20, with more than two players: in the attack phase the seat asked is a fact of the
    state, the attacker on an empty table, else a seat of the round."""
    if given is None:
        return [Problem("to_act", "durak_to_act_required")]
    asked = round_of(attacker, defender, players, out_mask, throw_in) if table else (attacker,)
    if given not in asked:
        return [Problem("to_act", "durak_to_act_round",
                        {"given": given, "seats": list(asked)})]
    return []


def known_problems(known: list[list[int]], hands: list[list[int]]) -> list[Problem]:
    """A card everybody has seen in a hand is in that hand, once."""
    if len(known) != len(hands):
        return [Problem("known", "durak_known_count", {"count": len(known),
                                                        "players": len(hands)})]
    problems = []
    for s, cards in enumerate(known):
        held = set(hands[s])
        seen: set[int] = set()
        for i, c in enumerate(cards):
            if c not in held or c in seen:
                problems.append(Problem(f"known.{s}.{i}", "durak_known_not_in_hand",
                                        {"card": CODES[c], "seat": s}))
            seen.add(c)
    return problems


def defender_seat(attacker: int, players: int, out_mask: int) -> int:
    return next_in(attacker, players, out_mask)
