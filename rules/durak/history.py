"""The deal's history, when the deal asks for it (`"history": true`, docs/api.md): the bouts
played, as everybody at the table saw them (`Bout`), and the cards passed on in the bout
on the table (D21). A fair player reads the other hands from it as people do: what each
seat picked up (D10), what was beaten off (D11), what was passed on (D21).

A state given with a history must agree with the rest of it: the bouts beaten off are the
discard pile, card for card (D11); every bout is one the rules allow (D4, D7, D9, D21);
with two players, each bout's attacker is the one D18 gives after the bout before, and so
is the state's."""

from __future__ import annotations

from rules.durak.cards import ALL, BEATERS, BOUT_LIMIT
from rules.durak.options import Setup
from rules.durak.state import Bout
from rules.game import Problem

CODES = ALL.codes
Table = list[tuple[int, int | None]]


def history_problems(trump: int, history: list[Bout] | None, passed_on: list[int] | None,
                     discard: int, table: Table, attacker: int, setup: Setup
                     ) -> list[Problem]:
    """Every problem of a state's history and its `passed_on`, by field path."""
    if history is None and passed_on is None:
        return []
    if history is None or passed_on is None:
        missing = "history" if history is None else "passed_on"
        return [Problem(missing, "durak_history_pair", {"missing": missing})]
    problems: list[Problem] = []
    for i, b in enumerate(history):
        problems += bout_problems(f"history.{i}", trump, b, setup)
    problems += discard_problems(history, discard)
    if setup.players == 2 and not setup.transfer:
        problems += order_problems(history, attacker)
    problems += passed_problems("passed_on", passed_on, [a for a, _ in table], setup)
    return problems


def bout_problems(path: str, trump: int, b: Bout, setup: Setup) -> list[Problem]:
    """D4, D7, D9, D11, D21 on one bout of the history."""
    players = setup.players
    problems: list[Problem] = []
    for name, seat in (("attacker", b.attacker), ("defender", b.defender)):
        if not 0 <= seat < players:
            problems.append(Problem(f"{path}.{name}", "seat_range",
                                    {"seat": seat, "players": players}))
    if b.attacker == b.defender:
        problems.append(Problem(f"{path}.defender", "durak_history_defender",
                                {"seat": b.defender}))
    if not b.table:
        problems.append(Problem(f"{path}.table", "durak_history_empty"))
    if len(b.table) > BOUT_LIMIT:  # D9
        problems.append(Problem(f"{path}.table", "durak_history_limit",
                                {"count": len(b.table), "limit": BOUT_LIMIT}))
    problems += table_problems(path, trump, b)
    problems += passed_problems(f"{path}.passed", list(b.passed), [a for a, _ in b.table][1:],
                                setup)
    return problems


def table_problems(path: str, trump: int, b: Bout) -> list[Problem]:
    """D4, D11 on a bout's table: no card twice, each defence beats its attack, and a bout
    beaten off has every attack beaten."""
    problems = []
    seen = 0
    for j, (a, d) in enumerate(b.table):
        for c in (a, d):
            if c >= 0 and seen >> c & 1:
                problems.append(Problem(f"{path}.table.{j}", "durak_history_twice",
                                        {"card": CODES[c]}))
            if c >= 0:
                seen |= 1 << c
        if d >= 0 and not BEATERS[trump][a] >> d & 1:  # D4
            problems.append(Problem(f"{path}.table.{j}.defense", "durak_history_defence",
                                    {"attack": CODES[a], "defense": CODES[d]}))
        if d < 0 and not b.taken:  # D11: a bout beaten off has every attack beaten
            problems.append(Problem(f"{path}.table.{j}.defense", "durak_history_unbeaten",
                                    {"attack": CODES[a]}))
    return problems


def passed_problems(path: str, passed: list[int], attacks: list[int], setup: Setup
                    ) -> list[Problem]:
    """D21: cards passed on are attack cards of their bout, and only where the deal
    passes on."""
    if passed and not setup.transfer:
        return [Problem(path, "durak_history_no_passing")]
    return [Problem(f"{path}.{i}", "durak_history_passed", {"card": CODES[c]})
            for i, c in enumerate(passed) if c not in attacks]


def discard_problems(history: list[Bout], discard: int) -> list[Problem]:
    """D11: the bouts beaten off went to the discard pile whole, and nothing else did."""
    beaten = 0
    for b in history:
        if not b.taken:
            for a, d in b.table:
                beaten |= 1 << a | (1 << d if d >= 0 else 0)
    if beaten == discard:
        return []
    return [Problem("history", "durak_history_discard",
                    {"missing": [CODES[c] for c in range(52) if discard >> c & 1
                                 and not beaten >> c & 1],
                     "extra": [CODES[c] for c in range(52) if beaten >> c & 1
                               and not discard >> c & 1]})]


def order_problems(history: list[Bout], attacker: int) -> list[Problem]:
    """D10, D11, D18 with two players: after a bout taken its attacker attacks again,
    after one beaten off its defender attacks; the state's attacker too."""
    problems: list[Problem] = []
    for i, b in enumerate(history):
        nxt = b.attacker if b.taken else b.defender
        want_att = history[i + 1].attacker if i + 1 < len(history) else attacker
        if b.defender != 1 - b.attacker:
            problems.append(Problem(f"history.{i}.defender", "durak_history_defender",
                                    {"seat": b.defender}))
        if want_att != nxt:
            where = f"history.{i + 1}.attacker" if i + 1 < len(history) else "attacker"
            problems.append(Problem(where, "durak_history_order",
                                    {"seat": want_att, "expected": nxt}))
    return problems
