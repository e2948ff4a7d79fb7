"""The count of a finished deal and its settlement: T11–T17, T24."""

from __future__ import annotations

from rules.cards import bit_list
from rules.tarot.bidding import MULTIPLIERS
from rules.tarot.call import CALLING
from rules.tarot.cards import BOUTS, EXCUSE, EXCUSE_BIT, HALF_POINTS, PETIT
from rules.tarot.deal import COUNTS, PLAYERS
from rules.tarot.poignee import POIGNEE_VALUES
from rules.tarot.state import TarotState, attack

TARGETS = (56, 51, 41, 36)  # T14, by the number of bouts
CAMPS = ("defense", "taker")  # indexed by "is this the attack camp"


def shares(players: int, taker: int, partner: int | None, per_defender: int) -> list[int]:
    """T17, T24: every defender −D; a partner +D; the taker the rest, so the scores sum to
    zero (+3D with 4 players, +2D with 3, +2D beside a partner or +4D alone with 5)."""
    scores = [-per_defender] * players
    if partner is not None:
        scores[partner] = per_defender
    scores[taker] = 0
    scores[taker] = -sum(scores)
    return scores


def score(contract: str, taker: int, bouts: int, half_points: int,
          petit_au_bout: str | None = None, poignees=(),
          chelem_announced: bool = False, chelem_made_by: str | None = None,
          players: int = PLAYERS, partner: int | None = None) -> dict:
    """T14–T17, T24, the settlement of one deal from its score sheet: a pure function used
    both for a deal played here and for `POST /v1/games/tarot/settlement`.

    `half_points` is the attack camp's card points doubled (T13 counts halves);
    `petit_au_bout` and `chelem_made_by` name a camp (`taker` for the attack camp);
    `poignees` holds (label, level) where label is merged into the entry (`{"seat": 2}` or
    `{"declared_by": "defense"}`); `partner` is the five-player partner, None alone.
    A four-player settlement is as API.md first wrote it; the others add `players`, and
    with five players the `partner`."""
    multiplier = MULTIPLIERS[contract]
    target = TARGETS[bouts]
    made = half_points >= 2 * target
    # T14 (FFT): a leftover half point goes to the side that wins, so every figure is whole.
    counted = (half_points + 1) // 2 if made else half_points // 2
    base = (25 + abs(counted - target)) * multiplier
    if not made:
        base = -base
    per_defender = base
    winner = "taker" if made else "defense"

    bonus_petit = None
    if petit_au_bout is not None:  # T15
        value = 10 * multiplier
        bonus_petit = {"camp": petit_au_bout, "value": value}
        per_defender += value if petit_au_bout == "taker" else -value

    handfuls = []
    for label, level in poignees:  # T17.3: to the camp that won the contract, not multiplied
        value = POIGNEE_VALUES[level]
        handfuls.append({**label, "level": level, "value": value, "camp": winner})
        per_defender += value if made else -value

    chelem = chelem_bonus(chelem_announced, chelem_made_by)
    if chelem is not None:
        per_defender += chelem["value"] if chelem["camp"] == "taker" else -chelem["value"]

    out: dict = {"players": players}  # API.md "Additions": every settlement names its count
    out.update({
        "taker": taker,
        "contract": contract,
        "multiplier": multiplier,
        "bouts": bouts,
        "target": target,
        "points": half_points // 2 if half_points % 2 == 0 else half_points / 2,
        "made": made,
        "base": base,
        "petit_au_bout": bonus_petit,
        "poignees": handfuls,
        "chelem": chelem,
        "per_defender": per_defender,
        "scores": shares(players, taker, partner, per_defender),
    })
    if players == CALLING:
        out["partner"] = partner
    return out


def chelem_bonus(announced: bool, made_by: str | None) -> dict | None:
    """T16, not multiplied: the chelem's bonus, to the camp it goes to, or None."""
    if announced:
        # [decided] an announced chelem that the attack camp does not make fails,
        # whoever else won tricks: 200 to the defenders, nothing more.
        camp, value = ("taker", 400) if made_by == "taker" else ("defense", 200)
    elif made_by is not None:  # a chelem made unannounced
        camp, value = made_by, 200
    else:
        return None
    return {"announced": bool(announced), "made_by": made_by, "camp": camp, "value": value}


def camp_cards(state: TarotState) -> tuple[int, int, int]:
    """The attack camp at the end of a played deal: (half points, bouts, cards as a mask)
    after T6, T11 and T12. The defence holds the rest of the 91 points."""
    camp = attack(state.taker, state.partner)
    last = COUNTS[len(state.hands)].hand - 1  # the last trick's index
    half = 0
    won = 0
    if state.contract == "garde_sans":
        won |= state.chien  # T6
    elif state.contract in ("prise", "garde"):
        won |= state.ecart  # T5
    for k, (leader, cards, winner) in enumerate(state.tricks):
        winner_attacks = camp >> winner & 1
        for i, c in enumerate(cards):
            if c != EXCUSE:
                if winner_attacks:
                    won |= 1 << c
                continue
            owner = (leader + i) % len(state.hands)
            owner_attacks = camp >> owner & 1
            if k < last:
                # T11: the Excuse stays with its owner's camp; half a point changes hands.
                if owner_attacks:
                    won |= EXCUSE_BIT
                if owner_attacks != winner_attacks:
                    half += 1 if winner_attacks else -1
            elif winner == owner:
                # T12's exception: the Excuse never wins a trick, so it won by a chelem.
                if owner_attacks:
                    won |= EXCUSE_BIT
            elif not owner_attacks:
                won |= EXCUSE_BIT  # T12: on the last trick it changes camp
    for c in bit_list(won):
        half += HALF_POINTS[c]
    return half, (won & BOUTS).bit_count(), won


def settle(state: TarotState) -> dict:
    """The settlement of a finished deal (API.md, "Settlements")."""
    players = len(state.hands)
    if state.taker is None:
        # T3: no score. Petit sec is found at the deal, before any bid; else all passed.
        out: dict = {"players": players}  # API.md "Additions": every settlement names its count
        out.update(annulled="all_pass" if state.bids else "petit_sec", scores=[0] * players)
        return out
    taker = state.taker
    camp = attack(taker, state.partner)
    half, bouts, _ = camp_cards(state)
    tricks = state.tricks
    # T15: the last trick decides, or the one before when a chelem was completed with the
    # Excuse.
    last = tricks[-1]
    if last[1][0] == EXCUSE and last[2] == last[0]:
        last = tricks[-2]
    petit = None
    if PETIT in last[1]:
        petit = CAMPS[camp >> last[2] & 1]
    winners = {camp >> w & 1 for _, _, w in tricks}
    made_by = CAMPS[winners.pop()] if len(winners) == 1 else None  # T16
    levels = COUNTS[players].poignees
    poignees = [({"seat": seat}, levels[mask.bit_count()])
                for seat, mask in state.poignees]
    if state.contract is None:
        raise ValueError("a Tarot state with a taker and no contract")
    return score(state.contract, taker, bouts, half, petit, poignees, bool(state.chelem),
                 made_by, players, state.partner)

