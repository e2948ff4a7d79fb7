"""The rules check their own input, whoever calls them (PokerKit's verify / can / do): a move
given straight to the rules, with no schema before them, is verified; a malformed one raises
MalformedMove naming its field, an illegal one IllegalMove with the reason `verify` gives,
and neither changes the state. The same holds under `python -O`, which strips asserts: the
checks are run there too, in a child process, by a function that uses none."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from rules.ai import complete
from rules.game import IllegalMove, MalformedMove, Move
from rules.registry import GAMES
from tests.conftest import ROOT


def states(game_id: str, count: int = 6) -> list:
    """States of seeded random deals, from the deal to near the end."""
    game = GAMES[game_id].game
    rng = random.Random(7)
    out = []
    state = game.deal(rng)
    moves = 0
    while game.to_act(state) is not None and len(out) < count:
        if moves % 9 == 0:
            out.append(state)
        state = game.apply(state, complete(rng.choice(game.legal_moves(state)), rng))
        moves += 1
    return out


def malformed_moves(game, state) -> list[tuple[str, Move]]:
    """(the field at fault, a move) for each way a move can be no move of the game."""
    seat = game.to_act(state)
    size = len(game.all_cards)  # past every card any deck of the game holds
    out: list[tuple[str, object]] = [
        ("seat", Move(game.seats(state), game.actions[0])),
        ("seat", Move(-1, game.actions[0])),
        ("seat", Move(True, game.actions[0])),  # type: ignore[arg-type]
        ("action", Move(seat, "resign")),
        ("action", Move(seat, None)),  # type: ignore[arg-type]
        ("", (seat, game.actions[0])),
    ]
    for action, fields in game.move_fields.items():
        for name in fields:
            wrong = {"card": [None, size, -1, "0", 1.0],
                     "cards": [None, (size,), (-1,), [0], ("0",)],
                     "contract": [None, 3], "announce": [None, 1]}[name]
            out += [(name, Move(seat, action, **{name: value})) for value in wrong]
    return out  # type: ignore[return-value]


def illegal_moves(game, state) -> list[Move]:
    """Well-formed moves that `verify` refuses in `state`: every card move of a seat not to
    act, and of the seat to act with a card it does not hold."""
    seat = game.to_act(state)
    held = game.hand(state, seat)
    out = []
    for action, fields in game.move_fields.items():
        if fields == ("card",):
            for other in range(game.seats(state)):
                card = next(c for c in range(len(game.deck)) if not held >> c & 1)
                out.append(Move(other, action, card=card))
    return [m for m in out if game.verify(state, m) is not None]


def check_rules_input(game_id: str) -> list[str]:
    """Every failure of the rules' own checks for `game_id`, as text: it uses no assert, so
    that it checks as much under `python -O`."""
    game = GAMES[game_id].game
    failures = []
    for state in states(game_id):
        before = repr(state)
        failures += malformed_failures(game, state) + illegal_failures(game, state)
        for listed in game.legal_moves(state)[:5]:
            move = complete(listed, random.Random(0))
            if not game.can(state, move) or game.play(state, move) != \
                    game.transition(state, move):
                failures.append(f"the legal {move!r} is not played as listed")
        if repr(state) != before:
            failures.append("a state changed")
    return failures


def malformed_failures(game, state) -> list[str]:
    """A move malformed at a field: verify and play raise MalformedMove naming it, and
    can is false."""
    failures = []
    for field, move in malformed_moves(game, state):
        for call in (game.verify, game.play):
            try:
                call(state, move)
                failures.append(f"{call.__name__}({move!r}) did not raise")
            except MalformedMove as e:
                if e.field != field:
                    failures.append(f"{call.__name__}({move!r}) named {e.field!r}")
            except Exception as e:  # noqa: BLE001 - any other error is the failure
                failures.append(f"{call.__name__}({move!r}) raised {type(e).__name__}: {e}")
        if game.can(state, move):
            failures.append(f"can({move!r}) is true")
    return failures


def illegal_failures(game, state) -> list[str]:
    """An illegal move: play raises IllegalMove with verify's reason, and can is false."""
    failures = []
    for move in illegal_moves(game, state):
        reason = game.verify(state, move)
        try:
            game.play(state, move)
            failures.append(f"play({move!r}) did not raise")
        except IllegalMove as e:
            if e.reason != reason:
                failures.append(f"play({move!r}) said {e.reason}, verify {reason}")
        if game.can(state, move):
            failures.append(f"can({move!r}) is true")
    return failures


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_rules_check_a_move_given_straight_to_them(game_id):
    assert check_rules_input(game_id) == []


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_rules_check_their_input_under_python_O(game_id):
    code = ("import json, sys; from tests.test_rules_input import check_rules_input; "
            f"print(json.dumps([__debug__, check_rules_input({game_id!r})]))")
    run = subprocess.run([sys.executable, "-O", "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    debug, failures = json.loads(run.stdout)
    assert debug is False and failures == []


def test_a_durak_card_of_the_other_hand_is_refused_not_copied():
    """Played straight to the rules, an attack with the defender's card used to leave the
    card in both hands; now it is refused with D1's reason."""
    game = GAMES["durak"].game
    state = game.deal(random.Random(1))
    attacker = game.to_act(state)
    theirs = game.hand(state, 1 - attacker)
    card = (theirs & -theirs).bit_length() - 1
    with pytest.raises(IllegalMove) as refused:
        game.play(state, Move(attacker, "attack", card=card))
    assert refused.value.reason.code == "card_not_in_hand"
    assert game.hand(state, 1 - attacker) == theirs  # the state is as it was
