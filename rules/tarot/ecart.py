"""The chien and the écart: T5, T6, their size by count of players (T20)."""

from __future__ import annotations

from rules.cards import bit_list, mask_of
from rules.game import Problem, Template, repeat_problems
from rules.reasons import Reason
from rules.tarot.bidding import CHIEN_TAKEN
from rules.tarot.cards import BOUTS, DECK, KINGS, ORDINARY, TRUMPS


def repeated(cards) -> int:
    seen = set()
    for c in cards:
        if c in seen:
            return c
        seen.add(c)
    raise ValueError("no card repeated")


def discard_template(taker: int, hand: int, size: int) -> Template:
    """T5, T20: `size` cards, never a King or a bout; ordinary cards first, and trumps only
    to fill the shortfall — then every ordinary card goes, plus that many trumps."""
    ordinary = hand & ORDINARY
    if ordinary.bit_count() >= size:
        return Template(taker, "discard", size, (), tuple(bit_list(ordinary)))
    return Template(taker, "discard", size, tuple(bit_list(ordinary)),
                    tuple(bit_list(hand & TRUMPS & ~BOUTS)))


def discard_reason(seat: int, hand: int, cards, size: int) -> Reason | None:
    """T5, T20, against the same facts as `discard_template`."""
    chosen = mask_of(cards)
    if chosen.bit_count() != len(cards):
        return Reason("repeated_card", "T5", {"card": DECK.codes[repeated(cards)]})
    if len(cards) != size:
        return Reason("discard_wrong_count", "T5" if size == 6 else "T20",
                      {"count": size, "given": len(cards)})
    for c in cards:
        if not hand >> c & 1:
            return Reason("card_not_in_hand", "T5", {"seat": seat, "card": DECK.codes[c]})
    for c in cards:
        if (KINGS | BOUTS) >> c & 1:
            return Reason("discard_forbidden_card", "T5", {"card": DECK.codes[c]})
    needed = max(0, size - (hand & ORDINARY).bit_count())
    given = (chosen & TRUMPS).bit_count()
    if given > needed:
        return Reason("discard_trump_not_needed", "T5", {"needed": needed, "given": given})
    return None


def chien_problems(contract: str | None, chien: list[int], chien_shown: list[int],
                   size: int) -> list[Problem]:
    """T2, T5, T6, T19: the chien stays aside, unseen, until a prise or garde shows it."""
    taken = contract in CHIEN_TAKEN
    problems = []
    want = 0 if taken else size
    if len(chien) != want:
        problems.append(Problem("chien", "tarot_chien_size",
                                {"expected": want, "count": len(chien)}))
    want = size if taken else 0
    if len(chien_shown) != want:
        problems.append(Problem("chien_shown", "tarot_chien_shown_size",
                                {"expected": want, "count": len(chien_shown)}))
    # The state keeps the shown chien as a set: a repeat would be dropped, not refused.
    problems += repeat_problems(DECK, "chien_shown", chien_shown)
    return problems


def ecart_problems(contract: str | None, taker_cards: int, chien_shown: list[int],
                   ecart: list[int], size: int) -> list[Problem]:
    """T5, T20: in a prise or garde the shown chien went to the taker, who laid `size` cards
    that are no King nor bout, trumps only to fill a shortfall of ordinary cards; T6: no
    écart otherwise. `taker_cards`: the taker's hand, écart and plays."""
    if contract not in CHIEN_TAKEN:
        return [Problem("ecart", "tarot_ecart_unexpected")] if ecart else []
    codes = DECK.codes
    problems = [Problem(f"chien_shown.{i}", "tarot_chien_lost", {"card": codes[c]})
                for i, c in enumerate(chien_shown) if not taker_cards >> c & 1]
    if len(ecart) not in (0, size):
        problems.append(Problem("ecart", "tarot_ecart_size", {"count": len(ecart)})
                        if size == 6 else Problem("ecart", "tarot_ecart_size_t20",
                                                  {"count": len(ecart), "expected": size}))
    problems += [Problem(f"ecart.{i}", "tarot_ecart_forbidden", {"card": codes[c]})
                 for i, c in enumerate(ecart) if (KINGS | BOUTS) >> c & 1]
    needed = max(0, size - (taker_cards & ORDINARY).bit_count())
    given = (mask_of(ecart) & TRUMPS).bit_count()
    if given > needed:
        problems.append(Problem("ecart", "tarot_ecart_trumps",
                                {"given": given, "needed": needed}))
    return problems
