"""A Python client for the Cardavia rules service (Durak, French Tarot, Dashavatara Ganjifa),
and the `cardavia` command line.

    from cardavia_client import Client
    with Client("http://127.0.0.1:8000") as c:
        dealt = c.deal("durak", seed=1)
        moves = c.legal_moves("durak", dealt.state).moves
        result = c.move("durak", dealt.state, moves[0])
"""

from cardavia_client.client import (
    DEFAULT_URL,
    CardaviaError,
    Client,
    ProblemError,
    TimeoutError,
    UnexpectedAnswerError,
    UnreachableError,
)
from cardavia_client.types import (
    AiMove,
    Deal,
    GameInfo,
    GameRecord,
    LegalMoves,
    Move,
    MoveResult,
    Reason,
    ReplayResult,
    Rule,
    Session,
    Settlement,
    State,
)

__all__ = [
    "DEFAULT_URL", "AiMove", "CardaviaError", "Client", "Deal", "GameInfo", "GameRecord",
    "LegalMoves", "Move", "MoveResult", "ProblemError", "Reason", "ReplayResult", "Rule",
    "Session", "Settlement", "State", "TimeoutError", "UnexpectedAnswerError",
    "UnreachableError",
]
